// Attaches to a container through conmon's attach socket. The socket is
// SOCK_SEQPACKET, which Node's net module cannot open, so this uses our
// addon's seqpacketReader (NativeSeqpacketSocket), which stops reading while
// the client's stream is not draining: conmon then blocks and the container's
// output waits in its terminal or pipe, not in the daemon. Without it (an
// older addon), the node-unix-socket package (SeqpacketSocket, prebuilt
// binaries), which reads all it gets.
//
// Protocol (conmon): each message from conmon starts with one byte naming the
// stream (2 stdout, 3 stderr) followed by the bytes; what the client writes
// is the container's stdin, raw. Shutting down our write side closes the
// container's stdin unless conmon runs with --leave-stdin-open. The tty size
// goes through the bundle's ctl fifo, not the socket.
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import type { StreamIO } from '../../api/cri-service.js';
import { unavailable } from '../errors.js';
import { hasSeqpacketReader, NativeSeqpacketSocket } from './seqpacket-native.js';

const STDOUT_PIPE = 2;
const STDERR_PIPE = 3;
/** conmon reads stdin in 8 KiB messages. */
const MAX_MESSAGE = 8192;
/**
 * Stdin messages conmon has not taken yet (the container is not reading) past which the client's
 * stdin is paused: what a client sends faster than the container reads waits in its own stream
 * and transport, not in the daemon's memory. Resumed once half of them are taken.
 */
const MAX_UNWRITTEN = 32;

interface SeqpacketSocketLike {
  connect(path: string, cb?: () => void): void;
  write(buf: Buffer, offset?: number, length?: number, cb?: () => void): void;
  end(cb?: () => void): void;
  destroy(): void;
  on(event: 'data', cb: (buf: Buffer) => void): void;
  on(event: 'end' | 'close' | 'connect', cb: () => void): void;
  on(event: 'error', cb: (error: Error) => void): void;
  /** Only the native socket can stop reading. */
  pause?(): void;
  resume?(): void;
}

function loadSeqpacket(): new () => SeqpacketSocketLike {
  if (hasSeqpacketReader()) return NativeSeqpacketSocket;
  try {
    const require = createRequire(import.meta.url);
    return (require('node-unix-socket') as { SeqpacketSocket: new () => SeqpacketSocketLike }).SeqpacketSocket;
  } catch (error) {
    throw unavailable('attach needs the node-unix-socket package (SOCK_SEQPACKET support)', error);
  }
}

/** Splits a message from conmon into its stream and payload. */
export function demuxAttachMessage(buf: Buffer): { stream: 'stdout' | 'stderr' | 'unknown'; data: Buffer } {
  const kind = buf[0];
  return { stream: kind === STDOUT_PIPE ? 'stdout' : kind === STDERR_PIPE ? 'stderr' : 'unknown', data: buf.subarray(1) };
}

export interface AttachOptions {
  socketPath: string;
  io: StreamIO;
  /** Called for each terminal size change (writes conmon's ctl fifo). */
  resize?: (width: number, height: number) => Promise<void>;
  /** Called once the socket is connected (in conmon's backlog: it accepts before it reads output). */
  onConnect?: () => void;
}

/** Streams until conmon closes the socket (the container exited) or the caller's stdin ends and conmon hangs up. */
export function attachToConmon(opts: AttachOptions): Promise<void> {
  const SeqpacketSocket = loadSeqpacket();
  const { io } = opts;
  return new Promise((resolve, reject) => {
    const sock = new SeqpacketSocket();
    let settled = false;
    let unwritten = 0;
    let stdinPaused = false;
    const written = (): void => {
      unwritten--;
      if (stdinPaused && unwritten <= MAX_UNWRITTEN / 2) {
        stdinPaused = false;
        io.stdin?.resume();
      }
    };
    const onStdin = (chunk: Buffer | string) => {
      const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      for (let off = 0; off < b.length; off += MAX_MESSAGE) {
        unwritten++;
        sock.write(b, off, Math.min(MAX_MESSAGE, b.length - off), written);
      }
      if (unwritten > MAX_UNWRITTEN && !stdinPaused && io.stdin) {
        stdinPaused = true;
        io.stdin.pause();
      }
    };
    const onStdinEnd = () => sock.end();
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      io.stdin?.removeListener('data', onStdin);
      io.stdin?.removeListener('end', onStdinEnd);
      sock.destroy();
      if (error) reject(error);
      else resolve();
    };
    let waiting = false;
    // Back-pressure: stop reading until the stream that is full drains, or is gone (the client
    // left: what follows is read and dropped, so the container never blocks on nobody).
    const waitFor = (target: NodeJS.WritableStream): void => {
      waiting = true;
      sock.pause!();
      const done = (): void => {
        for (const event of ['drain', 'close', 'error']) target.removeListener(event, done);
        waiting = false;
        sock.resume?.();
      };
      for (const event of ['drain', 'close', 'error']) target.once(event, done);
    };
    sock.on('data', (buf) => {
      const { stream, data } = demuxAttachMessage(buf);
      const target = stream === 'stderr' && !io.tty ? (io.stderr ?? io.stdout) : stream !== 'unknown' ? io.stdout : undefined;
      if (!target || (target as Partial<Writable>).destroyed) return;
      if (!target.write(data) && sock.pause && !waiting) waitFor(target);
    });
    sock.on('end', () => finish());
    sock.on('close', () => finish());
    sock.on('error', (error) => {
      // conmon exiting (its container killed) with our stdin unread in its socket resets the
      // connection: the stream has ended, as for a container that exits by itself. Which of the
      // two we see first is a race: the reader's ECONNRESET, or EPIPE from our next stdin write.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ECONNRESET' || code === 'EPIPE') finish();
      else finish(unavailable(`attach socket ${opts.socketPath}: ${error.message}`, error));
    });
    // The client's streams, once they are open (a session may connect before: see StreamIO.opened).
    const wire = (): void => {
      if (settled) return;
      if (io.stdin) {
        io.stdin.on('data', onStdin);
        io.stdin.on('end', onStdinEnd);
      }
      if (io.resize && opts.resize) {
        void (async () => {
          for await (const size of io.resize!) {
            if (settled) break;
            await opts.resize!(size.width, size.height).catch(() => undefined);
          }
        })();
      }
    };
    // A client that went away ends the attach: its connection to conmon closes now, not at the
    // container's next write or exit.
    void io.gone?.then(() => finish());
    sock.connect(opts.socketPath, () => {
      opts.onConnect?.();
      if (io.opened) io.opened.then(wire, () => finish());
      else wire();
    });
  });
}
