// Committed layer snapshots: root/snapshots/<chainID hex>/{fs,meta.json}.
// `fs` is one layer's diff in overlay form, usable as an overlay lowerdir.
// A snapshot is extracted into root/snapshots/.tmp-<pid>-<rand> and renamed
// into place after meta.json is written, so a present snapshot dir is always
// complete; extraction of one chain ID is serialised by a per-snapshot lock. Removal (gc) renames the
// snapshots into one dir under .tmp (atomic: each is gone under its name at once) and deletes it after the
// call returns; a process that dies first leaves the dir to the next init's .tmp cleanup.
// .tmp carries ext4's "top of directory hierarchies" flag, so each unpack lands in a block group
// of its own (see store/top-directory.ts).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { fsyncDir, writeJsonAtomic } from '../store/atomic-file.js';
import { JsonFileCache } from '../store/json-cache.js';
import { withFileLock } from '../store/lock.js';
import { digestHex } from '../image/digest.js';
import { failpoint } from '../image/failpoint.js';
import { cleanTempDir } from '../store/blob-store.js';
import { mkdirPrivate } from '../store/private-dirs.js';
import { BatchDeleter } from '../store/batch-delete.js';
import { joinPath } from '../store/path-join.js';
import { placeChildTreesApart } from '../store/top-directory.js';

export interface LayerSnapshotMeta {
  chainId: string;
  diffId: string;
  parent?: string;
  /** Bytes of file content and number of inodes in this layer's directory. */
  bytes: number;
  inodes: number;
  createdAt: string;
}

export class LayerStore {
  readonly dir: string;
  private readonly lockDir: string;
  private readonly tmpDir: string;
  private readonly cache = new JsonFileCache();
  /** Removed snapshots, renamed away and deleted after the call. */
  private readonly deleter: BatchDeleter;

  constructor(readonly root: string) {
    this.dir = joinPath(root, 'snapshots');
    this.lockDir = joinPath(root, 'locks', 'snapshots');
    this.tmpDir = joinPath(root, 'snapshots', '.tmp');
    this.deleter = new BatchDeleter(this.tmpDir);
  }

  async init(): Promise<void> {
    await mkdirPrivate(this.dir);
    await mkdirPrivate(this.lockDir);
    await cleanTempDir(this.tmpDir);
    await this.unpackParent();
  }

  /** .tmp, where snapshots are unpacked: each unpack a tree of its own, placed apart by ext4. */
  private async unpackParent(): Promise<string> {
    await mkdirPrivate(this.tmpDir);
    placeChildTreesApart(this.tmpDir);
    return this.tmpDir;
  }

  /** The overlay lowerdir of a committed snapshot. */
  fsPath(chainId: string): string {
    return joinPath(this.dir, digestHex(chainId), 'fs');
  }

  async get(chainId: string): Promise<LayerSnapshotMeta | undefined> {
    try {
      return await this.cache.read<LayerSnapshotMeta>(joinPath(this.dir, digestHex(chainId), 'meta.json'));
    } catch {
      return undefined;
    }
  }

  /**
   * Ensures the snapshot for `chainId` exists; if not, `extract(dir)` fills a
   * fresh directory and must return the layer's diff ID (verified here).
   * Returns true when this call created it.
   */
  async ensure(
    chainId: string,
    diffId: string,
    parent: string | undefined,
    extract: (dir: string) => Promise<{ diffId: string; bytes: number; inodes: number }>,
  ): Promise<boolean> {
    const hex = digestHex(chainId);
    if (await this.get(chainId)) return false;
    return withFileLock(joinPath(this.lockDir, `${hex}.lock`), async () => {
      if (await this.get(chainId)) return false;
      const tmp = joinPath(await this.unpackParent(), `${process.pid}-${randomBytes(6).toString('hex')}`);
      try {
        await mkdir(joinPath(tmp, 'fs'), { recursive: true, mode: 0o755 });
        const result = await extract(joinPath(tmp, 'fs'));
        if (result.diffId !== diffId) {
          throw new Error(`layer content hashes to ${result.diffId}, the image config says ${diffId}`);
        }
        const meta: LayerSnapshotMeta = { chainId, diffId, parent, bytes: result.bytes, inodes: result.inodes, createdAt: new Date().toISOString() };
        await writeJsonAtomic(joinPath(tmp, 'meta.json'), meta);
        failpoint('unpack-before-commit');
        // A leftover of a crashed run under the final name cannot exist: the
        // rename is atomic, and an uncommitted dir lives only under .tmp.
        await rename(tmp, joinPath(this.dir, hex));
        await fsyncDir(this.dir);
      } catch (error) {
        await rm(tmp, { recursive: true, force: true });
        throw error;
      }
      failpoint('snapshot-after-commit');
      return true;
    });
  }

  async list(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.filter((n) => /^[0-9a-f]{64}$/.test(n)).map((n) => `sha256:${n}`);
  }

  /**
   * Deletes many snapshots at once (gc). The caller holds the image root's gc lock exclusively, and
   * every writer of snapshots (ensure, under addingContent) holds it shared, so no snapshot's own
   * lock is taken. Each is renamed into one batch dir, its lock file unlinked, and the batch deleted
   * after the call returns (store/batch-delete.ts).
   */
  async removeMany(chainIds: string[]): Promise<void> {
    const hexes = chainIds.map((c) => digestHex(c, 'layer chain ID'));
    await this.deleter.moveAway(hexes.map((hex) => [joinPath(this.dir, hex), hex] as const),
      (i) => {
        rmSync(joinPath(this.lockDir, `${hexes[i]}.lock`), { force: true });
        if (i === 0) failpoint('gc-layers-mid-move');
      });
  }

  /** Resolves once the files of every snapshot removed so far are deleted. */
  async deletionsSettled(): Promise<void> {
    await this.deleter.settled();
  }
}

