// `runc start` without a runc process. `runc create` leaves the container's init blocked on the
// exec FIFO in the container's state dir (<root>/<id>/exec.fifo); `runc start` opens it for
// reading, reads until the init closes it (the write end is close-on-exec, so EOF comes at the
// init's exec of the container's process, or at its death), then removes it, since runc reports a
// container as "created" for as long as the FIFO exists. That is all runc 1.0–1.2 do for a start
// (libcontainer's exec()); doing it here saves a runc process, about 5 ms of wall and CPU, per
// StartContainer. Only for runc itself (other runtimes keep their own start), and never when the
// FIFO is not there: then the caller runs `runc start`, whose errors say what is wrong.
import { constants, lstatSync, openSync, readSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { Socket } from 'node:net';
import { processRuns } from '../container/exit-wait.js';
import { joinPath } from '../store/path-join.js';

/** runc's own start is kept with ISULATS_RUNC_START=runc, and for any runtime binary not named runc. */
export function startWithoutRunc(runtimePath: string): boolean {
  return process.env.ISULATS_RUNC_START !== 'runc' && basename(runtimePath) === 'runc';
}

/** How often the init's liveness is checked while its FIFO has no writer (runc: 100 ms). */
const LIVENESS_INTERVAL_MS = 100;

/**
 * Starts a created runc container through its exec FIFO. Resolves false when there is no FIFO
 * (nothing was done: run `runc start`), true once the init has been released and the FIFO
 * removed; rejects when the init is dead, or when `timeoutMs` passes first.
 */
export async function startThroughExecFifo(stateDir: string, initPid: number, timeoutMs: number): Promise<boolean> {
  const fifo = joinPath(stateDir, 'exec.fifo');
  try {
    if (!lstatSync(fifo).isFIFO()) return false;
  } catch {
    return false;
  }
  // Non-blocking, so the open never waits for a writer; the reads are libuv's, on the event loop.
  let fd: number;
  try {
    fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  const pipe = new Socket({ fd, readable: true, writable: false });
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    const finish = (error?: Error) => {
      clearInterval(watch);
      clearTimeout(expiry);
      pipe.destroy();
      if (error) reject(error);
      else resolve();
    };
    pipe.on('data', (chunk: Buffer) => void (received += chunk.length));
    pipe.on('end', () => finish(received > 0 ? undefined : new Error('cannot start an already running container')));
    pipe.on('error', (error) => finish(error));
    // An init that died before it opened the FIFO never gives an EOF: runc looks at it every 100 ms.
    // A process that ran and exited in between has left its byte: that start succeeded (as runc's).
    const watch = setInterval(() => {
      if (processRuns(initPid)) return;
      finish(received > 0 || byteWaiting(fd) ? undefined : new Error('container process is already dead'));
    }, LIVENESS_INTERVAL_MS);
    const expiry = setTimeout(() => finish(new Error(`the container's init did not take the exec FIFO within ${timeoutMs} ms`)), timeoutMs);
  });
  rmSync(fifo, { force: true }); // as runc: the container counts as running from here
  return true;
}

/** Whether the FIFO holds a byte not read yet (a non-blocking read; EAGAIN or EOF say no). */
function byteWaiting(fd: number): boolean {
  try {
    return readSync(fd, Buffer.alloc(1)) > 0;
  } catch {
    return false;
  }
}
