// Crash-safe file writes: write a temp file in the same directory, fsync it,
// rename it over the target, fsync the directory. A reader sees the old or the
// new content, never a torn file, even after SIGKILL or power loss (after
// SIGKILL only, for writes made with `durable: false`).
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /**
   * false: no fsync of the file or the directory. Still atomic against SIGKILL (the page cache
   * outlives the process), just not against power loss: for records that only serve recovery
   * after a process death and are soon replaced by a durable write (a record marked `creating`).
   */
  durable?: boolean;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644, opts: AtomicWriteOptions = {}): Promise<void> {
  const durable = opts.durable ?? true;
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const handle = await open(tmp, 'w', mode);
    try {
      await handle.writeFile(data);
      await handle.chmod(mode);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  if (durable) await fsyncDir(dir);
}

/** fsyncs a directory so a rename or create inside it survives a crash. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
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
