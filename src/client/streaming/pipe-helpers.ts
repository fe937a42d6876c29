// Small stream helpers shared by the transports.
import type { Readable } from 'node:stream';
import type { TerminalSize } from '../../protocols/remotecommand/index.js';

/** Resolves when `r` has ended or closed, whichever first. */
export function ended(r: Readable): Promise<void> {
  return new Promise((resolve) => {
    if (r.readableEnded || r.destroyed) {
      resolve();
      return;
    }
    const done = (): void => {
      r.off('end', done);
      r.off('close', done);
      resolve();
    };
    r.on('end', done);
    r.on('close', done);
  });
}

/** Copies `from` into `to` without ending `to` (it may be process.stdout). */
export function pipeKeepOpen(from: Readable, to: NodeJS.WritableStream): void {
  from.pipe(to as NodeJS.WritableStream, { end: false });
}

export interface InputSink {
  /** Takes one chunk and calls `resume` once it may take the next. */
  write(chunk: Buffer, resume: () => void): void;
  end(): void;
}

/**
 * Reads the caller's stdin into `sink` with backpressure, by listening rather
 * than piping so we never end or destroy a stream we do not own. The returned
 * function detaches and pauses it so it no longer holds the event loop.
 */
export function attachInput(stdin: NodeJS.ReadableStream, sink: InputSink): () => void {
  let detached = false;
  const onData = (chunk: Buffer | string): void => {
    stdin.pause();
    sink.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, () => { if (!detached) stdin.resume(); });
  };
  const onEnd = (): void => { if (!detached) sink.end(); };
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  stdin.resume();
  return () => {
    if (detached) return;
    detached = true;
    stdin.removeListener('data', onData);
    stdin.removeListener('end', onEnd);
    stdin.pause();
  };
}

/** Feeds sizes from `source` to `send` until `stop` is called. */
export function forwardResizes(source: AsyncIterable<TerminalSize> | undefined, send: (size: TerminalSize) => void): () => void {
  if (!source) return () => {};
  const it = source[Symbol.asyncIterator]();
  let stopped = false;
  void (async () => {
    try {
      for (;;) {
        const next = await it.next();
        if (next.done || stopped) break;
        send(next.value);
      }
    } catch {
      // A failing size source only loses resizes, never the session.
    }
  })();
  return () => {
    if (stopped) return;
    stopped = true;
    void it.return?.();
  };
}
