// HPACK's Huffman code (RFC 7541 Appendix B), both ways: the HPACK decoder (hpack-decoder.ts)
// and the daemon's `:authority` patch use it. Strings are latin1 (one char per octet). The tests' full
// reference decoder is test/rig/hpack-reference.ts.

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
