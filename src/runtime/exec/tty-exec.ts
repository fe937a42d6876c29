// Exec with a TTY without conmon: `runc exec -d --tty --console-socket` hands the terminal's
// master side to the daemon (a unix socket we listen on, the fd received with recvFd), and
// build/ttyexec/ttyexec (assets/ttyexec) is the process's parent: a child subreaper that runs
// runc, waits for the process and reports its exit code on a socket to us. One small static
// process instead of conmon's three (conmon, its daemonized child, the child that runs runc).
//
// The helper starts when the session does (for an early session, when its URL is handed out) and
// runs runc only when we write 'g', once the client's streams are open and the process spec is
// written: a session given up before, or a daemon that dies, closes our end, and it exits having
// run nothing. The master is read from a thread of the addon (fdReader, which stops reading while
// the client is slow) and written nonblocking; resizes are TIOCSWINSZ on it. A client that goes
// away hangs the terminal up (we close the master: the process gets SIGHUP); the end of its
// stdin alone does not, as in containerd 1.6.
import { closeSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { StreamIO } from '../../api/cri-service.js';
import { internal } from '../errors.js';
import { hasTerminalBindings, recvFd, setWinsize } from '../native.js';
import type { OciProcess } from '../oci/oci-runtime.js';
import type { ProcessRunner } from '../oci/process-runner.js';
import { NativeSeqpacketSocket } from './seqpacket-native.js';
import { LineQueue } from './line-queue.js';
import { makeSession, removeSession, sessionName } from './session-dir.js';
import { repoPath } from '../../util/repo-root.js';

export const TTYEXEC_BINARY = repoPath('build', 'ttyexec', 'ttyexec');

let usable: boolean | undefined;

/**
 * Whether a TTY exec goes without conmon: the helper is built and the addon has the terminal
 * bindings (asked once), unless ISULATS_TTY_EXEC=conmon (read on every call) asks for conmon.
 */
export function ttyExecWithoutConmon(): boolean {
  if (process.env.ISULATS_TTY_EXEC === 'conmon') return false;
  usable ??= hasTerminalBindings() && existsSync(TTYEXEC_BINARY);
  return usable;
}

export interface ConsoleExecOptions {
  runner: ProcessRunner;
  /** build/ttyexec/ttyexec */
  helper: string;
  runcPath: string;
  runcRoot: string;
  /** The handler's global options, before --root. */
  runtimeArgs?: string[];
  /** Short dir for the session's console socket link. */
  socketDir: string;
  /** Parent of the per-session dirs (spec, pid file, console socket). */
  sessionsDir: string;
  containerId: string;
  process: OciProcess;
  io: StreamIO;
  timeoutMs?: number;
}

/**
 * Terminal writes not yet taken (the process is not reading) past which the client's stdin is
 * paused, so that what it sends waits in its own stream, not in the daemon; resumed at half.
 */
const MAX_UNWRITTEN = 32;
/**
 * After the exit is reported, how long the terminal may stay quiet before we stop reading it. It
 * normally ends at once (the master reads EIO when no process holds the other side); only a
 * background child holding it open waits this long. Counted from the exit report as well as from
 * the last data: on a loaded node the reader thread can deliver what the process wrote last well
 * after the helper reported its exit.
 */
const DRAIN_IDLE_MS = 1000;

/** Listens on `path` for runc's console connection; `fd()` then receives the master it passes. */
async function listenForConsole(path: string): Promise<{ master: (timeoutMs: number) => Promise<number>; close: () => void }> {
  // Paused: libuv must not read the connection, or the fd that comes with runc's message is lost.
  const server = createServer({ pauseOnConnect: true });
  let conn: Socket | undefined;
  let onConn: (() => void) | undefined;
  server.on('connection', (c) => {
    if (conn) return void c.destroy();
    conn = c;
    onConn?.();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const master = async (timeoutMs: number): Promise<number> => {
    if (!conn) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        onConn = resolve;
        timer = setTimeout(() => reject(internal(`runc sent no console within ${timeoutMs} ms`)), timeoutMs);
      }).finally(() => clearTimeout(timer));
    }
    // runc sent the fd before `runc exec -d` exited, which the helper reported before this runs.
    const fd = recvFd((conn as unknown as { _handle: { fd: number } })._handle.fd);
    conn!.destroy();
    if (fd < 0) throw internal('runc closed its console socket without passing the terminal');
    return fd;
  };
  // A connection never read (runc failed after connecting) holds the terminal it passed: closed here.
  const close = (): void => {
    conn?.destroy();
    server.close();
  };
  return { master, close };
}

/** Copies between the client's streams and the terminal master until the terminal ends; exported for its unit test. */
export function wireTerminal(term: NativeSeqpacketSocket, masterFd: number, io: StreamIO): { ended: Promise<void>; quiet: () => Promise<void> } {
  let lastData = Date.now();
  let unwritten = 0;
  let stdinPaused = false;
  let closed = false;
  const ended = new Promise<void>((resolve) => {
    term.on('end', resolve);
    term.on('close', () => {
      closed = true;
      resolve();
    });
    term.on('error', () => resolve());
  });
  const written = (): void => {
    unwritten--;
    if (stdinPaused && unwritten <= MAX_UNWRITTEN / 2) {
      stdinPaused = false;
      io.stdin?.resume();
    }
  };
  let waiting = false;
  term.on('data', (data: Buffer) => {
    lastData = Date.now();
    const out = io.stdout;
    if (!out || (out as { destroyed?: boolean }).destroyed) return;
    if (!out.write(data) && !waiting) {
      // Back-pressure: stop reading until the client's stream drains or goes away.
      waiting = true;
      term.pause();
      const done = (): void => {
        for (const event of ['drain', 'close', 'error']) out.removeListener(event, done);
        waiting = false;
        term.resume();
      };
      for (const event of ['drain', 'close', 'error']) out.once(event, done);
    }
  });
  if (io.stdin) {
    io.stdin.on('data', (chunk: Buffer | string) => {
      unwritten++;
      term.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk), 0, undefined, written);
      if (unwritten > MAX_UNWRITTEN && !stdinPaused) {
        stdinPaused = true;
        io.stdin!.pause();
      }
    });
  }
  // The end of the client's stdin leaves the terminal open, as containerd does (it closes only
  // the client's output streams); a client gone hangs it up (the process gets SIGHUP).
  void io.gone?.then(() => term.destroy());
  if (io.resize) {
    void (async () => {
      for await (const size of io.resize!) {
        if (closed) break;
        try {
          setWinsize(masterFd, size.height, size.width);
        } catch {
          // the terminal is gone: its session is ending
        }
      }
    })();
  }
  /** Resolves once the terminal ends, or has been quiet for DRAIN_IDLE_MS since the exit and its last data. */
  const quiet = async (): Promise<void> => {
    lastData = Math.max(lastData, Date.now());
    for (let i = 0; i < 10_000; i++) {
      if (waiting) lastData = Date.now(); // a slow client: what is left is still coming
      const idle = DRAIN_IDLE_MS - (Date.now() - lastData);
      if (idle <= 0) return;
      const timedOut = await Promise.race([ended.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), idle))]);
      if (!timedOut) return;
    }
  };
  return { ended, quiet };
}

export async function execWithConsole(o: ConsoleExecOptions): Promise<number> {
  const session = makeSession(o.sessionsDir);
  const link = join(o.socketDir, sessionName(o.containerId, session));
  const specFile = join(session, 'process.json');
  const pidFile = join(session, 'pid');
  const timeout = o.timeoutMs ?? 30_000;
  let closeConsole: (() => void) | undefined;
  let pipes: Socket[] = [];
  let term: NativeSeqpacketSocket | undefined;
  try {
    symlinkSync(session, link);
    const consoleSocket = join(link, 'console');
    const listening = await listenForConsole(consoleSocket);
    closeConsole = listening.close;
    const spawned = await o.runner.spawnWithPipes(
      {
        cmd: o.helper,
        args: [
          pidFile,
          o.runcPath,
          ...(o.runtimeArgs ?? []),
          '--root', o.runcRoot,
          'exec', '-d', '--tty', '--console-socket', consoleSocket, '--pid-file', pidFile, '--process', specFile,
          o.containerId,
        ],
      },
      1,
    );
    pipes = spawned.pipes;
    const helper = pipes[0]!;
    // Lines from the helper: `pid N`, `error TEXT`, `exit CODE`.
    const lines = new LineQueue(helper);
    // The spec is written while the client still opens its streams (not on its path once they
    // are); the helper runs the command only once they are open.
    writeFileSync(specFile, JSON.stringify({ ...o.process, terminal: true }));
    await o.io.opened;
    helper.write('g');
    const started = await lines.next(timeout);
    if (!started?.startsWith('pid ')) throw internal(`exec failed: ${started?.replace(/^error /, '') ?? `runc exec did not start within ${timeout} ms`}`);
    const masterFd = await listening.master(timeout);
    term = new NativeSeqpacketSocket();
    const wired = wireTerminal(term, masterFd, o.io);
    try {
      term.open(masterFd);
    } catch (error) {
      closeSync(masterFd); // no reader thread: the fd is still ours
      throw error;
    }
    const exit = await lines.next();
    if (!exit?.startsWith('exit ')) throw internal(`exec failed: ${exit?.replace(/^error /, '') ?? 'ttyexec ended before the process'}`);
    // The process is gone; what it wrote is in the terminal. Forward it, then stop.
    await wired.quiet();
    // Nothing more goes to the client's streams: they end with the status (a background child's
    // later output is dropped; closing the master hangs it up).
    term.destroy();
    const code = Number.parseInt(exit.slice(5), 10);
    if (o.io.exited) {
      o.io.exited(code);
      // The cleanup below (a directory removal costs milliseconds on a busy disk) waits until the
      // status is on its way: the session writes it in the microtasks and ticks that follow.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return code;
  } finally {
    term?.destroy();
    closeConsole?.();
    removeSession(session, link);
    for (const s of pipes) s.destroy();
  }
}
