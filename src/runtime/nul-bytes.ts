// No string of a CRI request may carry a NUL byte: names, namespaces and log paths become paths
// and conmon's argv, commands and env become runc's execve arguments, and none of these can hold
// one (Node refuses it in a path or argv, Go's exec in argv and env). Refused at the call that
// brings the string in, with InvalidArgument naming the field, before anything is made; later it
// would fail a StartContainer with an internal error.
import { invalidArgument } from './errors.js';

const MAX_DEPTH = 32;

/** Throws InvalidArgument naming the first string (value or map key) under `value` that holds a NUL. */
export function refuseNulBytes(value: unknown, path: string): void {
  const found = nulPath(value, path, 0);
  if (found) throw invalidArgument(`${found} must not contain a NUL byte`);
}

function nulPath(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  // Env values are bytes in our proto (KeyValue.value; a string on the wire in v1alpha2).
  if (value instanceof Uint8Array) return value.includes(0) ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || ArrayBuffer.isView(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
    if (key.includes('\0')) return `a key of ${path} (${JSON.stringify(key)})`;
    const found = nulPath(item, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}
