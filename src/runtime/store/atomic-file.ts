// Crash-safe file writes: write a temp file in the same directory, fsync it,
// rename it over the target, fsync the directory. A reader sees the old or the
// new content, never a torn file, even after SIGKILL or power loss (after
// SIGKILL only, for writes made with `durable: false`).
// Records are a few kB: the open, write, rename and close are made on the calling
// thread (each a metadata or page-cache call of microseconds, where a thread-pool
// round trip waits for two thread wake-ups, a large share of a CreateContainer on a
// busy node); only the fsyncs, which wait for the disk, go to the thread pool.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { promisify } from 'node:util';

const fsyncFd = promisify(fsync);

export interface AtomicWriteOptions {
  /**
   * false: no fsync of the file or the directory. Still atomic against SIGKILL (the page cache
   * outlives the process), just not against power loss: for records that only serve recovery
   * after a process death and are soon replaced by a durable write (a record marked `creating`).
   */
  durable?: boolean;
  /**
   * Files this write commits (written just before, by path): fsynced on the thread pool together
   * with the temp file, so both are on disk before the rename makes the commit visible, at the
   * cost of no extra wait. Their names need no directory fsync on a journaling file system
   * (ext4, xfs, btrfs): the fsync of a new file also commits its creation.
   */
  syncFirst?: readonly string[];
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644, opts: AtomicWriteOptions = {}): Promise<void> {
  const durable = opts.durable ?? true;
  // The engine's paths are absolute and normal: split at the last slash (dirname and basename are
  // interpreted character loops under the --lite-mode the daemon then ran with).
  const slash = path.lastIndexOf('/');
  const [dir, base] = slash > 0 && slash < path.length - 1 ? [path.slice(0, slash), path.slice(slash + 1)] : [dirname(path), basename(path)];
  const tmp = `${dir}/.${base}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const fd = openSync(tmp, 'w', mode);
    try {
      writeFileSync(fd, data);
      fchmodSync(fd, mode);
      if (durable) await Promise.all([fsyncFd(fd), ...(opts.syncFirst ?? []).map(fsyncFile)]);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  if (durable) await fsyncDir(dir);
}

/** fsyncs a file, e.g. one written with `durable: false` that must now survive power loss. */
export async function fsyncFile(path: string): Promise<void> {
  const fd = openSync(path, 'r');
  try {
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsyncs a directory so a rename or create inside it survives a crash. */
export async function fsyncDir(dir: string): Promise<void> {
  await fsyncFile(dir);
}

/** Parsed JSON, or `fallback` when the file does not exist. */
export async function readJson<T>(path: string, fallback?: T): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && fallback !== undefined) return fallback;
    throw error;
  }
}

export async function writeJsonAtomic(path: string, value: unknown, mode = 0o644, opts: AtomicWriteOptions = {}): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, mode, opts);
}
