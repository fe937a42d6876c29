// HPACK (RFC 7541) encoding as literals without indexing, strings raw: the encoder keeps no state,
// so the peer's decoder table never changes, and a block can be built once and sent on any
// connection (the daemon's fixed response headers are).

/** RFC 7541 5.1: `value` with a `prefixBits`-bit prefix, `high` holding the bits above it. */
export function hpackInt(value: number, prefixBits: number, high: number): Buffer {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([high | value]);
  const out = [high | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** "Literal header field without indexing, new name", both strings raw (latin1: one octet a char). */
export function hpackLiteral(name: string, value: string): Buffer {
  const n = Buffer.from(name, 'latin1');
  const v = Buffer.from(value, 'latin1');
  return Buffer.concat([Buffer.from([0]), hpackInt(n.length, 7, 0), n, hpackInt(v.length, 7, 0), v]);
}

/** A header block of literals, in order. Values are sent as given: callers keep them to visible ASCII. */
export function hpackEncode(fields: Iterable<readonly [string, string]>): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of fields) parts.push(hpackLiteral(k, v));
  return Buffer.concat(parts);
}
