// Parsed JSON files kept in memory while they are unchanged. A long-lived engine (the daemon)
// reads the same image index, image records and layer metadata on every ImageStatus and
// CreateContainer; one stat (inode, size, mtime, ctime) now decides whether the parse it holds
// still stands, instead of open/read/close and a parse. Our writers replace files by rename, so
// any change shows as a new inode. Callers get their own copy. Bounded: the least recently used
// entry goes first.
import { readFile, stat } from 'node:fs/promises';

export class JsonFileCache {
  private readonly entries = new Map<string, { version: string; value: unknown }>();

  constructor(private readonly max = 512) {}

  /** The parsed file, or `fallback` when it does not exist (then throws like readJson without one). */
  async read<T>(path: string, fallback?: T): Promise<T> {
    let version: string;
    try {
      const s = await stat(path, { bigint: true });
      version = `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
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
    const value = JSON.parse(await readFile(path, 'utf8')) as unknown;
    this.entries.delete(path);
    this.entries.set(path, { version, value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return structuredClone(value) as T;
  }
}
