// The local terminal around an interactive session, as kubectl and crictl
// handle it. With a TTY, stdin goes raw, so Ctrl-C reaches the remote process
// as the byte 0x03 instead of raising SIGINT here; the mode is restored on
// every way out (normal end, thrown error, process exit, fatal signals).
// Without a TTY, stdin is left alone and SIGINT ends the local client.
import type { TerminalSize } from '../../protocols/remotecommand/index.js';

/** What we need of a terminal input (tty.ReadStream fits). */
export interface TtyIn {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** What we need of a terminal output (tty.WriteStream fits). */
export interface TtyOut {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** Signals that would kill us with the terminal still raw. SIGINT only comes from outside: in raw mode Ctrl-C is a byte. */
const RESTORE_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGINT'];

/** The parts of `process` the terminal handling uses (a fake in tests). */
export type ProcessLike = Pick<NodeJS.Process, 'on' | 'off' | 'once' | 'kill' | 'pid' | 'exit'>;

/**
 * Puts `stdin` into raw mode when it is a TTY and returns the idempotent
 * undo. The undo also runs on process exit and on SIGTERM/SIGHUP/SIGQUIT/
 * SIGINT (after which the signal is re-raised with its default action).
 */
export function enterRawMode(stdin: TtyIn, proc: ProcessLike = process): () => void {
  if (!stdin.isTTY || typeof stdin.setRawMode !== 'function') return () => {};
  const wasRaw = stdin.isRaw ?? false;
  stdin.setRawMode(true);
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    try {
      stdin.setRawMode?.(wasRaw);
    } catch {
      // The terminal may already be gone (hangup); nothing left to restore.
    }
    proc.off('exit', restore);
    for (const sig of RESTORE_SIGNALS) proc.off(sig, onSignal);
  };
  const onSignal = (sig: NodeJS.Signals): void => {
    restore();
    proc.kill(proc.pid, sig);
  };
  proc.on('exit', restore);
  for (const sig of RESTORE_SIGNALS) proc.once(sig, onSignal);
  return restore;
}

/** The terminal size now, or undefined when `out` is not a terminal. */
export function terminalSize(out: TtyOut): TerminalSize | undefined {
  if (!out.columns || !out.rows) return undefined;
  return { width: out.columns, height: out.rows };
}

/**
 * Sizes for the remote terminal: the current one first, then one per change
 * (SIGWINCH, which Node reports as 'resize' on the output stream). Ends when
 * `signal` aborts or the consumer stops iterating.
 */
export async function* watchTerminalSize(out: TtyOut, signal?: AbortSignal): AsyncGenerator<TerminalSize> {
  const queue: TerminalSize[] = [];
  let wake: (() => void) | undefined;
  const onResize = (): void => {
    const size = terminalSize(out);
    if (!size) return;
    queue.length = 0; // only the latest size matters
    queue.push(size);
    wake?.();
  };
  const onAbort = (): void => wake?.();
  out.on('resize', onResize);
  signal?.addEventListener('abort', onAbort);
  try {
    const first = terminalSize(out);
    if (first) yield first;
    while (!signal?.aborted) {
      if (queue.length === 0) {
        await new Promise<void>((resolve) => { wake = resolve; });
        wake = undefined;
        continue;
      }
      yield queue.shift()!;
    }
  } finally {
    out.off('resize', onResize);
    signal?.removeEventListener('abort', onAbort);
  }
}

export interface TerminalSession {
  /** Resize events to hand to runRemoteCommand (undefined without a TTY). */
  resize?: AsyncIterable<TerminalSize>;
  /** Restores the terminal and stops watching; safe to call more than once. */
  restore(): void;
  /** Aborted when, without a TTY, the user pressed Ctrl-C (SIGINT) locally. */
  interrupted: AbortSignal;
}

export interface TerminalOptions {
  tty: boolean;
  stdin?: TtyIn;
  stdout?: TtyOut;
  proc?: ProcessLike;
  /** Without a TTY, what SIGINT does after restoring; default: exit with status 130 as a shell would report. */
  onInterrupt?: () => void;
}

/**
 * Prepares the local terminal for a session. With `tty`, stdin goes raw (if
 * it is a terminal) so Ctrl-C travels to the remote process as a byte, and
 * sizes are watched. Without, SIGINT ends the local client: `interrupted`
 * aborts and `onInterrupt` runs (default: exit 130), as kubectl does.
 */
export function setupTerminal(opts: TerminalOptions): TerminalSession {
  const proc = opts.proc ?? process;
  const stdin = opts.stdin ?? (process.stdin as unknown as TtyIn);
  const stdout = opts.stdout ?? (process.stdout as unknown as TtyOut);
  const interrupt = new AbortController();
  const stopWatching = new AbortController();
  let undoRaw = (): void => {};
  let resize: AsyncIterable<TerminalSize> | undefined;
  const onSigint = (): void => {
    interrupt.abort(new Error('interrupted'));
    session.restore();
    (opts.onInterrupt ?? (() => proc.exit(130)))();
  };
  if (opts.tty) {
    undoRaw = enterRawMode(stdin, proc);
    if (stdout.isTTY !== false && terminalSize(stdout)) resize = watchTerminalSize(stdout, stopWatching.signal);
  } else {
    proc.on('SIGINT', onSigint);
  }
  let restored = false;
  const session: TerminalSession = {
    resize,
    interrupted: interrupt.signal,
    restore: () => {
      if (restored) return;
      restored = true;
      undoRaw();
      stopWatching.abort();
      proc.off('SIGINT', onSigint);
    },
  };
  return session;
}
