// Just enough HPACK (RFC 7541): the Huffman code, which authority-patch.ts uses on
// `:authority` literals; a full decoder (static + dynamic table) and an encoder that
// never indexes, which the tests use to read what the authority fix sends nghttp2.
// Header names and values are latin1 strings (one char per octet) so lengths are
// octet counts as the table size rules need.

/** Code length in bits of each symbol 0..255 (RFC 7541 Appendix B); EOS (256) is 30 bits. */
const HUFFMAN_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
];
const EOS = 256;

export class HpackError extends Error {
  override name = 'HpackError';
}

/**
 * The HPACK code is canonical (codes of one length are consecutive, in symbol
 * order), so the lengths alone define it. Decoding walks a binary tree stored
 * in a flat array: node i has children at tree[2i] and tree[2i+1]; a child
 * value < 0 is a leaf holding ~symbol, 0 means no child yet.
 */
function buildTree(): { tree: Int32Array; codes: Uint32Array } {
  const order = HUFFMAN_LENGTHS.map((len, sym) => ({ len, sym })).sort((a, b) => a.len - b.len || a.sym - b.sym);
  const codes = new Uint32Array(257);
  let code = 0;
  let prevLen = order[0].len;
  for (const { len, sym } of order) {
    code <<= len - prevLen;
    prevLen = len;
    codes[sym] = code;
    code++;
  }
  const tree = new Int32Array(2 * 600);
  let nodes = 1;
  for (let sym = 0; sym <= EOS; sym++) {
    const len = HUFFMAN_LENGTHS[sym];
    let node = 0;
    for (let bit = len - 1; bit >= 0; bit--) {
      const slot = 2 * node + ((codes[sym] >>> bit) & 1);
      if (bit === 0) tree[slot] = ~sym;
      else {
        if (tree[slot] === 0) tree[slot] = nodes++;
        node = tree[slot];
      }
    }
  }
  return { tree, codes };
}

let huffman: ReturnType<typeof buildTree> | undefined;

export function huffmanDecode(buf: Uint8Array): string {
  huffman ??= buildTree();
  const { tree } = huffman;
  let out = '';
  let node = 0;
  let depth = 0;
  let allOnes = true;
  for (const byte of buf) {
    for (let bit = 7; bit >= 0; bit--) {
      const b = (byte >>> bit) & 1;
      const next = tree[2 * node + b];
      depth++;
      allOnes &&= b === 1;
      if (next < 0) {
        const sym = ~next;
        if (sym === EOS) throw new HpackError('Huffman string contains EOS');
        out += String.fromCharCode(sym);
        node = 0;
        depth = 0;
        allOnes = true;
      } else if (next === 0) {
        throw new HpackError('invalid Huffman code');
      } else node = next;
    }
  }
  // Padding: at most 7 bits, all ones (a prefix of EOS).
  if (depth > 7 || !allOnes) throw new HpackError('invalid Huffman padding');
  return out;
}

/** Huffman-encodes a latin1 string (tests and callers that want compact output). */
export function huffmanEncode(text: string): Buffer {
  huffman ??= buildTree();
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const sym = text.charCodeAt(i) & 0xff;
    let len = HUFFMAN_LENGTHS[sym];
    const code = huffman.codes[sym];
    while (len > 0) {
      const take = Math.min(len, 8 - bits);
      acc = (acc << take) | ((code >>> (len - take)) & ((1 << take) - 1));
      bits += take;
      len -= take;
      if (bits === 8) {
        bytes.push(acc & 0xff);
        acc = 0;
        bits = 0;
      }
    }
  }
  if (bits > 0) bytes.push(((acc << (8 - bits)) | ((1 << (8 - bits)) - 1)) & 0xff);
  return Buffer.from(bytes);
}

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
