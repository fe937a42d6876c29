// The host processes the engine starts (runc, conmon, CNI plugins, unshare,
// nsenter, gcc, criu) go through one runner, so tests can put a fail-on-request
// hook in front of a binary and so timeouts and output caps live in one place.
// (Layer decompression's `zstd` is a stream stage of the pull, started there.)
//
// run()/check() (run to completion) go through the native addon's runProcess when
// it is built: posix_spawn from one of the addon's worker threads, so the daemon's event loop
// is never held while a ~70 MB Node process is forked (child_process.spawn does that,
// synchronously, for every process). ISULATS_NATIVE_SPAWN=0 forces child_process.
// A child that gets this process's environment (no `env`, or `extraEnv` over it) has it read
// by the addon from environ, never enumerated here.
// runDetached()/spawnWithSyncPipe() (processes that outlive their start: the pause
// container's `runc run -d`, conmon) take the addon's spawnDetached the same way.
// spawnPiped() (exec sessions' runc exec) takes the addon's spawnPiped the same way.
// spawnWithPipes() (a TTY exec's conmon and its three handshake pipes) takes spawnWithPipes.
// spawn() (other long-lived processes with streams: relays) stays on child_process.
import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { closeSync } from 'node:fs';
import { Socket } from 'node:net';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { getSystemErrorName } from 'node:util';
import {
  hasRunProcess,
  hasSpawnDetached,
  hasSpawnPiped,
  hasSpawnWithPipes,
  runProcess,
  spawnDetached,
  type NativeEnv,
  spawnPiped,
  spawnWithPipes,
  type NativeExit,
} from '../native.js';
import { timerDelay } from '../../util/timer-delay.js';

export interface RunRequest {
  cmd: string;
  args: string[];
  /** The child's whole environment; this process's when unset. */
  env?: NodeJS.ProcessEnv;
  /** Added to `env` (or this process's environment), replacing variables of the same name. */
  extraEnv?: Record<string, string>;
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

/** A process started in a session of its own with stdin/stdout/stderr on /dev/null. */
export interface DetachedRequest {
  cmd: string;
  args: string[];
  /** The child's whole environment; this process's when unset. */
  env?: NodeJS.ProcessEnv;
  /** Added to `env` (or this process's environment), replacing variables of the same name. */
  extraEnv?: Record<string, string>;
  cwd?: string;
}

/** How a process ended: `code` is 128 + the signal's number when a signal ended it. */
export interface ExitResult {
  code: number;
  signal?: NodeJS.Signals;
}

/** A process started by spawnWithSyncPipe: its fd 3 is the write end of `sync`. */
export interface SyncPipeProcess {
  pid: number;
  /** What the process (or anything it left running with fd 3) writes there; destroy it when done. */
  sync: Readable;
  /** Settles when the process itself exits (not what it left running). */
  exited: Promise<ExitResult>;
}

/** A process started by spawnPiped: its stdin, stdout and stderr are pipes to us. */
export interface PipedProcess {
  pid: number;
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /** Settles when the process exits; its output may still be unread then. */
  exited: Promise<ExitResult>;
}

/** A process started by spawnWithPipes: `pipes[i]` is connected to its fd 3 + i. */
export interface ExtraPipesProcess {
  pid: number;
  /** Duplex ends of the process's fds 3, 4, ...; destroy them when done. */
  pipes: Socket[];
  /** Settles when the process itself exits (not what it left running). */
  exited: Promise<ExitResult>;
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
    if (useNative(req)) {
      for (const hook of this.hooks) await hook(req.cmd, req.args);
      return runNative(req);
    }
    const child = await this.spawn(req.cmd, req.args, {
      env: nodeEnv(req),
      cwd: req.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return collect(child, req);
  }

  /**
   * Starts a process in a session of its own, stdio on /dev/null (never pipes: what it leaves
   * running, e.g. a container's init under `runc run -d`, inherits them), and waits for it to
   * exit — not for what it leaves running.
   */
  async runDetached(req: DetachedRequest): Promise<ExitResult> {
    for (const hook of this.hooks) await hook(req.cmd, req.args);
    if (useNativeDetached(req)) {
      const child = await spawnDetachedNative(req, false);
      return exitResult(await child.exited);
    }
    const child = spawn(req.cmd, req.args, { env: nodeEnv(req), cwd: req.cwd, stdio: 'ignore', detached: true });
    return new Promise<ExitResult>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(nodeExit(code, signal)));
    });
  }

  /**
   * Like runDetached, with the write end of a pipe as the process's fd 3 (conmon's
   * _OCI_SYNCPIPE); resolves once it has started. Nothing here waits for EOF on `sync`: conmon
   * keeps fd 3 open for as long as the container runs.
   */
  async spawnWithSyncPipe(req: DetachedRequest): Promise<SyncPipeProcess> {
    for (const hook of this.hooks) await hook(req.cmd, req.args);
    if (useNativeDetached(req)) {
      const child = await spawnDetachedNative(req, true);
      let sync: Socket;
      try {
        // libuv opens a pipe fd as a stream handle (uv_pipe_open) and reads it without blocking.
        sync = new Socket({ fd: child.syncFd, readable: true, writable: false });
      } catch (e) {
        closeSync(child.syncFd);
        throw e;
      }
      return { pid: child.pid, sync, exited: child.exited.then(exitResult) };
    }
    const { pid, pipes, exited } = await spawnDetachedWithPipes(req, 1);
    return { pid, sync: pipes[0]!, exited };
  }

  /**
   * A process whose stdio streams to us while it runs (exec sessions' runc exec). Through the
   * addon's spawnPiped when built: child_process.spawn forks this whole process on the event
   * loop, which under a burst of exec sessions held it for seconds.
   */
  async spawnPiped(req: DetachedRequest): Promise<PipedProcess> {
    for (const hook of this.hooks) await hook(req.cmd, req.args);
    if (nativePipedEnabled() && nodeWouldAccept(req)) {
      const child = await spawnPiped(req.cmd, [req.cmd, ...req.args], nativeEnv(req), req.cwd ?? null);
      if (child.errno) throw spawnError(req, child.errno);
      const [stdinFd, stdoutFd, stderrFd] = child.stdioFds;
      // libuv opens pipe fds as stream handles (uv_pipe_open), non-blocking.
      return {
        pid: child.pid,
        stdin: new Socket({ fd: stdinFd, readable: false, writable: true }),
        stdout: new Socket({ fd: stdoutFd, readable: true, writable: false }),
        stderr: new Socket({ fd: stderrFd, readable: true, writable: false }),
        exited: child.exited.then(exitResult),
      };
    }
    const child = spawn(req.cmd, req.args, { env: nodeEnv(req), cwd: req.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<ExitResult>((resolve) => child.once('exit', (code, signal) => resolve(nodeExit(code, signal))));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    return { pid: child.pid!, stdin: child.stdin!, stdout: child.stdout!, stderr: child.stderr!, exited };
  }

  /**
   * Like runDetached, with `count` (1 to 3) pipes to us on the process's fds 3.. (an exec
   * conmon's sync, start and attach pipes); resolves once it has started. Through the addon's
   * spawnWithPipes when built: child_process.spawn forks this whole process (tens of MB of page
   * tables) on the event loop for every exec session.
   */
  async spawnWithPipes(req: DetachedRequest, count: 1 | 2 | 3): Promise<ExtraPipesProcess> {
    for (const hook of this.hooks) await hook(req.cmd, req.args);
    if (nativeWithPipesEnabled() && nodeWouldAccept(req)) {
      const child = await spawnWithPipes(req.cmd, [req.cmd, ...req.args], nativeEnv(req), req.cwd ?? null, count);
      if (child.errno) throw spawnError(req, child.errno);
      const fds = child.stdioFds.slice(0, count);
      const pipes: Socket[] = [];
      try {
        // libuv opens a socket fd as a stream handle (uv_pipe_open), non-blocking.
        for (const fd of fds) pipes.push(new Socket({ fd, readable: true, writable: true }));
      } catch (e) {
        for (const p of pipes) p.destroy();
        for (const fd of fds.slice(pipes.length)) closeSync(fd);
        throw e;
      }
      return { pid: child.pid, pipes, exited: child.exited.then(exitResult) };
    }
    return spawnDetachedWithPipes(req, count);
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

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * A check that the addon has a binding, asked once, and ISULATS_NATIVE_SPAWN=0 read on every call
 * (tests flip it at run time): the native path is taken only when both allow it.
 */
function nativeWhenBuilt(has: () => boolean): () => boolean {
  let built: boolean | undefined;
  return () => {
    if (process.env.ISULATS_NATIVE_SPAWN === '0') return false;
    built ??= has();
    return built;
  };
}

/** Whether run() takes the native path (the addon's runProcess). */
export const nativeSpawnEnabled = nativeWhenBuilt(hasRunProcess);
/** Whether spawnPiped takes the native path (the addon's spawnPiped). */
export const nativePipedEnabled = nativeWhenBuilt(hasSpawnPiped);
/** Whether spawnWithPipes takes the native path (the addon's spawnWithPipes). */
export const nativeWithPipesEnabled = nativeWhenBuilt(hasSpawnWithPipes);
/** Whether runDetached/spawnWithSyncPipe take the native path (the addon's spawnDetached). */
export const nativeDetachedEnabled = nativeWhenBuilt(hasSpawnDetached);

let forks = 0;

/** child_process.spawn, counted: each one forks this whole process (see childProcessSpawns). */
function spawn(cmd: string, args: string[], options: SpawnOptions): ChildProcess {
  forks++;
  return nodeSpawn(cmd, args, options);
}

/** How many processes this process has started through child_process (a fork of it each). */
export function childProcessSpawns(): number {
  return forks;
}

function useNativeDetached(req: DetachedRequest): boolean {
  return nativeDetachedEnabled() && nodeWouldAccept(req);
}

/** A request Node would refuse (empty command, NUL bytes) takes Node's path, to get Node's error. */
function useNative(req: RunRequest): boolean {
  return nativeSpawnEnabled() && nodeWouldAccept(req);
}

function nodeWouldAccept(req: { cmd: string; args: string[]; cwd?: string }): boolean {
  if (req.cmd === '') return false;
  const strings = [req.cmd, ...req.args, ...(req.cwd !== undefined ? [req.cwd] : [])];
  return !strings.some((s) => s.includes('\0'));
}

/** The environment as execve wants it, in the order Node would pass it. */
function envArray(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const key in env) {
    const value = env[key];
    if (value !== undefined && !key.includes('\0') && !value.includes('\0')) out.push(`${key}=${value}`);
  }
  return out;
}

/**
 * The child's environment for the addon. This process's own is read by the addon from environ:
 * process.env is backed by it, and enumerating it here (a getenv per variable) cost ~0.1 ms of the
 * event loop per child.
 */
function nativeEnv(req: { env?: NodeJS.ProcessEnv; extraEnv?: Record<string, string> }): NativeEnv {
  const own = req.env === undefined || req.env === process.env;
  return { env: own ? null : envArray(req.env!), extra: req.extraEnv ? envArray(req.extraEnv) : null };
}

/** The child's environment for child_process. */
function nodeEnv(req: { env?: NodeJS.ProcessEnv; extraEnv?: Record<string, string> }): NodeJS.ProcessEnv {
  const env = req.env ?? process.env;
  return req.extraEnv ? { ...env, ...req.extraEnv } : env;
}

async function runNative(req: RunRequest): Promise<RunResult> {
  const input = req.input === undefined ? null : typeof req.input === 'string' ? Buffer.from(req.input) : req.input;
  const r = await runProcess(
    req.cmd,
    [req.cmd, ...req.args],
    nativeEnv(req),
    req.cwd ?? null,
    input,
    // The addon counts in int64 ms: keep the double it converts exact.
    req.timeoutMs === undefined ? -1 : Math.min(Math.max(req.timeoutMs, 0), Number.MAX_SAFE_INTEGER),
    req.maxOutput ?? DEFAULT_MAX_OUTPUT,
  );
  if (r.errno) throw spawnError(req, r.errno);
  const signal = r.signal ? signalName(r.signal) : undefined;
  return {
    code: r.exitCode >= 0 ? r.exitCode : 128 + r.signal,
    signal,
    stdout: r.stdout,
    stderr: r.stderr,
    timedOut: r.timedOut,
    truncated: r.truncated,
  };
}

/** The error Node's spawn gives: 'spawn runc ENOENT' with code, errno, syscall, path, spawnargs. */
function spawnError(req: { cmd: string; args: string[] }, errno: number): Error {
  const code = getSystemErrorName(-errno);
  const err = new Error(`spawn ${req.cmd} ${code}`) as NodeJS.ErrnoException & { spawnargs: string[] };
  Object.assign(err, { errno: -errno, code, syscall: `spawn ${req.cmd}`, path: req.cmd, spawnargs: req.args });
  return err;
}

async function spawnDetachedNative(req: DetachedRequest, withSyncPipe: boolean) {
  const child = await spawnDetached(req.cmd, [req.cmd, ...req.args], nativeEnv(req), req.cwd ?? null, withSyncPipe);
  if (child.errno) throw spawnError(req, child.errno);
  return child;
}

function exitResult(e: NativeExit): ExitResult {
  return e.exitCode >= 0 ? { code: e.exitCode } : { code: 128 + e.signal, signal: signalName(e.signal) };
}

function nodeExit(code: number | null, signal: NodeJS.Signals | null): ExitResult {
  return code !== null ? { code } : { code: signal ? 128 + signalNumber(signal) : 1, signal: signal ?? undefined };
}

function collect(child: ChildProcess, req: RunRequest): Promise<RunResult> {
  const max = req.maxOutput ?? DEFAULT_MAX_OUTPUT;
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
          }, timerDelay(req.timeoutMs))
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

function signalNumber(signal: string): number {
  return constants.signals[signal as NodeJS.Signals] ?? 0;
}

function signalName(n: number): NodeJS.Signals | undefined {
  return (Object.keys(constants.signals) as NodeJS.Signals[]).find((name) => constants.signals[name] === n);
}

/**
 * The child_process way of spawnWithSyncPipe and spawnWithPipes (no addon): a detached process
 * with `count` pipes to us on its fds 3..; resolves once it has started.
 */
async function spawnDetachedWithPipes(req: DetachedRequest, count: number): Promise<ExtraPipesProcess> {
  const extra = Array.from({ length: count }, () => 'pipe' as const);
  const child = spawn(req.cmd, req.args, {
    env: nodeEnv(req),
    cwd: req.cwd,
    stdio: ['ignore', 'ignore', 'ignore', ...extra],
    detached: true,
  });
  child.unref();
  const exited = new Promise<ExitResult>((resolve) => child.once('exit', (code, signal) => resolve(nodeExit(code, signal))));
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return { pid: child.pid!, pipes: child.stdio.slice(3) as unknown as Socket[], exited };
}
