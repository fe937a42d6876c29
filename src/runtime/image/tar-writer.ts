// Minimal streaming tar writer (ustar + PAX for long names, large values and
// xattrs). Used to build images from local directories and by tests to make
// layers; it writes what readTar reads.
import { createReadStream, type Stats } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { TarEntryType } from './tar-reader.js';

export interface TarWriteEntry {
  name: string;
  type: TarEntryType;
  mode?: number;
  uid?: number;
  gid?: number;
  mtime?: number;
  linkname?: string;
  devmajor?: number;
  devminor?: number;
  xattrs?: Record<string, string | Buffer>;
  /** File content (small in-memory) or a file to stream from. */
  data?: Buffer | string;
  sourcePath?: string;
  size?: number;
}

const TYPEFLAG: Record<TarEntryType, string> = {
  file: '0',
  hardlink: '1',
  symlink: '2',
  char: '3',
  block: '4',
  directory: '5',
  fifo: '6',
};

function writeString(buf: Buffer, value: string, start: number, length: number): boolean {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) return false;
  bytes.copy(buf, start);
  return true;
}

function writeOctal(buf: Buffer, value: number, start: number, length: number): boolean {
  const text = Math.floor(value).toString(8);
  if (text.length > length - 1) return false;
  buf.write(text.padStart(length - 1, '0'), start, 'ascii');
  return true;
}

function paxRecord(key: string, value: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(` ${key}=`), value, Buffer.from('\n')]);
  let len = body.length + 1;
  while (String(len).length + body.length !== len) len = String(len).length + body.length;
  return Buffer.concat([Buffer.from(String(len)), body]);
}

function header(name: string, typeflag: string, e: TarWriteEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  writeString(h, name, 0, 100);
  writeOctal(h, e.mode ?? (e.type === 'directory' ? 0o755 : 0o644), 100, 8);
  writeOctal(h, e.uid ?? 0, 108, 8);
  writeOctal(h, e.gid ?? 0, 116, 8);
  writeOctal(h, size, 124, 12);
  writeOctal(h, e.mtime ?? 0, 136, 12);
  h.write(typeflag, 156, 'latin1');
  writeString(h, e.linkname ?? '', 157, 100);
  h.write('ustar\x0000', 257, 'latin1');
  writeOctal(h, e.devmajor ?? 0, 329, 8);
  writeOctal(h, e.devminor ?? 0, 337, 8);
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += h[i]!;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

const pad = (n: number) => Buffer.alloc((512 - (n % 512)) % 512);

/** Encodes one entry: optional PAX header, header, body, padding. */
export async function* tarEntry(e: TarWriteEntry): AsyncGenerator<Buffer> {
  const name = e.type === 'directory' && !e.name.endsWith('/') ? `${e.name}/` : e.name;
  const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
  const size = e.type === 'file' ? (data?.length ?? e.size ?? 0) : 0;
  const records: Buffer[] = [];
  if (Buffer.byteLength(name) > 100) records.push(paxRecord('path', Buffer.from(name)));
  if (Buffer.byteLength(e.linkname ?? '') > 100) records.push(paxRecord('linkpath', Buffer.from(e.linkname!)));
  if (size >= 8 ** 11) records.push(paxRecord('size', Buffer.from(String(size))));
  for (const [key, value] of Object.entries(e.xattrs ?? {})) {
    records.push(paxRecord(`SCHILY.xattr.${key}`, typeof value === 'string' ? Buffer.from(value) : value));
  }
  if (records.length) {
    const body = Buffer.concat(records);
    yield header('PaxHeaders/entry', 'x', { name: '', type: 'file' }, body.length);
    yield body;
    yield pad(body.length);
  }
  yield header(name.slice(0, 100), TYPEFLAG[e.type], e, size >= 8 ** 11 ? 0 : size);
  if (e.type !== 'file') return;
  if (data) {
    yield data;
  } else if (e.sourcePath) {
    let written = 0;
    for await (const chunk of createReadStream(e.sourcePath, { highWaterMark: 1 << 20 })) {
      const buf = chunk as Buffer;
      written += buf.length;
      if (written > size) throw new Error(`${e.sourcePath} grew while being archived`);
      yield buf;
    }
    if (written !== size) throw new Error(`${e.sourcePath} shrank while being archived`);
  }
  yield pad(size);
}

/** A whole archive from a list of entries, with the two zero blocks at the end. */
export async function* tarStream(entries: Iterable<TarWriteEntry> | AsyncIterable<TarWriteEntry>): AsyncGenerator<Buffer> {
  for await (const e of entries) yield* tarEntry(e);
  yield Buffer.alloc(1024);
}

/** The tar header fields an lstat gives, for the entry named `name`. */
export function entryBase(name: string, st: Stats) {
  return { name, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid, mtime: Math.floor(st.mtimeMs / 1000) };
}

/**
 * The entry for a file that is not a directory: a link, a regular file (a hardlink to the first
 * name of an inode already `seen`), a device or a FIFO. Sockets have no tar type: undefined.
 */
export async function leafEntry(name: string, full: string, st: Stats, seen: Map<string, string>): Promise<TarWriteEntry | undefined> {
  const base = entryBase(name, st);
  if (st.isSymbolicLink()) return { ...base, type: 'symlink', linkname: await readlink(full) };
  if (st.isFile()) {
    const key = `${st.dev}:${st.ino}`;
    if (st.nlink > 1 && seen.has(key)) return { ...base, type: 'hardlink', linkname: seen.get(key)! };
    if (st.nlink > 1) seen.set(key, name);
    return { ...base, type: 'file', sourcePath: full, size: st.size };
  }
  if (st.isCharacterDevice() || st.isBlockDevice()) {
    return {
      ...base,
      type: st.isCharacterDevice() ? 'char' : 'block',
      devmajor: Math.floor(st.rdev / 256) & 0xfff,
      devminor: (st.rdev & 0xff) | ((st.rdev >> 12) & 0xfff00),
    };
  }
  if (st.isFIFO()) return { ...base, type: 'fifo' };
  return undefined;
}

/** Entries for a directory tree (sorted, hardlinks detected by inode), names relative to `dir`. */
export async function* directoryEntries(dir: string): AsyncGenerator<TarWriteEntry> {
  const seen = new Map<string, string>();
  async function* walk(rel: string): AsyncGenerator<TarWriteEntry> {
    const names = (await readdir(join(dir, rel))).sort();
    for (const name of names) {
      const relPath = rel ? `${rel}/${name}` : name;
      const full = join(dir, relPath);
      const st = await lstat(full);
      if (st.isDirectory()) {
        yield { ...entryBase(relPath, st), type: 'directory' };
        yield* walk(relPath);
      } else {
        const entry = await leafEntry(relPath, full, st, seen);
        if (entry) yield entry;
      }
    }
  }
  yield* walk('');
}
