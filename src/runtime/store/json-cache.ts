// Parsed JSON files kept in memory while they are unchanged. A long-lived engine (the daemon)
// reads the same image index, image records and layer metadata on every ImageStatus and
// CreateContainer; one stat (inode, size, mtime, ctime) decides whether the parse it holds
// still stands, instead of open/read/close and a parse. Our writers replace files by rename, so a
// change shows as another inode, size or time. Inode numbers are reused and file times are coarse
// (a few ms), so a file changed within the same tick as the cached version could look the same:
// as git does with its racy index entries, a file whose ctime is not yet RACY_MS old is read but
// not kept. Callers get their own copy. Bounded: the least recently used entry goes first.
import { readFileSync, statSync } from 'node:fs';

/** How old a file's last change must be before its parse is kept (RecordCache keeps the same rule). */
export const RACY_MS = 100;

export class JsonFileCache {
  private readonly entries = new Map<string, { version: string; value: unknown }>();

  constructor(private readonly max = 512) {}

  /** The parsed file, or `fallback` when it does not exist (then throws like readJson without one). */
  async read<T>(path: string, fallback?: T): Promise<T> {
    let version: string;
    let changedMs: number;
    try {
      // One metadata call on the calling thread: cheaper than a thread-pool round trip.
      const s = statSync(path, { bigint: true });
      version = `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
      changedMs = Number(s.ctimeNs / 1_000_000n);
    } catch (error) {
      this.entries.delete(path);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && fallback !== undefined) return fallback;
      throw error;
    }
    const hit = this.entries.get(path);
    if (hit && hit.version === version) {
      // Most recently used last, so that eviction takes the oldest.
      this.entries.delete(path);
      this.entries.set(path, hit);
      return structuredClone(hit.value) as T;
    }
    // Read on the calling thread too (small records): a file changed within RACY_MS is read on
    // every call, as a CreateContainer right after its image's pull does.
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    this.entries.delete(path);
    if (Date.now() - changedMs < RACY_MS) return value as T;
    this.entries.set(path, { version, value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return structuredClone(value) as T;
  }
}
