// Every host process the engine starts (runc, conmon, CNI plugins, unshare,
// mount tools) goes through one runner, so tests can put a fail-on-request
// hook in front of a binary and so timeouts and output caps live in one place.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface RunRequest {
  cmd: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  cwd?: string;
  /** Killed (SIGKILL, by PID) after this long; the result then has timedOut set. */
  timeoutMs?: number;
  /** Bytes kept per stream; the rest is dropped and `truncated` set. */
  maxOutput?: number;
}

export interface RunResult {
  code: number;
  signal?: NodeJS.Signals;
  stdout: Buffer;
  stderr: Buffer;
  timedOut: boolean;
  truncated: boolean;
}

/** Called before each process starts; may throw to simulate a failure of that binary. */
export type RunHook = (cmd: string, args: readonly string[]) => void | Promise<void>;

export class ProcessRunner {
  private hooks: RunHook[] = [];

  /** Adds a hook (tests use it as a fail-on-request wrapper); returns its removal. */
  addHook(hook: RunHook): () => void {
    this.hooks.push(hook);
    return () => {
      this.hooks = this.hooks.filter((h) => h !== hook);
    };
  }

  async spawn(cmd: string, args: string[], options: SpawnOptions): Promise<ChildProcess> {
    for (const hook of this.hooks) await hook(cmd, args);
    return spawn(cmd, args, options);
  }

  async run(req: RunRequest): Promise<RunResult> {
    const child = await this.spawn(req.cmd, req.args, {
      env: req.env ?? process.env,
      cwd: req.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return collect(child, req);
  }

  /** Like run, but a non-zero exit throws an Error carrying stderr. */
  async check(req: RunRequest): Promise<RunResult> {
    const result = await this.run(req);
    if (result.code !== 0 || result.timedOut) {
      const why = result.timedOut ? 'timed out' : `exited ${result.code}`;
      const detail = (result.stderr.toString().trim() || result.stdout.toString().trim()).slice(0, 2000);
      throw new Error(`${req.cmd} ${req.args.join(' ')} ${why}${detail ? `: ${detail}` : ''}`);
    }
    return result;
  }
}

function collect(child: ChildProcess, req: RunRequest): Promise<RunResult> {
  const max = req.maxOutput ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const out = new Capped(max);
    const err = new Capped(max);
    let timedOut = false;
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    const timer =
      req.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            if (child.pid) {
              try {
                process.kill(child.pid, 'SIGKILL');
              } catch {
                // already gone
              }
            }
          }, req.timeoutMs)
        : undefined;
    child.on('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({
        code: code ?? (signal ? 128 + signalNumber(signal) : 1),
        signal: signal ?? undefined,
        stdout: out.value(),
        stderr: err.value(),
        timedOut,
        truncated: out.truncated || err.truncated,
      });
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(req.input);
  });
}

class Capped {
  private parts: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly max: number) {}
  push(b: Buffer): void {
    const room = this.max - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const piece = b.length > room ? b.subarray(0, room) : b;
    if (piece.length < b.length) this.truncated = true;
    this.parts.push(piece);
    this.size += piece.length;
  }
  value(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGABRT: 6, SIGSEGV: 11, SIGPIPE: 13 };
function signalNumber(signal: string): number {
  return SIGNALS[signal] ?? 0;
}
