// A reference HPACK (RFC 7541) decoder (static + dynamic table) and an encoder that never
// indexes, for tests that read what the authority fix (src/daemon/authority-patch.ts) sends
// nghttp2. The daemon itself needs only the Huffman code of src/daemon/hpack.ts.
import { HpackError, huffmanDecode } from '../../src/protocols/http2/huffman.js';

/** RFC 7541 Appendix A. Index 1..61; entry 0 unused. */
const STATIC_TABLE: ReadonlyArray<readonly [string, string]> = [
  ['', ''],
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'], [':path', '/index.html'],
  [':scheme', 'http'], [':scheme', 'https'], [':status', '200'], [':status', '204'], [':status', '206'],
  [':status', '304'], [':status', '400'], [':status', '404'], [':status', '500'], ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'], ['accept-language', ''], ['accept-ranges', ''], ['accept', ''],
  ['access-control-allow-origin', ''], ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''], ['date', ''],
  ['etag', ''], ['expect', ''], ['expires', ''], ['from', ''], ['host', ''], ['if-match', ''],
  ['if-modified-since', ''], ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''],
  ['last-modified', ''], ['link', ''], ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''],
  ['proxy-authorization', ''], ['range', ''], ['referer', ''], ['refresh', ''], ['retry-after', ''],
  ['server', ''], ['set-cookie', ''], ['strict-transport-security', ''], ['transfer-encoding', ''],
  ['user-agent', ''], ['vary', ''], ['via', ''], ['www-authenticate', ''],
];
const STATIC_NAME_INDEX = new Map<string, number>();
for (let i = STATIC_TABLE.length - 1; i >= 1; i--) STATIC_NAME_INDEX.set(STATIC_TABLE[i][0], i);

export interface HeaderField {
  name: string;
  value: string;
  /** Sent as "never indexed" (sensitive); kept so on re-encoding. */
  neverIndex?: boolean;
}

/** Decodes header blocks of one direction of one connection (the dynamic table persists across blocks). */
export class HpackDecoder {
  private dynamic: Array<readonly [string, string]> = [];
  private size = 0;
  private maxSize = 4096;

  /** `limit`: the largest table size the peer may set (our SETTINGS_HEADER_TABLE_SIZE as the peer saw it). */
  constructor(private readonly limit = 65536) {}

  decode(block: Uint8Array): HeaderField[] {
    const fields: HeaderField[] = [];
    let pos = 0;
    const int = (prefixBits: number): number => {
      const mask = (1 << prefixBits) - 1;
      if (pos >= block.length) throw new HpackError('truncated integer');
      let value = block[pos++] & mask;
      if (value < mask) return value;
      let shift = 0;
      for (;;) {
        if (pos >= block.length) throw new HpackError('truncated integer');
        const b = block[pos++];
        value += (b & 0x7f) * 2 ** shift;
        shift += 7;
        if (value > 0xffffffff) throw new HpackError('integer overflow');
        if ((b & 0x80) === 0) return value;
      }
    };
    const str = (): string => {
      if (pos >= block.length) throw new HpackError('truncated string');
      const huff = (block[pos] & 0x80) !== 0;
      const len = int(7);
      if (pos + len > block.length) throw new HpackError('truncated string');
      const raw = block.subarray(pos, pos + len);
      pos += len;
      return huff ? huffmanDecode(raw) : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1');
    };
    while (pos < block.length) {
      const b = block[pos];
      if (b & 0x80) {
        const [name, value] = this.entry(int(7));
        fields.push({ name, value });
      } else if (b & 0x40) {
        const idx = int(6);
        const name = idx === 0 ? str() : this.entry(idx)[0];
        const value = str();
        this.add(name, value);
        fields.push({ name, value });
      } else if (b & 0x20) {
        const size = int(5);
        if (size > this.limit) throw new HpackError(`table size update ${size} exceeds ${this.limit}`);
        this.maxSize = size;
        this.evict(0);
      } else {
        const neverIndex = (b & 0x10) !== 0;
        const idx = int(4);
        const name = idx === 0 ? str() : this.entry(idx)[0];
        const value = str();
        fields.push(neverIndex ? { name, value, neverIndex } : { name, value });
      }
    }
    return fields;
  }

  private entry(index: number): readonly [string, string] {
    if (index === 0) throw new HpackError('index 0');
    if (index < STATIC_TABLE.length) return STATIC_TABLE[index];
    const e = this.dynamic[index - STATIC_TABLE.length];
    if (!e) throw new HpackError(`index ${index} out of range`);
    return e;
  }

  private add(name: string, value: string): void {
    const size = name.length + value.length + 32;
    this.evict(size);
    if (size <= this.maxSize) {
      this.dynamic.unshift([name, value]);
      this.size += size;
    }
  }

  /** Evicts oldest entries until `incoming` more octets fit. */
  private evict(incoming: number): void {
    while (this.dynamic.length > 0 && this.size + incoming > this.maxSize) {
      const [n, v] = this.dynamic.pop()!;
      this.size -= n.length + v.length + 32;
    }
  }
}

function encodeInt(out: number[], value: number, prefixBits: number, firstByte: number): void {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    out.push(firstByte | value);
    return;
  }
  out.push(firstByte | max);
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
}

function encodeString(out: number[], s: string): void {
  encodeInt(out, s.length, 7, 0);
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i) & 0xff);
}

/** Literal representations only ("without indexing" / "never indexed"): stateless. */
export function encodeHeaderBlock(fields: HeaderField[]): Buffer {
  const out: number[] = [];
  for (const f of fields) {
    const idx = STATIC_NAME_INDEX.get(f.name) ?? 0;
    encodeInt(out, idx, 4, f.neverIndex ? 0x10 : 0x00);
    if (idx === 0) encodeString(out, f.name);
    encodeString(out, f.value);
  }
  return Buffer.from(out);
}
