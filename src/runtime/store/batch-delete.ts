// Deleting many entries of a store at once (gc): each is renamed (atomic: gone under its name at
// once) into one new dir under the store's tmp dir, on the calling thread in slices of
// SYNC_SLICE (one syscall each; a thread-pool round trip apiece cost more than the call), with an
// event-loop turn between slices; that dir goes with one `rm -rf` after the call returns (an unlink
// that frees a file's blocks can take milliseconds on a disk mounted with discard, 10,000 of them
// tens of seconds). A process that dies first leaves the dir to the next init's tmp cleanup.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync } from 'node:fs';
import { joinPath } from './path-join.js';
import { deleteTree } from './delete-tree.js';
import { mkdirPrivate } from './private-dirs.js';
import { failpoint } from '../image/failpoint.js';

const SYNC_SLICE = 256;

export class BatchDeleter {
  private readonly deleting = new Set<Promise<void>>();

  constructor(private readonly tmpDir: string) {}

  /**
   * Moves each `[path, name]` into one batch dir (a missing path is skipped), running `after` for
   * each once its move is done; the batch is deleted after the call, whatever stopped the loop.
   */
  async moveAway(entries: ReadonlyArray<readonly [path: string, name: string]>, after?: (index: number) => void): Promise<void> {
    if (entries.length === 0) return;
    await mkdirPrivate(this.tmpDir);
    const batch = joinPath(this.tmpDir, `${process.pid}-rm-${randomBytes(6).toString('hex')}`);
    mkdirSync(batch, { mode: 0o700 });
    try {
      for (let i = 0; i < entries.length; i++) {
        if (i > 0 && i % SYNC_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
        const [path, name] = entries[i]!;
        try {
          renameSync(path, joinPath(batch, name));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        after?.(i);
      }
    } finally {
      failpoint('gc-batch-before-rm');
      const deletion: Promise<void> = deleteTree(batch).finally(() => this.deleting.delete(deletion));
      this.deleting.add(deletion);
    }
  }

  /** Resolves once every batch moved away so far is deleted. */
  async settled(): Promise<void> {
    while (this.deleting.size > 0) await Promise.all([...this.deleting]);
  }
}
