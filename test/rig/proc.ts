import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** Write `input` but keep stdin open until the child exits, as a terminal user would. */
  keepStdinOpen?: boolean;
  timeoutMs?: number;
  /** When false, a non-zero exit resolves instead of throwing. */
  check?: boolean;
}

/** Runs a host tool to completion, bounded by a timeout that kills it by PID. */
export function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: 'pipe' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => {
      if (child.pid) signalPid(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      child.stdin.destroy();
      const result = {
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      };
      if (opts.check !== false && result.code !== 0) {
        reject(new Error(`${cmd} ${args.join(' ')} exited ${result.code}${signal ? ` (${signal})` : ''}: ${result.stderr.trim()}`));
      } else {
        resolve(result);
      }
    });
    child.stdin.on('error', () => undefined);
    if (opts.keepStdinOpen) child.stdin.write(opts.input ?? '');
    else child.stdin.end(opts.input);
  });
}

/** Sends a signal, ignoring "no such process". */
export function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** True while the PID exists and is not a zombie. */
export async function pidAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** SIGTERM, wait up to graceMs, then SIGKILL and wait a little more. Returns true if it is gone. */
export async function stopPid(pid: number, graceMs = 10_000): Promise<boolean> {
  signalPid(pid, 'SIGTERM');
  if (await waitGone(pid, graceMs)) return true;
  signalPid(pid, 'SIGKILL');
  return waitGone(pid, 5_000);
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!(await pidAlive(pid))) return true;
    await sleep(50);
  }
  return !(await pidAlive(pid));
}

/** True if the process runs and its command line contains `text` (guards a PID against reuse). */
export async function commandLineMentions(pid: number, text: string): Promise<boolean> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return cmdline.includes(text) && (await pidAlive(pid));
}
