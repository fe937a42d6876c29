import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { signalPid } from './proc.js';

/** Repo root (test/rig/../..). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliOptions {
  /** Extra environment, merged over process.env. */
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  timeoutMs?: number;
  cwd?: string;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the timeout killed the child. */
  timedOut: boolean;
}

/** Runs `node bin/isulats ...args` from the repo root; a timeout kills the child by PID. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/isulats', ...args], {
      cwd: opts.cwd ?? REPO_ROOT,
      env: { ...process.env, ...opts.env },
      stdio: 'pipe',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) signalPid(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code: code ?? (signal ? 128 + (signal === 'SIGKILL' ? 9 : 15) : 1),
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
        timedOut,
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input);
  });
}
