// Protobuf-decoded values as plain JSON-able data (no dependencies, so the CLI's
// fast path shares it with the full CLI's structured outputs).

/** Plain JSON-able value: Buffers become base64, bigints strings, undefined fields dropped. */
export function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      out[k] = toPlain(v);
    }
    return out;
  }
  return value;
}
