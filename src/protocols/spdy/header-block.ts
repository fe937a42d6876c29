// The SPDY/3 name/value header block, before compression: a 32-bit pair
// count, then for each pair a 32-bit length and bytes for the name and for
// the value. Names are lowercase on the wire; several values of one name
// are joined with NUL.
import { SpdyProtocolError } from './frames.js';

/** Header names are lowercase; a value holding several values separates them with '\0'. */
export type SpdyHeaders = Record<string, string>;

export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const entries = Object.entries(headers);
  const parts: Buffer[] = [u32(entries.length)];
  for (const [name, value] of entries) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(value, 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(block: Buffer): SpdyHeaders {
  let off = 0;
  const read = (): Buffer => {
    if (off + 4 > block.length) throw new SpdyProtocolError('truncated header block');
    const len = block.readUInt32BE(off);
    off += 4;
    if (off + len > block.length) throw new SpdyProtocolError('truncated header block');
    const out = block.subarray(off, off + len);
    off += len;
    return out;
  };
  if (block.length < 4) throw new SpdyProtocolError('truncated header block');
  const count = block.readUInt32BE(0);
  off = 4;
  const headers: SpdyHeaders = {};
  for (let i = 0; i < count; i++) {
    const name = read().toString('utf8').toLowerCase();
    const value = read().toString('utf8');
    if (name.length === 0) throw new SpdyProtocolError('empty header name');
    headers[name] = name in headers ? `${headers[name]}\0${value}` : value;
  }
  return headers;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}
