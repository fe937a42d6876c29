// Every program a process and its descendants run (execve), timed, through strace: how tests and
// benches count the processes a daemon spawns per call, grandchildren included (conmon's
// `runc create`, runc's `runc init`, a containerd shim's runc calls). strace slows the traced
// process: use it for counts, never for timings.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeTempDir, removeTempDir } from './temp-dir.js';
import { waitFor } from './wait.js';

export interface TracedExec {
  /** Wall clock, ms since the epoch (as Date.now()). */
  at: number;
  pid: number;
  path: string;
  argv: string[];
}

export interface ExecTrace {
  /** Stops tracing (the traced processes go on) and returns what ran meanwhile. */
  stop(): Promise<TracedExec[]>;
}

/** Starts tracing `pid` and everything it starts from now on; resolves once strace is attached. */
export async function traceExecs(pid: number): Promise<ExecTrace> {
  const dir = await makeTempDir('ist-st-');
  const out = join(dir, 'trace');
  const child: ChildProcess = spawn('strace', ['-f', '-qq', '-ttt', '-v', '-s', '256', '-e', 'trace=execve', '-o', out, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    // strace reports nothing when attached: it is once the tracee shows a tracer in its status.
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`strace exited: ${stderr.trim()}`);
      return /TracerPid:\s+[1-9]/.test(await readFile(`/proc/${pid}/status`, 'utf8'));
    }, { timeoutMs: 10_000, intervalMs: 20, what: `strace attached to ${pid}` });
    // Every thread of the tracee is attached one after the other: give the last ones a moment.
    await sleep(200);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    await removeTempDir(dir);
    throw error;
  }
  return {
    async stop() {
      child.kill('SIGINT');
      await exited;
      try {
        return parseStraceExecs(await readFile(out, 'utf8').catch(() => ''));
      } finally {
        await rm(out, { force: true });
        await removeTempDir(dir);
      }
    },
  };
}

/** Successful execve lines of `strace -f -ttt -v` output. */
export function parseStraceExecs(text: string): TracedExec[] {
  const out: TracedExec[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+)\s+(\d+\.\d+)\s+execve\("((?:[^"\\]|\\.)*)", \[(.*?)\](?:,| \/\*)/.exec(line);
    if (!m || / = -1 /.test(line)) continue;
    const argv = [...m[4]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((a) => a[1]!);
    out.push({ pid: Number(m[1]), at: Number(m[2]) * 1000, path: m[3]!, argv });
  }
  return out;
}

const RUNC_COMMANDS = new Set(['create', 'start', 'kill', 'delete', 'state', 'exec', 'run', 'init', 'ps', 'update', 'pause', 'resume', 'events']);

/**
 * A short name for what ran: `runc delete`, `conmon`, `containerd-shim-runc-v2 start`, or the
 * program's name (argv[0]: runc's `init` and busybox's applets both re-execute /proc/self/exe).
 */
export function execName(e: Pick<TracedExec, 'path' | 'argv'>): string {
  const base = (e.argv[0] ?? e.path).split('/').pop()!;
  if (base === 'runc' || base === 'crun') return `${base} ${e.argv.slice(1).find((a) => RUNC_COMMANDS.has(a)) ?? '?'}`;
  if (base.startsWith('containerd-shim')) {
    const sub = e.argv.slice(1).find((a) => a === 'start' || a === 'delete');
    return sub ? `${base} ${sub}` : base;
  }
  return base;
}

export interface CallWindow {
  label: string;
  /** Date.now() when the call began. */
  start: number;
}

/** The execs of each call: those from its start to the next call's start (the last runs to the end). */
export function execsPerCall(execs: TracedExec[], windows: CallWindow[]): Map<string, TracedExec[]> {
  const out = new Map<string, TracedExec[]>();
  windows.forEach((w, i) => {
    const end = windows[i + 1]?.start ?? Infinity;
    out.set(w.label, execs.filter((e) => e.at >= w.start && e.at < end));
  });
  return out;
}
