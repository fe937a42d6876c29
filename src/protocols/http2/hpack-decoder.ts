// HPACK (RFC 7541) decoding with one dynamic table per connection: the daemon's hand-framed
// transport decodes every request header block of a connection with one decoder, the CLI's unary
// call the blocks of its one answer. Bounded: the table never grows past the size we advertised
// (a size update above it is a COMPRESSION_ERROR), and a block's decoded fields past
// `maxListSize` (RFC 9113 SETTINGS_MAX_HEADER_LIST_SIZE's measure) stop the decoding: indexed
// references to large entries would otherwise turn a small block into a large header list.
import { huffmanDecode } from './huffman.js';

/** RFC 7541 Appendix A, entries 1..61 (0 unused). */
const STATIC_TABLE: readonly (readonly [string, string])[] = [['', ''], ...[
  ':authority', ':method=GET', ':method=POST', ':path=/', ':path=/index.html', ':scheme=http', ':scheme=https', ':status=200',
  ':status=204', ':status=206', ':status=304', ':status=400', ':status=404', ':status=500', 'accept-charset',
  'accept-encoding=gzip, deflate', 'accept-language', 'accept-ranges', 'accept', 'access-control-allow-origin', 'age', 'allow',
  'authorization', 'cache-control', 'content-disposition', 'content-encoding', 'content-language', 'content-length',
  'content-location', 'content-range', 'content-type', 'cookie', 'date', 'etag', 'expect', 'expires', 'from', 'host', 'if-match',
  'if-modified-since', 'if-none-match', 'if-range', 'if-unmodified-since', 'last-modified', 'link', 'location', 'max-forwards',
  'proxy-authenticate', 'proxy-authorization', 'range', 'referer', 'refresh', 'retry-after', 'server', 'set-cookie',
  'strict-transport-security', 'transfer-encoding', 'user-agent', 'vary', 'via', 'www-authenticate',
].map((e) => {
  const eq = e.indexOf('=', 1);
  return eq < 0 ? [e, ''] as const : [e.slice(0, eq), e.slice(eq + 1)] as const;
})];

/** RFC 7541 section 4.1: an entry's size is its name's and value's octets plus 32. */
const ENTRY_OVERHEAD = 32;

/**
 * Huffman-coded strings already decoded, by their code (latin1): some clients send the same value
 * as a literal on every request (grpc-js's :path is never indexed), and decoding bit by bit costs
 * more than the rest of a small call's header block. Bounded: emptied when full.
 */
const huffmanCache = new Map<string, string>();
const HUFFMAN_CACHE_ENTRIES = 512;
const HUFFMAN_CACHE_MAX_CODE = 256;

function cachedHuffmanDecode(raw: Buffer): string {
  if (raw.length > HUFFMAN_CACHE_MAX_CODE) return huffmanDecode(raw);
  const key = raw.toString('latin1');
  let text = huffmanCache.get(key);
  if (text === undefined) {
    text = huffmanDecode(raw);
    if (huffmanCache.size >= HUFFMAN_CACHE_ENTRIES) huffmanCache.clear();
    huffmanCache.set(key, text);
  }
  return text;
}

/** Why a block could not be decoded: a COMPRESSION_ERROR, or (`tooLarge`) a header list past the bound. */
export class HpackDecodeError extends Error {
  override name = 'HpackDecodeError';
  constructor(message: string, readonly tooLarge = false) {
    super(message);
  }
}

export type HeaderField = [name: string, value: string];

export class HpackDecoder {
  /** Newest first. */
  private readonly table: HeaderField[] = [];
  private tableSize = 0;
  private maxTableSize: number;

  constructor(
    /** SETTINGS_HEADER_TABLE_SIZE as we advertised it: the most a size update may ask for. */
    private readonly tableSizeLimit = 4096,
    /** The most a block may decode to, counted as RFC 9113 counts SETTINGS_MAX_HEADER_LIST_SIZE. */
    private readonly maxListSize = Infinity,
  ) {
    this.maxTableSize = tableSizeLimit;
  }

  /** Entries in the dynamic table (tests). */
  get entries(): number {
    return this.table.length;
  }

  /** The fields of one whole header block, in order; throws HpackDecodeError (the table is then unusable: a connection error). */
  decode(block: Buffer): HeaderField[] {
    const fields: HeaderField[] = [];
    let listSize = 0;
    let i = 0;
    let fieldSeen = false;
    const int = (prefixBits: number): number => {
      const max = (1 << prefixBits) - 1;
      let v = block[i++]! & max;
      if (v < max) return v;
      for (let shift = 0; ; shift += 7) {
        if (i >= block.length || shift > 21) throw new HpackDecodeError('bad integer');
        const b = block[i++]!;
        v += (b & 0x7f) * 2 ** shift;
        if (!(b & 0x80)) return v;
      }
    };
    const str = (): string => {
      if (i >= block.length) throw new HpackDecodeError('truncated string');
      const huffman = (block[i]! & 0x80) !== 0;
      const len = int(7);
      if (i + len > block.length) throw new HpackDecodeError('truncated string');
      const raw = block.subarray(i, i + len);
      i += len;
      if (!huffman) return raw.toString('latin1');
      try {
        return cachedHuffmanDecode(raw);
      } catch (err) {
        throw new HpackDecodeError((err as Error).message);
      }
    };
    const entry = (index: number): HeaderField | readonly [string, string] => {
      const e = index < STATIC_TABLE.length ? STATIC_TABLE[index] : this.table[index - STATIC_TABLE.length];
      if (!e || index === 0) throw new HpackDecodeError(`bad index ${index}`);
      return e;
    };
    const push = (name: string, value: string) => {
      listSize += name.length + value.length + ENTRY_OVERHEAD;
      if (listSize > this.maxListSize) throw new HpackDecodeError(`header list larger than ${this.maxListSize}`, true);
      fields.push([name, value]);
    };
    while (i < block.length) {
      const b = block[i]!;
      if (b & 0x80) {
        const [k, v] = entry(int(7));
        push(k, v);
        fieldSeen = true;
      } else if ((b & 0xe0) === 0x20) {
        // A size update comes first in a block (RFC 7541 4.2), and within what we advertised.
        if (fieldSeen) throw new HpackDecodeError('table size update after a field');
        const size = int(5);
        if (size > this.tableSizeLimit) throw new HpackDecodeError(`table size ${size} above ${this.tableSizeLimit}`);
        this.maxTableSize = size;
        this.evict(0);
      } else {
        const indexing = (b & 0xc0) === 0x40;
        const nameIndex = int(indexing ? 6 : 4);
        const name = nameIndex === 0 ? str() : entry(nameIndex)[0];
        const value = str();
        push(name, value);
        fieldSeen = true;
        if (indexing) this.insert(name, value);
      }
    }
    return fields;
  }

  private insert(name: string, value: string): void {
    const size = name.length + value.length + ENTRY_OVERHEAD;
    this.evict(size);
    // An entry larger than the whole table empties it and is not kept (RFC 7541 4.4).
    if (size > this.maxTableSize) return;
    this.table.unshift([name, value]);
    this.tableSize += size;
  }

  /** Evicts until `room` more octets fit. */
  private evict(room: number): void {
    while (this.table.length > 0 && this.tableSize + room > this.maxTableSize) {
      const [k, v] = this.table.pop()!;
      this.tableSize -= k.length + v.length + ENTRY_OVERHEAD;
    }
  }
}
