// The `:authority` fix inside one HPACK header block, without decoding the block (RFC 7541).
// A Go client that sends the socket path as its authority sends it once as a literal "with
// incremental indexing" and then, request after request, as one index into its dynamic table.
// So only literals whose name is `:authority` or `host` are looked at, and an invalid value is
// replaced by one of the same length (each character nghttp2 refuses becomes '_'), keeping the
// representation: the server's dynamic table then holds the same entries, of the same sizes, in
// the same order as the client's, and every later index the client sends names the valid value.
// Every other field passes as its bytes, Huffman-coded or not; most blocks come out unchanged.
// To tell which dynamic entries are named `:authority`/`host`, one flag per entry inserted is kept
// (an index counts from the newest entry, so eviction needs no sizes: the client never names an
// entry it evicted).
import { HpackError, huffmanDecode, huffmanEncode } from '../protocols/http2/huffman.js';

/** Static table indexes of `:authority` and `host`. */
const STATIC_AUTHORITY = 1;
const STATIC_HOST = 38;
const STATIC_ENTRIES = 61;
/** Entries a 64 KiB table can hold (32 octets of overhead each); Node advertises 4 KiB. */
const MAX_ENTRIES = 2048;

/** nghttp2's authority character set: unreserved, pct-encoded, sub-delims, ":", "@", "[", "]". */
const AUTHORITY_RE = /^[A-Za-z0-9\-._~%!$&'()*+,;=:@[\]]*$/;
const INVALID_CHAR = /[^A-Za-z0-9\-._~%!$&'()*+,;=:@[\]]/g;

export function isValidAuthority(value: string): boolean {
  return AUTHORITY_RE.test(value);
}

/** `value` with each character nghttp2 refuses in an authority replaced: same length, so same table size. */
export function validAuthority(value: string): string {
  return value.replace(INVALID_CHAR, '_');
}

const RAW_NAMES = [':authority', 'host'].map((n) => Buffer.from(n, 'latin1'));
/** Huffman-coded (the code and its padding are canonical, so each name has one coding). */
const HUFFMAN_NAMES = [':authority', 'host'].map((n) => huffmanEncode(n));

function readInt(block: Buffer, pos: number, prefixBits: number): [number, number] {
  const mask = (1 << prefixBits) - 1;
  if (pos >= block.length) throw new HpackError('truncated header block');
  let value = block[pos]! & mask;
  pos++;
  if (value < mask) return [value, pos];
  for (let shift = 0; ; shift += 7) {
    if (pos >= block.length) throw new HpackError('truncated integer');
    if (shift > 28) throw new HpackError('integer too large');
    const b = block[pos++]!;
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return [value, pos];
  }
}

/** A string literal at `pos`: its raw octets, whether Huffman-coded, and where it ends. */
function readString(block: Buffer, pos: number): { bytes: Buffer; huffman: boolean; end: number } {
  if (pos >= block.length) throw new HpackError('truncated header block');
  const huffman = (block[pos]! & 0x80) !== 0;
  const [length, start] = readInt(block, pos, 7);
  if (start + length > block.length) throw new HpackError('truncated string');
  return { bytes: block.subarray(start, start + length), huffman, end: start + length };
}

function encodeRawString(value: string): Buffer {
  const out: number[] = [];
  let n = value.length;
  if (n < 0x7f) out.push(n);
  else {
    out.push(0x7f);
    n -= 0x7f;
    while (n >= 0x80) {
      out.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.push(n);
  }
  return Buffer.concat([Buffer.from(out), Buffer.from(value, 'latin1')]);
}

/** Patches the request header blocks of one connection, in order. */
export class AuthorityPatcher {
  /** For each entry the client inserted, oldest first: is its name `:authority` or `host`? */
  private inserted: boolean[] = [];

  /** `block` with invalid authorities replaced (the same Buffer when none was), and whether any was. */
  patch(block: Buffer): { block: Buffer; changed: boolean } {
    let parts: Buffer[] | undefined;
    let copied = 0;
    let pos = 0;
    while (pos < block.length) {
      const b = block[pos]!;
      if (b & 0x80) {
        pos = readInt(block, pos, 7)[1]; // indexed field: refers to a value already valid here
        continue;
      }
      if ((b & 0xe0) === 0x20) {
        pos = readInt(block, pos, 5)[1]; // dynamic table size update
        continue;
      }
      const indexing = (b & 0xc0) === 0x40;
      const [nameIndex, afterIndex] = readInt(block, pos, indexing ? 6 : 4);
      let isAuthority: boolean;
      let valueAt = afterIndex;
      if (nameIndex === 0) {
        const name = readString(block, afterIndex);
        isAuthority = (name.huffman ? HUFFMAN_NAMES : RAW_NAMES).some((n) => n.equals(name.bytes));
        valueAt = name.end;
      } else {
        isAuthority = this.namesAuthority(nameIndex);
      }
      const value = readString(block, valueAt);
      if (indexing) {
        this.inserted.push(isAuthority);
        if (this.inserted.length > 2 * MAX_ENTRIES) this.inserted = this.inserted.slice(-MAX_ENTRIES);
      }
      if (isAuthority) {
        const text = value.huffman ? huffmanDecode(value.bytes) : value.bytes.toString('latin1');
        if (!isValidAuthority(text)) {
          parts ??= [];
          parts.push(block.subarray(copied, valueAt), encodeRawString(validAuthority(text)));
          copied = value.end;
        }
      }
      pos = value.end;
    }
    if (!parts) return { block, changed: false };
    parts.push(block.subarray(copied));
    return { block: Buffer.concat(parts), changed: true };
  }

  private namesAuthority(index: number): boolean {
    if (index <= STATIC_ENTRIES) return index === STATIC_AUTHORITY || index === STATIC_HOST;
    const at = this.inserted.length - 1 - (index - STATIC_ENTRIES - 1);
    if (at < 0 || index - STATIC_ENTRIES > MAX_ENTRIES) throw new HpackError(`header index ${index} past the tables`);
    return this.inserted[at]!;
  }
}
