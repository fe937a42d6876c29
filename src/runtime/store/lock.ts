// Inter-process locks on files with flock(2) via the native addon. The kernel
// drops a flock when its holder dies, so a SIGKILLed holder never leaves a
// stale lock. Waiting polls a non-blocking attempt with short sleeps: a
// blocking flock would freeze the event loop.
import { closeSync, fstatSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IsulatsError } from '../errors.js';
import { flock } from '../native.js';

export interface LockOptions {
  /** Shared (reader) lock instead of exclusive. */
  shared?: boolean;
  /** Give up after this long (default 5 minutes: a pull may hold a blob lock while downloading). */
  timeoutMs?: number;
  /** Only an existing lock file (its object's): when there is none, or it is removed while waited for, LockFileGone is thrown. */
  existing?: boolean;
  /** Stop waiting when it aborts (the caller has gone): its reason is thrown, and the lock is never taken for it. */
  signal?: AbortSignal;
}

/** The lock file an `existing` lock asked for is gone: its object was removed. */
export class LockFileGone extends Error {}

// A lock file can be removed with its object (removeHeldLock, by its holder only), so that a
// node's lock directories do not keep a file for every pod and container that ever ran. A waiter
// may meanwhile have opened the removed file: once it holds the flock it checks that the path
// still names the file it locked, and otherwise opens the path again.
const held = new Set<string>();

// flock belongs to the open file description, so separate opens in one process
// exclude each other as across processes. Exclusive holders in this process
// also queue here first so they wake in order instead of polling each other.
const inProcess = new Map<string, Promise<void>>();

/** Runs `fn` while holding a lock on `lockPath` (created if missing; unlinked only by its holder, through removeHeldLock). */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 300_000;
  const deadline = Date.now() + timeoutMs;
  const wait: Wait = { deadline, timeoutMs, signal: opts.signal };
  opts.signal?.throwIfAborted();
  if (opts.shared) return locked(lockPath, fn, false, wait, opts.existing);
  const previous = inProcess.get(lockPath) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  // Later waiters queue behind `previous` too, so one that leaves early keeps the order.
  const chained = previous.then(() => mine);
  inProcess.set(lockPath, chained);
  try {
    await (opts.signal ? untilAborted(previous, opts.signal) : previous);
    return await locked(lockPath, fn, true, wait, opts.existing);
  } finally {
    release();
    if (inProcess.get(lockPath) === chained) inProcess.delete(lockPath);
  }
}

/** How long a lock is waited for, and what ends the wait early. */
interface Wait {
  deadline: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** `promise`, or a rejection with the signal's reason once it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function locked<T>(lockPath: string, fn: () => Promise<T>, exclusive: boolean, wait: Wait, existing = false): Promise<T> {
  for (;;) {
    const fd = existing ? openExistingLockFile(lockPath) : openLockFile(lockPath);
    try {
      await acquire(fd, lockPath, exclusive, wait);
      if (!sameFile(fd, lockPath)) continue; // removed (or replaced) while we waited: lock the path anew
      if (exclusive) held.add(lockPath);
      try {
        return await fn();
      } finally {
        held.delete(lockPath);
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** Opens (creates) the lock file; its directory is made only when missing, not on every lock. */
function openLockFile(lockPath: string): number {
  try {
    return openSync(lockPath, 'a', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
    return openSync(lockPath, 'a', 0o600);
  }
}

/** Opens the lock file only if it exists (never creates one for a removed object). */
function openExistingLockFile(lockPath: string): number {
  try {
    return openSync(lockPath, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new LockFileGone(lockPath);
    throw error;
  }
}

function sameFile(fd: number, path: string): boolean {
  try {
    const a = fstatSync(fd);
    const b = statSync(path);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/**
 * Removes the lock file of an object being removed, from inside the exclusive withFileLock that
 * holds it (a no-op anywhere else: removing a lock someone else holds would let a third party in).
 */
export function removeHeldLock(lockPath: string): void {
  if (!held.has(lockPath)) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // already gone
  }
}

async function acquire(fd: number, lockPath: string, exclusive: boolean, { deadline, timeoutMs, signal }: Wait): Promise<void> {
  let delay = 5;
  for (;;) {
    signal?.throwIfAborted();
    if (flock(fd, exclusive, true)) return;
    if (Date.now() >= deadline) {
      throw new IsulatsError('deadline-exceeded', `timed out after ${timeoutMs} ms waiting for lock ${lockPath}`);
    }
    await sleep(Math.min(delay, Math.max(1, deadline - Date.now())));
    delay = Math.min(delay * 2, 100);
  }
}
