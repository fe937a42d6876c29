// Typed wrappers over the isulats native addon (native/isulats.c): the syscalls
// Node.js 20 lacks, runProcess (child processes without forking Node, for
// ProcessRunner.run) and spawnDetached/spawnPiped/spawnWithPipes (the same for runc run -d, conmon, exec sessions). Loaded lazily so that commands which never touch the disk
// engine start without it. Build it with `node scripts/build-native.mjs`.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { internal } from './errors.js';

interface NativeBinding {
  flock(fd: number, exclusive: boolean, nonblocking: boolean): boolean;
  funlock(fd: number): void;
  mknod(path: string, mode: number, major: number, minor: number): void;
  lsetxattr(path: string, name: string, value: Buffer): void;
  lgetxattr(path: string, name: string): Buffer | null;
  llistxattr(path: string): string[];
  markTopDirectory?(path: string): boolean;
  mount(source: string | null, target: string, fstype: string | null, flags: number, data: string | null): void;
  umount2(target: string, flags: number): void;
  idmapMount?(source: string, target: string, usernsPath: string, recursive: boolean): void;
  peercred(fd: number): PeerCredentials;
  execve(path: string, argv: string[], env: string[]): never;
  runProcess?(
    file: string,
    argv: string[],
    env: string[] | null,
    envExtra: string[] | null,
    cwd: string | null,
    input: Buffer | null,
    timeoutMs: number,
    maxOutput: number,
    /** stdout/stderr undefined: nothing written. */
    callback: (errno: number, exitCode: number, signal: number, stdout: Buffer | undefined, stderr: Buffer | undefined, timedOut: boolean, truncated: boolean) => void,
  ): void;
  /** callback(0, errno, pid, syncFd) once, then (when started) callback(1, exitCode, signal). */
  spawnDetached?(file: string, argv: string[], env: string[] | null, envExtra: string[] | null, cwd: string | null, withSyncPipe: boolean, callback: SpawnCallback): void;
  /** callback(0, errno, pid, -1, stdinFd, stdoutFd, stderrFd) once, then (when started) callback(1, exitCode, signal). */
  spawnPiped?(file: string, argv: string[], env: string[] | null, envExtra: string[] | null, cwd: string | null, callback: SpawnCallback): void;
  /** callback(0, errno, pid, -1, fd3, fd4, fd5) (our ends, -1 past count) once, then (when started) callback(1, exitCode, signal). */
  spawnWithPipes?(file: string, argv: string[], env: string[] | null, envExtra: string[] | null, cwd: string | null, count: number, callback: SpawnCallback): void;
  spawnStats?(): SpawnStats;
  seqpacketReader?(path: string, callback: SeqpacketCallback): void;
  fdReader?(fd: number, callback: SeqpacketCallback): void;
  recvFd?(socketFd: number): number;
  setWinsize?(fd: number, rows: number, cols: number): void;
  shutdown?(fd: number, how: number): void;
  mallocTrim?(): boolean;
  raiseThreadPriority?(nice: number): void;
}

/** The spawn workers (native/isulats.c): made so far, and waiting for a job now. */
export interface SpawnStats {
  workers: number;
  idle: number;
}

/**
 * A child's environment for the addon: `env` as "NAME=value" strings, or null for this process's
 * own (read by the addon from environ, which process.env reads and writes), then each of `extra`
 * replacing the entry of its name in place or appended, as `{ ...env, ...extra }` orders them.
 */
export interface NativeEnv {
  env: string[] | null;
  extra: string[] | null;
}

/** kind 0: connected (fd, ctlFd) or not (errno); 1: a message (data); 2: the end (errno on a read error). */
export type SeqpacketCallback = (kind: number, errno: number, fd: number, ctlFd: number, data?: Buffer) => void;

type SpawnCallback = (kind: number, a: number, b: number, c: number, d?: number, e?: number, f?: number) => void;

/** How a process started by `spawnDetached` ended. */
export interface NativeExit {
  /** -1 when a signal ended it. */
  exitCode: number;
  /** The terminating signal's number, 0 when it exited. */
  signal: number;
}

/** A process started by `spawnDetached`. */
export interface NativeDetached {
  /** Set (a positive errno) when the process could not be started; the rest is then unset. */
  errno: number;
  pid: number;
  /** The read end of the sync pipe (the child's fd 3), -1 without one; the caller owns it. */
  syncFd: number;
  /** With pipes: our ends of the child's stdin, stdout and stderr (the caller owns them); else -1. */
  stdioFds: [number, number, number];
  /** Settles when the direct child exits (never, when it could not be started). */
  exited: Promise<NativeExit>;
}

/** What a process run by `runProcess` came to. */
export interface NativeRunOutcome {
  /** Set (a positive errno) when the process could not be started; the rest is then empty. */
  errno: number;
  /** -1 when a signal ended it. */
  exitCode: number;
  /** The terminating signal's number, 0 when it exited. */
  signal: number;
  stdout: Buffer;
  stderr: Buffer;
  timedOut: boolean;
  truncated: boolean;
}

/** Who is at the other end of a unix socket (SO_PEERCRED). */
export interface PeerCredentials {
  pid: number;
  uid: number;
  gid: number;
}

/** mount(2) flags used by the engine (values from <sys/mount.h>). */
export const MS = { RDONLY: 1, NOSUID: 2, NODEV: 4, NOEXEC: 8, REMOUNT: 32, BIND: 4096, REC: 16384, PRIVATE: 1 << 18 } as const;
/** umount2(2) flags. */
export const MNT = { FORCE: 1, DETACH: 2 } as const;
/** File type bits for mknod. */
export const S_IFCHR = 0o020000;
export const S_IFBLK = 0o060000;
export const S_IFIFO = 0o010000;

let binding: NativeBinding | undefined;

/** Where the addon is looked for: $ISULATS_NATIVE, then build/Release next to the repo (src/ or dist/ layouts). */
function candidates(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const list = [
    join(here, '..', '..', 'build', 'Release', 'isulats.node'),
    join(here, '..', 'build', 'Release', 'isulats.node'),
    join(here, 'build', 'Release', 'isulats.node'),
  ];
  if (process.env.ISULATS_NATIVE) list.unshift(process.env.ISULATS_NATIVE);
  return list;
}

function load(): NativeBinding {
  if (binding) return binding;
  const found = candidates().find((p) => existsSync(p));
  if (!found) {
    throw internal('isulats native addon not built: run `node scripts/build-native.mjs` (needs gcc and /usr/include/node)');
  }
  const require = createRequire(import.meta.url);
  binding = require(found) as NativeBinding;
  return binding;
}

/** Tries (or waits for, when !nonblocking — avoid on the event loop) a flock; false when busy. */
export function flock(fd: number, exclusive: boolean, nonblocking: boolean): boolean {
  return load().flock(fd, exclusive, nonblocking);
}

export function funlock(fd: number): void {
  load().funlock(fd);
}

/** mknod(2); `mode` carries the type bits (S_IFCHR | 0o600, ...). */
export function mknod(path: string, mode: number, major: number, minor: number): void {
  load().mknod(path, mode, major, minor);
}

export function lsetxattr(path: string, name: string, value: Buffer | string): void {
  load().lsetxattr(path, name, typeof value === 'string' ? Buffer.from(value) : value);
}

/** The attribute's value, or null when it is not set. */
export function lgetxattr(path: string, name: string): Buffer | null {
  return load().lgetxattr(path, name);
}

export function llistxattr(path: string): string[] {
  return load().llistxattr(path);
}

/**
 * Flags a directory as the top of unrelated directory trees (chattr +T): ext4 then places each new
 * subdirectory (and so the files made in it) in a block group it picks among the emptier ones,
 * instead of the parent's. False when the file system (or an addon built before) keeps no such flag.
 */
export function markTopDirectory(path: string): boolean {
  return load().markTopDirectory?.(path) ?? false;
}

export function mount(source: string | null, target: string, fstype: string | null, flags: number, data: string | null): void {
  load().mount(source, target, fstype, flags, data);
}

export function umount2(target: string, flags = 0): void {
  load().umount2(target, flags);
}

/**
 * Attaches at `target` an idmapped clone of the mount tree at `source` (open_tree, mount_setattr
 * MOUNT_ATTR_IDMAP with the user namespace pinned at `usernsPath`, move_mount): inside that
 * namespace, files show with the IDs its mapping gives their owners. `recursive` takes submounts too
 * (each must support idmapping).
 */
export function idmapMount(source: string, target: string, usernsPath: string, recursive = false): void {
  const binding = load();
  if (!binding.idmapMount) throw internal('the native addon has no idmapMount: rebuild it (npm run build)');
  binding.idmapMount(source, target, usernsPath, recursive);
}

/**
 * SO_PEERCRED of a connected unix socket, or undefined when it cannot be read (no fd: Node keeps
 * it on the socket's internal handle, which is the only way to reach it from JavaScript).
 */
export function peerCredentials(sock: { _handle?: { fd?: number } } | object): PeerCredentials | undefined {
  const fd = (sock as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return undefined;
  try {
    return load().peercred(fd);
  } catch {
    return undefined;
  }
}

/** execve(2): replaces this process's image, keeping its PID; returns only by throwing. */
export function execve(path: string, argv: string[], env: string[]): never {
  return load().execve(path, argv, env);
}

/** Whether the spawn bindings take a NativeEnv (env, extra): built together with spawnStats. */
function takesNativeEnv(): boolean {
  return typeof load().spawnStats === 'function';
}

/** Whether runProcess can be used: the addon is built and new enough to have it. */
export function hasRunProcess(): boolean {
  try {
    return typeof load().runProcess === 'function' && takesNativeEnv();
  } catch {
    return false;
  }
}

/**
 * Runs `file` to completion from a worker thread of the addon (posix_spawn, no fork of this
 * process, never blocking the event loop): PATH is searched in `env`, stdin gets `input` then EOF,
 * SIGKILL after `timeoutMs` (< 0: never), at most `maxOutput` bytes kept per stream.
 */
export function runProcess(
  file: string,
  argv: string[],
  env: NativeEnv,
  cwd: string | null,
  input: Buffer | null,
  timeoutMs: number,
  maxOutput: number,
): Promise<NativeRunOutcome> {
  const run = load().runProcess;
  if (!run) return Promise.reject(internal('isulats native addon has no runProcess: rebuild it with `node scripts/build-native.mjs`'));
  return new Promise((resolve, reject) => {
    try {
      run(file, argv, env.env, env.extra, cwd, input, timeoutMs, maxOutput, (errno, exitCode, signal, stdout, stderr, timedOut, truncated) =>
        resolve({ errno, exitCode, signal, stdout: stdout ?? Buffer.alloc(0), stderr: stderr ?? Buffer.alloc(0), timedOut, truncated }),
      );
    } catch (e) {
      reject(e);
    }
  });
}

/** Whether spawnDetached can be used: the addon is built and new enough to have it. */
export function hasSpawnDetached(): boolean {
  try {
    return typeof load().spawnDetached === 'function' && takesNativeEnv();
  } catch {
    return false;
  }
}

/**
 * Starts `file` from a worker thread of the addon (posix_spawn, no fork of this process) in a session of
 * its own, stdin/stdout/stderr on /dev/null and, when `withSyncPipe`, the write end of a pipe as
 * its fd 3. Resolves once it has started (or failed to: `errno`); `exited` follows its exit
 * (the direct child's only: what it leaves running is not waited for).
 */
export function spawnDetached(file: string, argv: string[], env: NativeEnv, cwd: string | null, withSyncPipe: boolean): Promise<NativeDetached> {
  const spawn = load().spawnDetached;
  if (!spawn) return Promise.reject(internal('isulats native addon has no spawnDetached: rebuild it with `node scripts/build-native.mjs`'));
  return started((callback) => spawn(file, argv, env.env, env.extra, cwd, withSyncPipe, callback));
}

/** Whether spawnPiped can be used: the addon is built and new enough to have it. */
export function hasSpawnPiped(): boolean {
  try {
    return typeof load().spawnPiped === 'function' && takesNativeEnv();
  } catch {
    return false;
  }
}

/**
 * Like spawnDetached, but in our session and with stdin, stdout and stderr on pipes: `stdioFds`
 * are our ends (the caller owns them). For processes that stream (exec sessions' runc exec)
 * without a fork of this process on the event loop.
 */
export function spawnPiped(file: string, argv: string[], env: NativeEnv, cwd: string | null): Promise<NativeDetached> {
  const spawn = load().spawnPiped;
  if (!spawn) return Promise.reject(internal('isulats native addon has no spawnPiped: rebuild it with `node scripts/build-native.mjs`'));
  return started((callback) => spawn(file, argv, env.env, env.extra, cwd, callback));
}

/** Whether spawnWithPipes can be used: the addon is built and new enough to have it. */
export function hasSpawnWithPipes(): boolean {
  try {
    return typeof load().spawnWithPipes === 'function' && takesNativeEnv();
  } catch {
    return false;
  }
}

/**
 * Like spawnDetached (a session of its own, stdio on /dev/null), with `count` (1 to 3) socket
 * pairs on the child's fds 3, 4, 5: `stdioFds` are our ends (the caller owns them), -1 past
 * `count`. For conmon's exec handshake pipes without a fork of this process.
 */
export function spawnWithPipes(file: string, argv: string[], env: NativeEnv, cwd: string | null, count: 1 | 2 | 3): Promise<NativeDetached> {
  const spawn = load().spawnWithPipes;
  if (!spawn) return Promise.reject(internal('isulats native addon has no spawnWithPipes: rebuild it with `node scripts/build-native.mjs`'));
  return started((callback) => spawn(file, argv, env.env, env.extra, cwd, count, callback));
}

/** The addon's spawn workers, or undefined when the addon is missing or older than this binding. */
export function spawnStats(): SpawnStats | undefined {
  try {
    return load().spawnStats?.();
  } catch {
    return undefined;
  }
}

function started(start: (callback: SpawnCallback) => void): Promise<NativeDetached> {
  return new Promise((resolve, reject) => {
    let onExit: (e: NativeExit) => void = () => undefined;
    const exited = new Promise<NativeExit>((r) => (onExit = r));
    try {
      start((kind, a, b, c, d = -1, e = -1, f = -1) => {
        if (kind === 0) resolve({ errno: a, pid: b, syncFd: c, stdioFds: [d, e, f], exited });
        else onExit({ exitCode: a, signal: b });
      });
    } catch (e) {
      reject(e);
    }
  });
}

/** Whether seqpacketReader can be used: the addon is built and new enough to have it. */
export function hasSeqpacketReader(): boolean {
  try {
    return typeof load().seqpacketReader === 'function' && typeof load().shutdown === 'function';
  } catch {
    return false;
  }
}

/**
 * Connects to a SOCK_SEQPACKET unix socket and reads it from a thread of the addon, one message per
 * callback(1, 0, -1, -1, data). First callback(0, errno, fd, ctlFd): the caller then owns the socket
 * `fd` (writes, shutdown, close after the end) and `ctlFd`, a pipe to the thread: 'p' pauses
 * reading, 'r' resumes it, closing it stops the thread. Last callback(2, errno): the end.
 */
export function seqpacketReader(path: string, callback: SeqpacketCallback): void {
  const start = load().seqpacketReader;
  if (!start) throw internal('isulats native addon has no seqpacketReader: rebuild it with `node scripts/build-native.mjs`');
  start(path, callback);
}

/** Whether a TTY exec can hold its terminal's master side: fdReader, recvFd and setWinsize are built. */
export function hasTerminalBindings(): boolean {
  try {
    const b = load();
    return typeof b.fdReader === 'function' && typeof b.recvFd === 'function' && typeof b.setWinsize === 'function';
  } catch {
    return false;
  }
}

/** seqpacketReader's thread on an fd the caller owns (a terminal master): its first callback hands back `fd`. */
export function fdReader(fd: number, callback: SeqpacketCallback): void {
  const start = load().fdReader;
  if (!start) throw internal('isulats native addon has no fdReader: rebuild it with `node scripts/build-native.mjs`');
  start(fd, callback);
}

/** The fd passed (SCM_RIGHTS) with the next message on a unix socket, close-on-exec; -1 when none is there yet. */
export function recvFd(socketFd: number): number {
  const recv = load().recvFd;
  if (!recv) throw internal('isulats native addon has no recvFd: rebuild it with `node scripts/build-native.mjs`');
  return recv(socketFd);
}

/** TIOCSWINSZ: a terminal's size (its foreground process group gets SIGWINCH). */
export function setWinsize(fd: number, rows: number, cols: number): void {
  const set = load().setWinsize;
  if (!set) throw internal('isulats native addon has no setWinsize: rebuild it with `node scripts/build-native.mjs`');
  set(fd, rows, cols);
}

/** shutdown(2) of a socket: 0 reading, 1 writing, 2 both. */
export function shutdownSocket(fd: number, how: 0 | 1 | 2): void {
  const shut = load().shutdown;
  if (!shut) throw internal('isulats native addon has no shutdown: rebuild it with `node scripts/build-native.mjs`');
  shut(fd, how);
}

/**
 * malloc_trim(0): returns glibc's free heap pages to the kernel. Undefined when
 * the addon is missing or older than this binding (nothing is trimmed then).
 */
export function mallocTrim(): boolean | undefined {
  try {
    return load().mallocTrim?.();
  } catch {
    return undefined;
  }
}

/**
 * The calling thread at nice `nice`, with SCHED_RESET_ON_FORK so that the threads and children it
 * starts afterwards begin at nice 0 (native/isulats.c). Throws (EPERM without CAP_SYS_NICE, or an
 * addon older than this binding).
 */
export function raiseThreadPriority(nice: number): void {
  const raise = load().raiseThreadPriority;
  if (!raise) throw internal('isulats native addon has no raiseThreadPriority: rebuild it with `node scripts/build-native.mjs`');
  raise(nice);
}
