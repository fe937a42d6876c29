// Parsed records for the list answers kubelet asks for every second (PLEG relist): reading and
// parsing every meta.json per ListContainers cost ~4 ms with 50 containers (interpreted under the
// daemon's --lite-mode, plus the garbage it leaves), a stat ~0.8 ms. So a record parsed once is
// kept under its file's identity (inode, size, mtime and ctime): every write goes through a
// rename of a new file (writeJsonAtomic), and any write, by this process or another one sharing
// the root, changes that identity. The stat comes before the read, so what is kept is never older
// than the identity it is kept under: a write in between only costs one more read next time.
// Inode numbers are reused and file times are coarse (a clock tick), so a file rewritten within
// the tick of the version read could show the same identity: as JsonFileCache does (git's racy
// entries), a parse is kept only once the file's last change is RACY_MS old.
// Records given out are frozen and shared by every caller: read them, never change them.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { RACY_MS } from './json-cache.js';

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

/** The part of a stat the cache reads. */
export type FileIdentity = Pick<Stats, 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

export class RecordCache<T> {
  private entries = new Map<string, Entry<T>>();

  /** `stat` is replaceable so that a unit test can show a racy identity, which fine-grained file times hide. */
  constructor(private readonly stat: (path: string) => FileIdentity | undefined = (path) => statSync(path, { throwIfNoEntry: false })) {}

  /** The record in `path` (undefined when it is gone), parsed again only when the file changed. */
  read(key: string, path: string): T | undefined {
    const st = this.stat(path);
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
    if (Date.now() - st.ctimeMs < RACY_MS) this.entries.delete(key);
    else this.entries.set(key, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, record });
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
