// Which processes each CRI call spawns: `strace -f -e trace=execve` attached to a daemon (or
// wrapping the floor), its successful execve events attributed to calls by time. A call owns
// the window from its start to the next call's start, so work it leaves running after replying
// (a monitor exec'ing runc, say) still counts as its own.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { signalPid } from '../../test/rig/proc.js';
import type { CallTime } from './go-client.js';

export interface ExecEvent { pid: number; t: number; name: string }

/**
 * Parses `strace -f -ttt -o FILE` output: `PID SECS.USEC execve("path", ["argv0", ...], ...) = 0`,
 * also when split into `<unfinished ...>` and `<... execve resumed>`. Failed execs (a PATH
 * search trying each dir) are left out.
 */
export function parseExecs(text: string): ExecEvent[] {
  const pending = new Map<number, { t: number; name: string }>();
  const out: ExecEvent[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+)\s+(\d+\.\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    const t = Number(m[2]);
    const rest = m[3]!;
    const call = /^execve\("([^"]*)", \[(.*?)\]/.exec(rest);
    if (call) {
      const name = execName(call[1]!, call[2]!);
      if (rest.endsWith('<unfinished ...>')) pending.set(pid, { t, name });
      else if (/\) = 0$/.test(rest)) out.push({ pid, t, name });
      continue;
    }
    if (rest.startsWith('<... execve resumed>')) {
      const p = pending.get(pid);
      pending.delete(pid);
      if (p && /\) = 0$/.test(rest)) out.push({ pid, t: p.t, name: p.name });
    }
  }
  return out;
}

/** The program's name: the file's base name, or argv0 for a re-exec of itself (`runc init`). */
export function execName(path: string, argvText: string): string {
  const argv = [...argvText.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((a) => a[1]!);
  const self = path.startsWith('/proc/self/') || path.startsWith('/proc/thread-self/') || path.includes('memfd:');
  const base = (self ? argv[0] ?? path : path).split('/').pop()!;
  if (argv[1] === 'init' && (base === 'runc' || base === 'crun' || self)) return `${base} init`;
  return base;
}

/** Events per call: each call owns [its start, the next call's start). */
export function attribute(events: ExecEvent[], calls: CallTime[]): Array<{ call: string; execs: string[] }> {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  return sorted.map((c, i) => {
    const until = sorted[i + 1]?.start ?? Infinity;
    return { call: c.call, execs: events.filter((e) => e.t >= c.start && e.t < until).map((e) => e.name) };
  });
}

/** `runc×2, conmon, bridge`: names with counts, most frequent first. */
export function describeExecs(names: string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([n, c]) => (c > 1 ? `${n}×${c}` : n)).join(', ') || '—';
}

export interface Tracer {
  /** Detaches (SIGINT to strace) and returns the events. */
  stop(): Promise<ExecEvent[]>;
}

/** Attaches strace to a running process and everything it forks from now on. */
export async function traceExecs(pid: number, file: string): Promise<Tracer> {
  const child = spawn('strace', ['-f', '-qq', '-e', 'trace=execve', '-ttt', '-o', file, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => { stderr += b.toString(); });
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  // strace gives no sign that it attached (with -qq); give it time for the daemon's threads.
  await sleep(1500);
  if (child.exitCode !== null) throw new Error(`strace -p ${pid} exited ${child.exitCode}: ${stderr.trim()}`);
  return {
    async stop() {
      signalPid(child.pid!, 'SIGINT');
      await Promise.race([exited, sleep(10_000).then(() => signalPid(child.pid!, 'SIGKILL'))]);
      return parseExecs(await readFile(file, 'utf8'));
    },
  };
}
