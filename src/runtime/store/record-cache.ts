// Parsed records for the list answers kubelet asks for every second (PLEG relist): reading and
// parsing every meta.json per ListContainers cost ~4 ms with 50 containers (interpreted under the
// daemon's --lite-mode, plus the garbage it leaves), a stat ~0.8 ms. So a record parsed once is
// kept under its file's identity (inode, size, mtime and ctime): every write goes through a
// rename of a new file (writeJsonAtomic), and any write, by this process or another one sharing
// the root, changes that identity. The stat comes before the read, so what is kept is never older
// than the identity it is kept under: a write in between only costs one more read next time.
// Records given out are frozen and shared by every caller: read them, never change them.
import { readFileSync, statSync } from 'node:fs';

/** A file's identity. Milliseconds as doubles keep sub-microsecond precision for today's dates. */
interface Entry<T> {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  record: T;
}

/** Freezes `value` and everything reachable from it (records are plain JSON). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export class RecordCache<T> {
  private entries = new Map<string, Entry<T>>();

  /** The record in `path` (undefined when it is gone), parsed again only when the file changed. */
  read(key: string, path: string): T | undefined {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) {
      this.entries.delete(key);
      return undefined;
    }
    const hit = this.entries.get(key);
    if (hit && hit.ino === st.ino && hit.size === st.size && hit.mtimeMs === st.mtimeMs && hit.ctimeMs === st.ctimeMs) return hit.record;
    let record: T;
    try {
      record = deepFreeze(JSON.parse(readFileSync(path, 'utf8')) as T);
    } catch (error) {
      this.entries.delete(key);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    this.entries.set(key, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, record });
    return record;
  }

  /** Forgets every key not in `live` (objects removed since); `live` holds every key read since the last call. */
  keepOnly(live: readonly string[]): void {
    if (this.entries.size <= live.length) return;
    const keep = new Set(live);
    for (const key of this.entries.keys()) if (!keep.has(key)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
