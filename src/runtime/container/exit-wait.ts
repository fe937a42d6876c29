// Waiting for a container's exit without asking the runtime: conmon writes the
// exit file once it has reaped the container's init, so the file is the signal.
// A monitor killed with SIGKILL never writes it; the container has then exited
// once its init is gone too. No `runc state` per poll: a stop costs the signal's
// `runc kill` and nothing else while it waits.
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ExitProbe {
  /** Whether the monitor has recorded the exit. */
  recorded(): Promise<boolean>;
  /** Whether the monitor still runs (so a record will come). */
  monitorAlive(): Promise<boolean>;
  /** Whether the container's init still runs. */
  initAlive(): Promise<boolean>;
}

/** Poll intervals: the first checks come fast (a killed init is reaped within milliseconds), then every 50 ms. */
const DELAYS_MS = [1, 2, 4, 8, 16, 32];
const STEADY_MS = 50;

/** True once the exit is recorded, or once monitor and init are both gone; false after `timeoutMs`. */
export async function waitForExit(probe: ExitProbe, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; ; i++) {
    if (await probe.recorded()) return true;
    if (!(await probe.monitorAlive()) && !(await probe.initAlive())) {
      // The monitor may have written the record just before it exited.
      await probe.recorded();
      return true;
    }
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(DELAYS_MS[i] ?? STEADY_MS, left));
  }
}

// The probes below read small files (pid files, procfs) synchronously: each read costs less than
// the thread-pool round trips of an async one, and a wait makes many of them.

function readSmall(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The PID in a pid file; 0 when it is missing or unreadable. */
export function readPidFile(path: string): number {
  const pid = Number.parseInt(readSmall(path), 10);
  return pid > 0 ? pid : 0;
}

/**
 * Whether `pid` is a process that has not exited (a zombie has). Every list asks this of each
 * running container, so the common answer comes from one access(2): /proc/PID/exe resolves only
 * while the process has its memory, which it gives up as it exits, before it is a zombie. Reading
 * /proc/PID/stat (the kernel formats some 50 fields) cost 20-80 µs a container, a third of a
 * ListContainers' CPU. When the link does not resolve (gone, exiting, a zombie, or access refused
 * to a daemon without CAP_SYS_PTRACE) the state letter decides, as before.
 */
export function processRuns(pid: number): boolean {
  if (existsSync(`/proc/${pid}/exe`)) return true;
  const stat = readSmall(`/proc/${pid}/stat`);
  if (!stat) return false;
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Whether `pid` runs and is the container's (its cgroup names the container: never a process that reused the PID). */
export async function containerProcessAlive(pid: number, containerId: string): Promise<boolean> {
  if (!(pid > 0) || !processRuns(pid)) return false;
  return readSmall(`/proc/${pid}/cgroup`).includes(containerId);
}

/**
 * Whether the conmon named by the bundle's conmon.pid still runs: a zombie counts as gone, and so
 * does a process that reused the PID (its command line does not name the bundle).
 */
export async function monitorAlive(bundle: string): Promise<boolean> {
  const pid = readPidFile(`${bundle}/conmon.pid`);
  if (!pid || !processRuns(pid)) return false;
  return readSmall(`/proc/${pid}/cmdline`).split('\0').includes(bundle);
}
