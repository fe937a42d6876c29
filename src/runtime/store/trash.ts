// Removing a directory tree in one step: it is renamed into <root>/trash (one
// rename(2): the path is gone at once, and atomically, so no reader or crash
// sees it half deleted) and deleted from there in the background. Node's
// recursive rm costs a thread-pool round trip per entry, which made removing a
// container (its record dir, its rw layer) several milliseconds per call even
// for a handful of files. What a process killed meanwhile leaves in the trash is
// garbage by construction: the next engine open deletes it.
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { access, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { mkdirPrivate } from './private-dirs.js';

/** Deletions started and not finished yet, in this process. */
const pending = new Set<Promise<void>>();

function deleteLater(path: string): void {
  const job: Promise<void> = rm(path, { recursive: true, force: true })
    .catch(() => undefined)
    .finally(() => pending.delete(job));
  pending.add(job);
}

/**
 * Moves `path` into `trashDir` (made by `makeTrash`, on the same file system) and deletes it in the
 * background; no-op when `path` does not exist. What rename cannot move is deleted in place.
 */
export async function discard(trashDir: string, path: string): Promise<void> {
  const target = join(trashDir, `${basename(path)}-${randomBytes(6).toString('hex')}`);
  try {
    // One metadata syscall: synchronous costs less than a thread-pool round trip.
    renameSync(path, target);
  } catch (error) {
    // ENOENT: `path` is gone (done), unless the trash dir is (then `path` still goes, in place).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !(await exists(path))) return;
    await rm(path, { recursive: true, force: true });
    return;
  }
  deleteLater(target);
}

export async function makeTrash(trashDir: string): Promise<void> {
  await mkdirPrivate(trashDir);
}

/** Deletes what the trash holds (left by processes killed before their background deletion ended); in the background. */
export async function emptyTrash(trashDir: string): Promise<void> {
  for (const name of await readdir(trashDir).catch(() => [] as string[])) deleteLater(join(trashDir, name));
}

/** Waits for this process's background deletions (before it exits). */
export async function drainTrash(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}

function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
