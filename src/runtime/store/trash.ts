// Removing a directory tree in one step: it is renamed into <root>/trash (one
// rename(2): the path is gone at once, and atomically, so no reader or crash
// sees it half deleted) and deleted from there in the background. Node's
// recursive rm costs a thread-pool round trip per entry, which made removing a
// container (its record dir, its rw layer) several milliseconds per call even
// for a handful of files, and then more for the calls that followed, whose own
// file system work queued behind it. Deleting inline with synchronous calls was
// no better: on a busy disk an unlink waits for the journal, and the event loop
// with it. containerd, too, deletes removed snapshots later (its garbage
// collector). What a process killed meanwhile leaves in the trash is garbage by
// construction: the next engine open deletes it.
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { access, lstat, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { mkdirPrivate } from './private-dirs.js';
import { joinPath } from './path-join.js';

/** The background deletions of this process, one after the other (settles when all are done). */
let queue: Promise<void> = Promise.resolve();
let queued = 0;

/**
 * Deletes `path` (a file, link or tree) in the background, after what is already queued. Without a
 * rename first: for what nobody looks up by its name any more, and what recovery removes when a
 * process dies before it is done (as for monitor links and exit files of removed containers).
 * Resolves once it is deleted (or could not be); never rejects.
 */
export function deleteLater(path: string): Promise<void> {
  queued++;
  const deleted = queue.then(() => removeTree(path).catch(() => undefined)).finally(() => void queued--);
  queue = deleted;
  return deleted;
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
  await removeDirectory(path);
}

/** A directory's entries, then itself; entry types come with the listing (no lstat each). */
async function removeDirectory(path: string): Promise<void> {
  for (const entry of await readdir(path, { withFileTypes: true }).catch(() => [])) {
    const child = joinPath(path, entry.name);
    if (entry.isDirectory()) await removeDirectory(child);
    else await unlink(child).catch(() => undefined);
  }
  await rmdir(path).catch(() => undefined);
}

/**
 * Moves `path` into `trashDir` (made by `makeTrash`, on the same file system) and deletes it in the
 * background; no-op when `path` does not exist. What rename cannot move is deleted in place.
 */
export async function discard(trashDir: string, path: string): Promise<void> {
  // Anonymous, as containerd's numbered snapshot dirs: what waits in the trash belongs to nobody.
  const target = joinPath(trashDir, randomBytes(12).toString('hex'));
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
  for (const name of await readdir(trashDir).catch(() => [] as string[])) deleteLater(joinPath(trashDir, name));
}

/** Waits for this process's background deletions (before it exits). */
export async function drainTrash(): Promise<void> {
  while (queued > 0) await queue;
}

function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
