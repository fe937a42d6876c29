// On-disk records of sandboxes and containers: <root>/<kind>/<id>/meta.json.
// A record changes only under the object's file lock (`update`, or `putLocked`
// inside `withLock`; flock: released by the kernel if the holder dies) and is
// written atomically, so
// several CLI processes and a daemon can share one root; only work on the same
// object is serialised. Listing reads the records (never parses names).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { alreadyExists, notFound } from '../errors.js';
import { writeJsonAtomic } from './atomic-file.js';
import { LockFileGone, removeHeldLock, withFileLock } from './lock.js';
import { mkdirPrivate } from './private-dirs.js';
import { RecordCache } from './record-cache.js';
import { placeChildTreesApart } from './top-directory.js';
import { discard, makeTrash } from './trash.js';
import { joinPath } from './path-join.js';

export interface StoredObject {
  id: string;
}

export const ID_PATTERN = /^[0-9a-f]{64}$/;

export class StateStore<T extends StoredObject> {
  private readonly dir: string;
  private readonly lockDir: string;
  private readonly trashDir: string;
  private readonly shared = new RecordCache<T>();

  constructor(root: string, readonly kind: 'sandboxes' | 'containers') {
    this.dir = joinPath(root, kind);
    this.lockDir = joinPath(root, 'locks', kind);
    this.trashDir = joinPath(root, 'trash');
  }

  async init(): Promise<void> {
    await mkdirPrivate(this.dir);
    placeChildTreesApart(this.dir); // each object's dir a tree of its own (meta.json, bundle, pod files)
    await mkdirPrivate(this.lockDir);
    await makeTrash(this.trashDir);
  }

  objectDir(id: string): string {
    return joinPath(this.dir, id);
  }

  private metaPath(id: string): string {
    // Concatenation, not path.join: IDs are 64 hex digits (nothing to normalise), and join's
    // normalisation, interpreted under the --lite-mode the daemon then ran with, cost a tenth of a 50-pod list.
    return `${this.dir}/${id}/meta.json`;
  }

  /** Runs fn while holding the object's exclusive lock. */
  withLock<R>(id: string, fn: () => Promise<R>): Promise<R> {
    return withFileLock(this.lockPath(id), fn, { timeoutMs: 120_000 });
  }

  /**
   * Runs fn while holding the object's lock shared: holders run side by side and exclude withLock's
   * (e.g. containers committing into a pod, against the pod's removal). Undefined, without running
   * fn, when the object was removed (its lock file went with it; none is made again).
   */
  async withSharedLock<R>(id: string, fn: () => Promise<R>): Promise<R | undefined> {
    try {
      return await withFileLock(this.lockPath(id), fn, { shared: true, existing: true, timeoutMs: 120_000 });
    } catch (error) {
      if (error instanceof LockFileGone) return undefined;
      throw error;
    }
  }

  /**
   * Runs fn under the object's exclusive lock, unless the object is gone: undefined then, and no
   * lock file is made again for it (a late observer of a removed object leaves nothing behind).
   */
  async withLockIfPresent<R>(id: string, fn: () => Promise<R>): Promise<R | undefined> {
    try {
      return await withFileLock(this.lockPath(id), fn, { existing: true, timeoutMs: 120_000 });
    } catch (error) {
      if (!(error instanceof LockFileGone)) throw error;
      // A record without its lock file (none was ever removed for a live object): lock it as usual.
      return (await this.get(id)) ? this.withLock(id, fn) : undefined;
    }
  }

  private lockPath(id: string): string {
    return joinPath(this.lockDir, `${id}.lock`);
  }

  async create(record: T): Promise<void> {
    await this.withLock(record.id, async () => {
      if (await this.get(record.id)) throw alreadyExists(`${this.kind.slice(0, -1)} ${record.id} already exists`);
      await mkdirPrivate(this.objectDir(record.id));
      // A record marked `creating` matters only to recovery after its creator died, and the write
      // that commits the object replaces it durably: it skips the two fsyncs.
      const creating = (record as { creating?: unknown }).creating !== undefined;
      await writeJsonAtomic(this.metaPath(record.id), record, 0o644, { durable: !creating });
    });
  }

  async get(id: string): Promise<T | undefined> {
    if (!ID_PATTERN.test(id)) return undefined;
    try {
      // Read synchronously: a record is a few kB on a local disk, and each thread-pool round trip
      // of an async read (open, stat, read, close) waits for two thread wake-ups, which on a busy
      // node cost more than the read.
      return JSON.parse(readFileSync(this.metaPath(id), 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async mustGet(id: string): Promise<T> {
    const record = await this.get(id);
    if (!record) throw notFound(`${this.kind === 'sandboxes' ? 'pod sandbox' : 'container'} "${id}" not found`);
    return record;
  }

  /**
   * Read, apply, write atomically, all under the object's lock. `syncFirst`: files the write
   * commits, made durable before it (see AtomicWriteOptions).
   */
  async update(id: string, fn: (current: T) => T | Promise<T>, opts: { syncFirst?: readonly string[] } = {}): Promise<T> {
    return this.withLock(id, async () => {
      const current = await this.mustGet(id);
      const next = await fn(structuredClone(current));
      await writeJsonAtomic(this.metaPath(id), next, 0o644, { syncFirst: opts.syncFirst });
      return next;
    });
  }

  /**
   * Writes `next` in place of the record, under the object's lock, if the record still exists;
   * undefined when it is gone. For a caller that already has the whole record (a creation's
   * commit): the record is not read back, parsed and copied, which for a 2 MB config (100k env
   * vars) cost the event loop more than the write.
   */
  async replace(id: string, next: T, opts: { syncFirst?: readonly string[] } = {}): Promise<T | undefined> {
    return this.withLock(id, async () => {
      if (!existsSync(this.metaPath(id))) return undefined;
      await writeJsonAtomic(this.metaPath(id), next, 0o644, { syncFirst: opts.syncFirst });
      return next;
    });
  }

  /** Writes while the caller already holds the lock (inside withLock). */
  async putLocked(record: T): Promise<void> {
    await writeJsonAtomic(this.metaPath(record.id), record);
  }

  /** Deletes the object (its dir leaves at once, into the trash); from inside withLock(id), its lock file goes too. */
  async remove(id: string): Promise<void> {
    await discard(this.trashDir, this.objectDir(id));
    removeHeldLock(this.lockPath(id));
  }

  /** Deletes the object for a caller that does not hold its lock (a creation's undo): takes it, so the lock file goes too. */
  async removeLocking(id: string): Promise<void> {
    await this.withLock(id, () => this.remove(id));
  }

  async ids(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((n) => ID_PATTERN.test(n));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async list(): Promise<T[]> {
    const records: Array<T | undefined> = await Promise.all((await this.ids()).map((id) => this.get(id).catch(() => undefined)));
    return records.filter((r): r is T => r !== undefined);
  }

  /**
   * Every record, frozen and shared with other callers (RecordCache): for answers that only read
   * them (ListPodSandbox, ListContainers). The directory is read synchronously, as records are.
   */
  listShared(): readonly T[] {
    let ids: string[];
    try {
      ids = readdirSync(this.dir).filter((n) => ID_PATTERN.test(n));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const records: T[] = [];
    for (const id of ids) {
      try {
        const record = this.shared.read(id, this.metaPath(id));
        if (record) records.push(record);
      } catch {
        // unreadable or half-written by a foreign tool: skipped, as list() does
      }
    }
    this.shared.keepOnly(ids);
    return records;
  }

  /** One record as listShared gives it (frozen, shared): for status answers. */
  mustGetShared(id: string): T {
    const record = ID_PATTERN.test(id) ? this.shared.read(id, this.metaPath(id)) : undefined;
    if (!record) throw notFound(`${this.kind === 'sandboxes' ? 'pod sandbox' : 'container'} "${id}" not found`);
    return record;
  }

  /** Full ID for a unique prefix (as crictl and isula accept); undefined when none. */
  async resolve(idOrPrefix: string): Promise<string | undefined> {
    // A full ID needs only the record's presence: its caller reads it next (mustGet), no need to parse it twice.
    if (ID_PATTERN.test(idOrPrefix)) return existsSync(this.metaPath(idOrPrefix)) ? idOrPrefix : undefined;
    if (!/^[0-9a-f]{1,63}$/.test(idOrPrefix)) return undefined;
    const hits = (await this.ids()).filter((id) => id.startsWith(idOrPrefix));
    if (hits.length > 1) throw alreadyExists(`ID prefix "${idOrPrefix}" is ambiguous`);
    return hits[0];
  }
}
