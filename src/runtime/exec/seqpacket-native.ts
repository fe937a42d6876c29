// A SOCK_SEQPACKET client over the addon's seqpacketReader, shaped like node-unix-socket's
// SeqpacketSocket plus pause() and resume(): while paused, nothing is read from the socket, so
// the peer (conmon) blocks instead of our memory filling up with what a slow client cannot take.
// open(fd) reads an fd we already hold the same way (fdReader): a TTY exec's terminal master,
// where a write may take part of a chunk (the rest waits) and end() does not apply.
import { EventEmitter } from 'node:events';
import { close, writeSync } from 'node:fs';
import { getSystemErrorName } from 'node:util';
import { fdReader, hasSeqpacketReader, seqpacketReader, shutdownSocket, type SeqpacketCallback } from '../native.js';

export { hasSeqpacketReader };

const RETRY_MS = 10;

export class NativeSeqpacketSocket extends EventEmitter {
  private fd = -1;
  private ctlFd = -1;
  /** Messages the socket could not take yet (it is nonblocking), retried on a timer. */
  private queue: { data: Buffer; cb?: () => void }[] = [];
  private retry: NodeJS.Timeout | undefined;
  private endPending = false;
  private ended = false;
  private destroyed = false;
  private closed = false;

  connect(path: string, cb?: () => void): void {
    seqpacketReader(path, this.reader(cb));
  }

  /** Reads `fd` (ours from now on: closed after the end) from a thread; 'connect' once it runs. */
  open(fd: number, cb?: () => void): void {
    fdReader(fd, this.reader(cb, fd));
  }

  /** `given`: an fd handed to open(), closed here when its thread could not start. */
  private reader(cb?: () => void, given = -1): SeqpacketCallback {
    return (kind, errno, fd, ctlFd, data) => {
      if (kind === 0) {
        if (errno && given >= 0) close(given, () => undefined);
        if (errno) {
          this.queue = [];
          return this.fail('connect', errno);
        }
        this.fd = fd;
        this.ctlFd = ctlFd;
        if (this.destroyed) return this.stopReader();
        this.emit('connect');
        cb?.();
        this.flush(); // what was written before the thread ran
      } else if (kind === 1) {
        if (!this.destroyed) this.emit('data', data);
      } else {
        this.ended = true;
        this.stopReader();
        if (errno && !this.destroyed) this.fail('recv', errno);
        else if (!this.destroyed) this.emit('end');
        this.closeSocket();
      }
    };
  }

  /** One write, one message (the caller keeps messages within what the peer reads at once); queued until connected. */
  write(buf: Buffer, offset = 0, length = buf.length - offset, cb?: () => void): void {
    if (this.destroyed || this.ended) return;
    this.queue.push({ data: buf.subarray(offset, offset + length), cb });
    this.flush();
  }

  /** Closes our write side (conmon then closes the container's stdin), once the queue is written. */
  end(cb?: () => void): void {
    this.endPending = true;
    this.flush();
    cb?.();
  }

  pause(): void {
    this.control('p');
  }

  resume(): void {
    this.control('r');
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.stopReader();
  }

  private control(command: 'p' | 'r'): void {
    if (this.ctlFd < 0) return;
    try {
      writeSync(this.ctlFd, command);
    } catch {
      // the thread has stopped: its end is on the way
    }
  }

  /** Closing the control pipe stops the thread, which then reports the end. */
  private stopReader(): void {
    if (this.ctlFd < 0) return;
    close(this.ctlFd, () => undefined);
    this.ctlFd = -1;
  }

  /** Writes what the socket takes now; the rest waits for a retry (conmon is busy or blocked). */
  private flush(): void {
    if (this.retry || this.fd < 0) return;
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      try {
        const n = writeSync(this.fd, head.data);
        if (n < head.data.length) {
          // A terminal took part of it (its input buffer is full): the rest goes on the next try.
          head.data = head.data.subarray(n);
          this.retry = setTimeout(() => {
            this.retry = undefined;
            this.flush();
          }, RETRY_MS);
          return;
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.retry = setTimeout(() => {
            this.retry = undefined;
            this.flush();
          }, RETRY_MS);
          return;
        }
        this.queue = [];
        if (!this.destroyed) this.emit('error', error);
        return;
      }
      this.queue.shift();
      head.cb?.();
    }
    if (this.endPending && !this.ended) {
      this.endPending = false;
      try {
        shutdownSocket(this.fd, 1);
      } catch {
        // already gone: the end follows
      }
    }
  }

  private closeSocket(): void {
    if (!this.ended || this.fd < 0) return;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.queue = [];
    close(this.fd, () => undefined);
    this.fd = -1;
    if (!this.closed) {
      this.closed = true;
      this.emit('close');
    }
  }

  private fail(syscall: string, errno: number): void {
    const error = Object.assign(new Error(`${syscall} ${getSystemErrorName(-errno)}`), { code: getSystemErrorName(-errno), errno, syscall });
    this.emit('error', error);
  }
}
