// No string of a CRI request may carry a NUL byte: names, namespaces and log paths become paths
// and conmon's argv, commands and env become runc's execve arguments, and none of these can hold
// one (Node refuses it in a path or argv, Go's exec in argv and env). Refused at the call that
// brings the string in, with InvalidArgument naming the field, before anything is made; later it
// would fail a StartContainer with an internal error.
import { invalidArgument } from './errors.js';

const MAX_DEPTH = 32;
/** Marks a path whose NUL is in a map key, not a value. */
const KEY = '\0key:';

/** Throws InvalidArgument naming the first string (value or map key) under `value` that holds a NUL. */
export function refuseNulBytes(value: unknown, path: string): void {
  const found = nulPath(value, 0);
  if (!found) return;
  const [innermost] = found;
  if (innermost?.startsWith(KEY)) throw invalidArgument(`a key of ${path}${found.slice(1).reverse().join('')} (${innermost.slice(KEY.length)}) must not contain a NUL byte`);
  throw invalidArgument(`${path}${found.reverse().join('')} must not contain a NUL byte`);
}

/**
 * The path below `value` to the first NUL, as segments innermost first; undefined when none. The
 * path is built only on the way out of a hit: a 100k-entry env costs one pass and no strings.
 */
function nulPath(value: unknown, depth: number): string[] | undefined {
  if (typeof value === 'string') return value.includes('\0') ? [] : undefined;
  // Env values are bytes in our proto (KeyValue.value; a string on the wire in v1alpha2).
  if (value instanceof Uint8Array) return value.includes(0) ? [] : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || ArrayBuffer.isView(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], depth + 1);
      if (found) return [...found, `[${i}]`];
    }
    return undefined;
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (key.includes('\0')) return [`${KEY}${JSON.stringify(key)}`];
    const found = nulPath(obj[key], depth + 1);
    if (found) return [...found, /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`];
  }
  return undefined;
}
