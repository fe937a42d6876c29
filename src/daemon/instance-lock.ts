// One daemon per pid file. The pid file itself is flock'ed (native addon, the
// primitive under src/runtime/store/lock.ts) for the daemon's lifetime: the
// kernel drops the lock when the holder dies, so a SIGKILLed daemon never
// blocks the next one. Without the addon, a live pid in the file is the test.
import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { failedPrecondition } from '../runtime/errors.js';

export interface InstanceLock {
  readonly pidfile: string;
  /** Removes the pid file and drops the lock. */
  release(): void;
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** true: locked; false: another holder; undefined: no native addon here. */
async function tryFlock(fd: number): Promise<boolean | undefined> {
  try {
    const native = await import('../runtime/native.js');
    return native.flock(fd, true, true);
  } catch (err) {
    if (/native addon not built/.test(String((err as Error).message))) return undefined;
    throw err;
  }
}

export async function acquireInstanceLock(pidfile: string): Promise<InstanceLock> {
  mkdirSync(dirname(pidfile), { recursive: true });
  const fd = openSync(pidfile, constants.O_RDWR | constants.O_CREAT, 0o644);
  try {
    const locked = await tryFlock(fd);
    const holder = readPid(pidfile);
    if (locked === false) {
      throw failedPrecondition(`another isulats daemon${holder ? ` (pid ${holder})` : ''} holds the lock on ${pidfile}`);
    }
    if (locked === undefined && holder !== undefined && holder !== process.pid && pidAlive(holder)) {
      throw failedPrecondition(`another isulats daemon (pid ${holder}) is running: pid file ${pidfile}`);
    }
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n`, 0);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  let released = false;
  return {
    pidfile,
    release() {
      if (released) return;
      released = true;
      try {
        if (readPid(pidfile) === process.pid) unlinkSync(pidfile);
      } catch {
        // already gone
      }
      closeSync(fd);
    },
  };
}
