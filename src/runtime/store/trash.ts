// Removing a directory tree in one step: it is renamed into <root>/trash (one
// rename(2): the path is gone at once, and atomically, so no reader or crash
// sees it half deleted), then deleted from there with synchronous calls, up to
// a budget of entries (a container's record dir and a usual rw layer hold a few
// dozen: microseconds each); a larger tree is finished in the background, one
// call at a time. Node's recursive rm costs a thread-pool round trip per entry
// and issues them all at once, which made removing a container several
// milliseconds even for a handful of files (more on a busy node, where each
// round trip waits for two thread wake-ups), and slowed the calls that followed.
// What a process killed meanwhile leaves in the trash is garbage by
// construction: the next engine open deletes it.
import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { access, lstat, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { mkdirPrivate } from './private-dirs.js';

/** The background deletions of this process, one after the other (settles when all are done). */
let queue: Promise<void> = Promise.resolve();
let queued = 0;

function deleteLater(path: string): void {
  queued++;
  queue = queue.then(() => removeTree(path).catch(() => undefined)).finally(() => void queued--);
}

/** Entries deleted synchronously per discard before the rest goes to the background. */
export const SYNC_BUDGET = 256;

/**
 * Deletes `path` synchronously while `budget.left` lasts; false when it ran out (something is left).
 * Entries that cannot be deleted are skipped (they stay for the background pass, which ignores them).
 */
function removeTreeSync(path: string, budget: { left: number }): boolean {
  if (budget.left-- <= 0) return false;
  let dir: boolean;
  try {
    dir = lstatSync(path).isDirectory();
  } catch {
    return true;
  }
  try {
    if (!dir) {
      unlinkSync(path);
      return true;
    }
    let complete = true;
    for (const name of readdirSync(path)) {
      if (!removeTreeSync(join(path, name), budget)) {
        complete = false;
        break;
      }
    }
    if (complete) rmdirSync(path);
    return complete;
  } catch {
    return false;
  }
}

/**
 * Deletes a tree with one file system call in flight at a time: Node's recursive rm issues them
 * all at once, filling the thread pool that the calls being served need for their own reads and
 * writes. Going slowly costs nothing here: nobody waits for the trash.
 */
async function removeTree(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory()) {
    await unlink(path).catch(() => undefined);
    return;
  }
  for (const name of await readdir(path).catch(() => [] as string[])) await removeTree(join(path, name));
  await rmdir(path).catch(() => undefined);
}

/**
 * Moves `path` into `trashDir` (made by `makeTrash`, on the same file system) and deletes it, what
 * exceeds the synchronous budget in the background; no-op when `path` does not exist. What rename
 * cannot move is deleted in place.
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
  if (!removeTreeSync(target, { left: SYNC_BUDGET })) deleteLater(target);
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
  while (queued > 0) await queue;
}

function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
