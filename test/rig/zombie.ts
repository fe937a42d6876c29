// Processes that look alive to a PID check but are not the creator a record names: a zombie
// (exited, never reaped) and a plain live stranger. Both end by PID in `stop()`.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { signalPid } from './proc.js';

export interface HeldProcess {
  pid: number;
  /** Ends the process (and so its zombie, which its parent's death hands to a reaper). */
  stop(): void;
}

/** A live `sleep` of ours: a PID that exists but belongs to no engine. */
export function startStranger(): HeldProcess {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  if (!child.pid) throw new Error('sleep did not start');
  const pid = child.pid;
  return { pid, stop: () => signalPid(pid, 'SIGKILL') };
}

/**
 * A zombie: `sh` forks a short `sleep`, then execs a long one that never waits for its child, so
 * the short one stays a zombie (state Z) under a live parent. `pid` is the zombie's.
 */
export async function startZombie(): Promise<HeldProcess> {
  const parent = spawn('sh', ['-c', 'sleep 0.1 & exec sleep 300'], { stdio: 'ignore' });
  if (!parent.pid) throw new Error('sh did not start');
  const parentPid = parent.pid;
  const stop = () => signalPid(parentPid, 'SIGKILL');
  try {
    for (let i = 0; i < 100; i++) {
      const children = (await readFile(`/proc/${parentPid}/task/${parentPid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean);
      for (const c of children) {
        const stat = await readFile(`/proc/${c}/stat`, 'utf8').catch(() => '');
        if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return { pid: Number(c), stop };
      }
      await sleep(50);
    }
  } catch (error) {
    stop();
    throw error;
  }
  stop();
  throw new Error('no zombie appeared within 5 s');
}
