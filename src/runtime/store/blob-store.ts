// Content-addressed blob store: root/content/blobs/sha256/<hex>. A blob is
// written to root/tmp under a per-blob lock while its digest is computed, then
// renamed into place only if the digest matches, so a present blob is always
// complete and verified; concurrent writers of one blob (in any process) do the
// work once.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { IsulatsError, invalidArgument, notFound } from '../errors.js';
import { digestHex, sha256Digest } from '../image/digest.js';
import { failpoint } from '../image/failpoint.js';
import { fsyncDir } from './atomic-file.js';
import { BatchDeleter } from './batch-delete.js';
import { withFileLock } from './lock.js';
import { mkdirPrivate } from './private-dirs.js';

export interface WriteProgress {
  (bytesSoFar: number): void;
}

export class BlobStore {
  readonly blobDir: string;
  readonly tmpDir: string;
  /** Blobs deleteMany renamed away, deleted after the call. */
  private readonly deleter: BatchDeleter;
  readonly lockDir: string;

  constructor(readonly root: string) {
    this.blobDir = join(root, 'content', 'blobs', 'sha256');
    this.tmpDir = join(root, 'tmp');
    this.lockDir = join(root, 'locks', 'blobs');
    this.deleter = new BatchDeleter(this.tmpDir);
  }

  /** Creates the directories and removes temp files left by dead processes. */
  async init(): Promise<void> {
    await mkdirPrivate(this.blobDir);
    await mkdirPrivate(this.lockDir);
    await cleanTempDir(this.tmpDir);
  }

  path(digest: string): string {
    return join(this.blobDir, digestHex(digest));
  }

  async has(digest: string): Promise<boolean> {
    try {
      await stat(this.path(digest));
      return true;
    } catch {
      return false;
    }
  }

  /** Size in bytes, or undefined when absent. */
  async size(digest: string): Promise<number | undefined> {
    try {
      return (await stat(this.path(digest))).size;
    } catch {
      return undefined;
    }
  }

  async read(digest: string): Promise<Buffer> {
    try {
      return await readFile(this.path(digest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(`blob ${digest} not found`);
      throw error;
    }
  }

  createReadStream(digest: string): Readable {
    return createReadStream(this.path(digest), { highWaterMark: 1 << 20 });
  }

  /** Stores a small in-memory blob (manifest, config); returns its digest. */
  async put(data: Buffer, expected?: string): Promise<string> {
    const digest = sha256Digest(data);
    if (expected && expected !== digest) throw invalidArgument(`digest mismatch: expected ${expected}, content is ${digest}`);
    await this.ensure(digest, async () => [data], data.length);
    return digest;
  }

  /**
   * Makes sure `digest` is present: if not, takes the blob's lock, calls
   * `source` (the download) and writes what it yields, verifying digest and size.
   * Returns true when this call wrote the blob, false when it was already there.
   * `signal` aborting stops the wait for the lock or the write (the partial file is removed and
   * the lock released): a caller that has gone holds nothing up.
   */
  async ensure(
    digest: string,
    source: () => Promise<AsyncIterable<Uint8Array> | Iterable<Uint8Array>>,
    expectedSize?: number,
    progress?: WriteProgress,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const hex = digestHex(digest);
    if (await this.has(digest)) return false;
    return withFileLock(join(this.lockDir, `${hex}.lock`), async () => {
      if (await this.has(digest)) return false;
      await mkdirPrivate(this.tmpDir);
      const tmp = join(this.tmpDir, `${process.pid}-${randomBytes(6).toString('hex')}-${hex.slice(0, 12)}`);
      try {
        await this.writeVerified(tmp, digest, await source(), expectedSize, progress, signal);
        failpoint('blob-before-commit');
        await rename(tmp, this.path(digest));
        await fsyncDir(this.blobDir);
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
      failpoint('blob-after-commit');
      return true;
    }, { signal });
  }

  private async writeVerified(
    tmp: string,
    digest: string,
    chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    expectedSize: number | undefined,
    progress?: WriteProgress,
    signal?: AbortSignal,
  ): Promise<void> {
    const hash = createHash('sha256');
    const handle = await open(tmp, 'wx', 0o644);
    let written = 0;
    let first = true;
    try {
      for await (const chunk of chunks) {
        signal?.throwIfAborted();
        // Checked before the write: a body longer than its descriptor never reaches the disk.
        if (expectedSize !== undefined && written + chunk.length > expectedSize) {
          throw new IsulatsError('invalid-argument', `blob ${digest} is larger than the ${expectedSize} bytes its descriptor declares`);
        }
        hash.update(chunk);
        await handle.write(chunk);
        written += chunk.length;
        progress?.(written);
        if (first) {
          first = false;
          failpoint('blob-mid-download');
        }
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    const actual = `sha256:${hash.digest('hex')}`;
    if (actual !== digest) {
      throw new IsulatsError('invalid-argument', `digest mismatch for blob ${digest}: content hashes to ${actual}`);
    }
    if (expectedSize !== undefined && written !== expectedSize) {
      throw new IsulatsError('invalid-argument', `blob ${digest} has ${written} bytes, its descriptor declares ${expectedSize}`);
    }
  }

  /** Stores a stream whose digest is not known in advance (local builds, imports); returns digest and size. */
  async putStream(chunks: AsyncIterable<Uint8Array>): Promise<{ digest: string; size: number }> {
    await mkdirPrivate(this.tmpDir);
    const tmp = join(this.tmpDir, `${process.pid}-${randomBytes(6).toString('hex')}-ingest`);
    const hash = createHash('sha256');
    let size = 0;
    try {
      const handle = await open(tmp, 'wx', 0o644);
      try {
        for await (const chunk of chunks) {
          hash.update(chunk);
          await handle.write(chunk);
          size += chunk.length;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      const digest = `sha256:${hash.digest('hex')}`;
      await withFileLock(join(this.lockDir, `${digestHex(digest)}.lock`), async () => {
        if (!(await this.has(digest))) {
          await rename(tmp, this.path(digest));
          await fsyncDir(this.blobDir);
        }
      });
      return { digest, size };
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async delete(digest: string): Promise<void> {
    await rm(this.path(digest), { force: true });
  }

  /**
   * Deletes many blobs (gc, under its exclusive lock, which every writer holds shared): renamed
   * into one batch dir now, that dir deleted after the call returns (store/batch-delete.ts).
   */
  async deleteMany(digests: string[]): Promise<void> {
    await this.deleter.moveAway(digests.map((digest) => [this.path(digest), digestHex(digest)] as const),
      (i) => i === 0 && failpoint('gc-blobs-mid-move'));
  }

  /** Resolves once the files of every blob deleted by deleteMany so far are gone. */
  async deletionsSettled(): Promise<void> {
    await this.deleter.settled();
  }

  /** Every stored digest. */
  async list(): Promise<string[]> {
    const names = await readdir(this.blobDir).catch(() => [] as string[]);
    return names.filter((n) => /^[0-9a-f]{64}$/.test(n)).map((n) => `sha256:${n}`);
  }
}

/**
 * Removes entries of a temp dir whose writer is gone. Entry names start with
 * the writer's PID, so another live process sharing the root keeps its files.
 */
export async function cleanTempDir(dir: string): Promise<void> {
  await mkdirPrivate(dir);
  for (const name of await readdir(dir)) {
    const pid = Number.parseInt(name.split('-')[0] ?? '', 10);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && (await processAlive(pid))) continue;
    if (pid === process.pid) continue;
    await rm(join(dir, name), { recursive: true, force: true });
  }
}

async function processAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
