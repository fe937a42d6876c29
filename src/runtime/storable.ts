// A decoded CRI message as it is kept in a record: the shape a JSON round trip gives (what a record
// read back from disk holds), made in one linear pass. The round trip it replaces cost seconds of the
// event loop for a 2 MB config (100k env vars): each bytes field went through Buffer's toJSON (an
// array of numbers) and a replacer ran for every value.
/** Decodes as Buffer#toString does (invalid sequences become U+FFFD), at a fraction of its per-call cost. */
const UTF8 = new TextDecoder();

/**
 * A deep copy holding only JSON values: bytes (KeyValue.value) become UTF-8 strings, as does a Buffer
 * already in its JSON form; bigints become decimal strings; undefined, functions and symbols are
 * dropped from objects and become null in arrays, as JSON.stringify does.
 */
export function storable<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  if (value instanceof Uint8Array) return UTF8.decode(value);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      out[i] = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : copy(item);
    }
    return out;
  }
  const obj = value as Record<string, unknown>;
  if (obj.type === 'Buffer' && Array.isArray(obj.data)) return Buffer.from(obj.data as number[]).toString();
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    const item = obj[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    out[key] = copy(item);
  }
  return out;
}
