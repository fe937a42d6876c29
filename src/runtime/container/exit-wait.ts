// Waiting for a container's exit without asking the runtime: conmon writes the
// exit file once it has reaped the container's init, so the file is the signal.
// A monitor killed with SIGKILL never writes it; the container has then exited
// once its init is gone too. No `runc state` per poll: a stop costs the signal's
// `runc kill` and nothing else while it waits.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive } from '../sandbox/sandbox-service.js';

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

/** The PID in a pid file; 0 when it is missing or unreadable. */
export async function readPidFile(path: string): Promise<number> {
  const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => '0'), 10);
  return pid > 0 ? pid : 0;
}

/** Whether `pid` runs and is the container's (its cgroup names the container: never a process that reused the PID). */
export async function containerProcessAlive(pid: number, containerId: string): Promise<boolean> {
  if (!(pid > 0) || !(await pidAlive(pid))) return false;
  const cgroups = await readFile(`/proc/${pid}/cgroup`, 'utf8').catch(() => '');
  return cgroups.includes(containerId);
}
