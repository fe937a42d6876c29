// What /proc says about one process: VmRSS, and CPU time (its own, and its reaped children's).
import { readFile } from 'node:fs/promises';

const CLK_TCK = 100;

export async function vmRssKb(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(text)?.[1] ?? 0);
}

/** RssAnon: the part of VmRSS that is the process's own memory (heaps, stacks), without the pages of its executable and libraries, which the page cache shares. */
export async function rssAnonKb(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^RssAnon:\s+(\d+) kB/m.exec(text)?.[1] ?? 0);
}

export interface CpuMs {
  /** utime + stime */
  self: number;
  /** cutime + cstime: children it waited for (a daemonized grandchild never counts) */
  children: number;
}

export async function cpuMs(pid: number): Promise<CpuMs> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!text) return { self: 0, children: 0 };
  // Fields after "(comm) ": state is 0, utime 11, stime 12, cutime 13, cstime 14.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
  const ms = (ticks: number) => ticks * (1000 / CLK_TCK);
  return { self: ms((f[11] ?? 0) + (f[12] ?? 0)), children: ms((f[13] ?? 0) + (f[14] ?? 0)) };
}

export async function summedRssKb(pids: number[]): Promise<number> {
  let sum = 0;
  for (const pid of pids) sum += await vmRssKb(pid);
  return sum;
}

/** CPU of processes still alive: their own plus their reaped children's. */
export async function summedCpuMs(pids: number[]): Promise<number> {
  let sum = 0;
  for (const pid of pids) {
    const c = await cpuMs(pid);
    sum += c.self + c.children;
  }
  return sum;
}

export const median = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** A thread's scheduler times (/proc/PID/task/TID/schedstat): on a CPU, and runnable but waiting for one. */
export interface SchedMs { runMs: number; waitMs: number }

export async function threadSchedMs(pid: number, tid = pid): Promise<SchedMs> {
  const text = await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => '');
  const [run = 0, wait = 0] = text.split(' ').map(Number);
  return { runMs: run / 1e6, waitMs: wait / 1e6 };
}
