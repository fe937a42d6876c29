// Streaming tar reader (ustar, GNU long names, PAX headers). It pulls chunks
// from an async iterable and hands out entries one at a time; an entry's body
// must be read (or is skipped) before the next entry. Nothing is buffered
// beyond one chunk, so layers of any size stream through in constant memory.
import { invalidArgument } from '../errors.js';

export type TarEntryType = 'file' | 'hardlink' | 'symlink' | 'char' | 'block' | 'directory' | 'fifo';

export interface TarEntry {
  name: string;
  type: TarEntryType;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  mtime: number;
  linkname: string;
  devmajor: number;
  devminor: number;
  /** From PAX SCHILY.xattr.* records. */
  xattrs: Map<string, Buffer>;
  uname: string;
  gname: string;
}

const TYPES: Record<string, TarEntryType> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '1': 'hardlink',
  '2': 'symlink',
  '3': 'char',
  '4': 'block',
  '5': 'directory',
  '6': 'fifo',
};

/** Pulls exact byte counts out of a chunk stream. */
class ByteSource {
  private buffered: Buffer[] = [];
  private bufferedLength = 0;
  private ended = false;
  private readonly iterator: AsyncIterator<Uint8Array>;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.iterator.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    if (chunk.length) {
      this.buffered.push(chunk);
      this.bufferedLength += chunk.length;
    }
    return true;
  }

  /** Exactly n bytes when that many are buffered already (no await), else undefined. */
  readBuffered(n: number): Buffer | undefined {
    if (this.bufferedLength < n) return undefined;
    const head = this.buffered[0]!;
    if (head.length < n) return undefined;
    if (head.length === n) {
      this.buffered.shift();
    } else {
      this.buffered[0] = head.subarray(n);
    }
    this.bufferedLength -= n;
    return head.subarray(0, n);
  }

  /** Exactly n bytes, or fewer only at end of stream. */
  async read(n: number): Promise<Buffer> {
    const ready = this.readBuffered(n);
    if (ready) return ready;
    while (this.bufferedLength < n && (await this.fill()));
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    const out = all.subarray(0, Math.min(n, all.length));
    const rest = all.subarray(out.length);
    this.buffered = rest.length ? [rest] : [];
    this.bufferedLength = rest.length;
    return out;
  }

  /** Yields up to n bytes as they arrive, without gathering them. */
  async *stream(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.bufferedLength === 0 && !(await this.fill())) throw invalidArgument('tar stream truncated inside an entry');
      while (this.buffered.length && left > 0) {
        const head = this.buffered[0]!;
        if (head.length <= left) {
          this.buffered.shift();
          this.bufferedLength -= head.length;
          left -= head.length;
          yield head;
        } else {
          this.buffered[0] = head.subarray(left);
          this.bufferedLength -= left;
          const out = head.subarray(0, left);
          left = 0;
          yield out;
        }
      }
    }
  }

  async skip(n: number): Promise<void> {
    if (n === 0 || this.readBuffered(n)) return;
    for await (const _ of this.stream(n));
  }

  /**
   * Skips up to n bytes, stopping quietly at end of stream: an entry's trailing padding may be
   * cut off (Go's archive/tar, and so containerd and Docker, read such archives to the end).
   */
  async skipPadding(n: number): Promise<void> {
    if (n === 0 || this.readBuffered(n)) return;
    await this.read(n);
  }

  /** Reads the rest so that upstream digests cover the whole stream. */
  async drain(): Promise<void> {
    this.buffered = [];
    this.bufferedLength = 0;
    while (await this.fill()) {
      this.buffered = [];
      this.bufferedLength = 0;
    }
  }
}

// Header fields are read byte by byte, without Buffer helpers: the daemon runs under V8's
// --lite-mode (no optimising compiler), where each helper call is several interpreted frames and
// parsing a busybox layer's 284 headers through them cost more CPU than writing its files.

/** The NUL-terminated string in a header field. */
function cString(buf: Buffer, start: number, length: number): string {
  const limit = start + length;
  let end = start;
  while (end < limit && buf[end] !== 0) end++;
  return end === start ? '' : buf.toString('utf8', start, end);
}

const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** An octal number field (as parseInt(text, 8) of the trimmed text up to NUL: NaN for garbage), or GNU base-256. */
function octal(buf: Buffer, start: number, length: number): number {
  const end = start + length;
  if (buf[start]! & 0x80) {
    // GNU base-256 for values beyond the octal field.
    let value = buf[start]! & 0x7f;
    for (let i = start + 1; i < end; i++) value = value * 256 + buf[i]!;
    return value;
  }
  let stop = start;
  while (stop < end && buf[stop] !== 0) stop++;
  let i = start;
  while (i < stop && isSpace(buf[i]!)) i++;
  if (i === stop) return 0;
  let value = 0;
  const first = i;
  for (; i < stop; i++) {
    const c = buf[i]!;
    if (c < 0x30 || c > 0x37) break;
    value = value * 8 + (c - 0x30);
  }
  return i === first ? NaN : value;
}

const headerCopy = new Uint8Array(512);
const headerWords = new Uint32Array(headerCopy.buffer);

/** The header's byte sum (checksum field counted as spaces) equals its checksum field. */
function checksumOk(header: Buffer): boolean {
  headerCopy.set(header);
  // Four bytes per step: two 16-bit lanes each gather two bytes a word (at most 128 * 510 < 2^16).
  let lanes = 0;
  for (let i = 0; i < 128; i++) {
    const w = headerWords[i]!;
    lanes += (w & 0x00ff00ff) + ((w >>> 8) & 0x00ff00ff);
  }
  let sum = (lanes & 0xffff) + (lanes >>> 16) + 8 * 0x20;
  for (let i = 148; i < 156; i++) sum -= header[i]!;
  return sum === octal(header, 148, 8);
}

const ZERO_BLOCK = Buffer.alloc(512);
const NO_ATTRS: ReadonlyMap<string, Buffer> = new Map();

function isUstar(header: Buffer): boolean {
  return header[257] === 0x75 && header[258] === 0x73 && header[259] === 0x74 && header[260] === 0x61 && header[261] === 0x72;
}

function parsePax(data: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    if (space < 0) break;
    const len = Number.parseInt(data.subarray(pos, space).toString('ascii'), 10);
    if (!Number.isFinite(len) || len <= 0 || pos + len > data.length) throw invalidArgument('malformed PAX header');
    const record = data.subarray(space + 1, pos + len - 1);
    const eq = record.indexOf(0x3d);
    if (eq > 0) out.set(record.subarray(0, eq).toString('utf8'), Buffer.from(record.subarray(eq + 1)));
    pos += len;
  }
  return out;
}

const MAX_META = 1 << 20;

/**
 * Iterates the entries of a tar stream. For each entry, `body` yields the
 * content of regular files; leaving it unread skips it.
 */
export async function* readTar(source: AsyncIterable<Uint8Array>): AsyncGenerator<{ entry: TarEntry; body: AsyncIterable<Buffer> }> {
  const src = new ByteSource(source);
  let globalPax = new Map<string, Buffer>();
  let pax = new Map<string, Buffer>();
  let longName: string | undefined;
  let longLink: string | undefined;
  for (;;) {
    const header = src.readBuffered(512) ?? (await src.read(512));
    if (header.length === 0) return;
    if (header.length < 512) throw invalidArgument('tar stream truncated inside a header');
    if (!checksumOk(header)) {
      if (header.equals(ZERO_BLOCK)) {
        await src.drain();
        return;
      }
      throw invalidArgument('tar header checksum mismatch (not a tar stream?)');
    }
    const typeflag = String.fromCharCode(header[156]!);
    const size = octal(header, 124, 12);
    const padded = Math.ceil(size / 512) * 512;
    if (typeflag === 'x' || typeflag === 'g' || typeflag === 'L' || typeflag === 'K') {
      if (size > MAX_META) throw invalidArgument(`tar metadata entry of ${size} bytes is too large`);
      const data = await src.read(size);
      if (data.length < size) throw invalidArgument('tar stream truncated inside an entry');
      await src.skipPadding(padded - size);
      if (typeflag === 'x') pax = new Map([...pax, ...parsePax(data)]);
      else if (typeflag === 'g') globalPax = new Map([...globalPax, ...parsePax(data)]);
      else if (typeflag === 'L') longName = cString(data, 0, data.length);
      else longLink = cString(data, 0, data.length);
      continue;
    }
    const type = TYPES[typeflag];
    if (!type) throw invalidArgument(`unsupported tar entry type "${typeflag}" (sparse and volume entries are not supported)`);
    const attrs: ReadonlyMap<string, Buffer> = globalPax.size || pax.size ? new Map([...globalPax, ...pax]) : NO_ATTRS;
    const prefix = isUstar(header) ? cString(header, 345, 155) : '';
    let name = cString(header, 0, 100);
    if (prefix) name = `${prefix}/${name}`;
    if (longName !== undefined) name = longName;
    if (attrs.has('path')) name = attrs.get('path')!.toString('utf8');
    let linkname = longLink ?? cString(header, 157, 100);
    if (attrs.has('linkpath')) linkname = attrs.get('linkpath')!.toString('utf8');
    const xattrs = new Map<string, Buffer>();
    if (attrs.size) for (const [key, value] of attrs) if (key.startsWith('SCHILY.xattr.')) xattrs.set(key.slice(13), value);
    const realSize = attrs.has('size') ? Number(attrs.get('size')!.toString()) : size;
    const mtime = attrs.has('mtime') ? Number.parseFloat(attrs.get('mtime')!.toString()) : octal(header, 136, 12);
    const entry: TarEntry = {
      name,
      type,
      mode: octal(header, 100, 8) & 0o7777,
      uid: attrs.has('uid') ? Number(attrs.get('uid')!.toString()) : octal(header, 108, 8),
      gid: attrs.has('gid') ? Number(attrs.get('gid')!.toString()) : octal(header, 116, 8),
      size: type === 'file' ? realSize : 0,
      mtime,
      linkname,
      devmajor: type === 'char' || type === 'block' ? octal(header, 329, 8) : 0,
      devminor: type === 'char' || type === 'block' ? octal(header, 337, 8) : 0,
      xattrs,
      uname: attrs.get('uname')?.toString() ?? cString(header, 265, 32),
      gname: attrs.get('gname')?.toString() ?? cString(header, 297, 32),
    };
    if (pax.size) pax = new Map();
    longName = undefined;
    longLink = undefined;
    const dataSize = typeflag === '1' || typeflag === '2' || typeflag === '5' ? 0 : realSize;
    const dataPadded = Math.ceil(dataSize / 512) * 512;
    let consumed = false;
    const body: AsyncIterable<Buffer> = {
      [Symbol.asyncIterator]: () => {
        if (consumed) throw new Error('tar entry body read twice');
        consumed = true;
        return src.stream(dataSize)[Symbol.asyncIterator]();
      },
    };
    let bodyDone = false;
    const wrapped: AsyncIterable<Buffer> = {
      [Symbol.asyncIterator]: async function* () {
        for await (const chunk of body) yield chunk;
        bodyDone = true;
      },
    };
    yield { entry, body: wrapped };
    if (!consumed) await src.skip(dataSize);
    else if (!bodyDone) throw new Error('tar entry body left half read');
    await src.skipPadding(dataPadded - dataSize);
  }
}
