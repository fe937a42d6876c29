// One SPDY stream as a Node Duplex. Writing sends DATA frames (within the
// peer's window when it does flow control), end() sends FIN, and reading
// releases receive window so such a peer may send more.
import { Duplex } from 'node:stream';
import type { SpdyHeaders } from './header-block.js';
import { RstStatus } from './frames.js';

/** What a stream needs from its connection; keeps the stream free of framing. */
export interface StreamHost {
  /** Resolves once the frame is written and the connection can take more (back-pressure). */
  sendData(stream: SpdyStream, data: Buffer, fin: boolean): Promise<void>;
  sendReply(stream: SpdyStream, headers: SpdyHeaders, fin: boolean): void;
  sendReset(stream: SpdyStream, status: number): void;
  sendWindowUpdate(stream: SpdyStream, delta: number): void;
  /** True once the peer showed it does flow control: its windows bind us and we return ours. */
  readonly peerFlowControl: boolean;
  streamClosed(stream: SpdyStream): void;
}

export class SpdyStreamResetError extends Error {
  constructor(readonly streamId: number, readonly status: number) {
    super(`SPDY stream ${streamId} reset (status ${status})`);
    this.name = 'SpdyStreamResetError';
  }
}

export class SpdyStream extends Duplex {
  /** Headers of the SYN_STREAM that opened this stream. */
  readonly headers: SpdyHeaders;
  replyHeaders: SpdyHeaders | undefined;
  sendWindow: number;
  /** Bytes the reader has taken but we have not yet returned to the peer's window. */
  private consumed = 0;
  /** Bytes pushed while the reader was full; returned once it reads again. */
  private pendingAck = 0;
  private readonly recvWindow: number;
  private localFin = false;
  private remoteFin = false;
  private replied: boolean;
  private readonly replyWaiters: { resolve: (h: SpdyHeaders) => void; reject: (e: Error) => void }[] = [];
  private blockedWrite: { data: Buffer; cb: (err?: Error | null) => void } | undefined;
  private finished = false;

  constructor(
    private readonly host: StreamHost,
    readonly id: number,
    headers: SpdyHeaders,
    opts: { remote: boolean; sendWindow: number; recvWindow: number },
  ) {
    super({ allowHalfOpen: true });
    this.headers = headers;
    this.sendWindow = opts.sendWindow;
    this.recvWindow = opts.recvWindow;
    // Streams we open wait for SYN_REPLY; streams the peer opens are answered by us.
    this.replied = opts.remote;
  }

  /** Resolves with the SYN_REPLY headers of a stream we opened. */
  waitReply(timeoutMs = 0): Promise<SpdyHeaders> {
    if (this.replyHeaders) return Promise.resolve(this.replyHeaders);
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter = {
        resolve: (h: SpdyHeaders) => { if (timer) clearTimeout(timer); resolve(h); },
        reject: (e: Error) => { if (timer) clearTimeout(timer); reject(e); },
      };
      this.replyWaiters.push(waiter);
      if (timeoutMs > 0) {
        timer = setTimeout(() => waiter.reject(new Error(`no reply on SPDY stream ${this.id} within ${timeoutMs}ms`)), timeoutMs);
      }
    });
  }

  /** Answers a stream the peer opened (SYN_REPLY). */
  respond(headers: SpdyHeaders = {}, fin = false): void {
    if (this.replyHeaders) return;
    this.replyHeaders = headers;
    this.host.sendReply(this, headers, fin);
    if (fin) {
      this.localFin = true;
      this.checkFinished();
    }
  }

  /** Aborts the stream both ways with RST_STREAM. */
  reset(status: number = RstStatus.Cancel): void {
    if (this.finished) return;
    this.host.sendReset(this, status);
    this.finish();
    this.destroy();
  }

  get localClosed(): boolean {
    return this.localFin;
  }

  get remoteClosed(): boolean {
    return this.remoteFin;
  }

  // ---- called by the connection ----

  onReply(headers: SpdyHeaders, fin: boolean): void {
    this.replied = true;
    this.replyHeaders = headers;
    for (const w of this.replyWaiters.splice(0)) w.resolve(headers);
    if (fin) this.onRemoteFin();
  }

  onData(data: Buffer, fin: boolean): void {
    if (this.remoteFin) {
      this.host.sendReset(this, RstStatus.StreamAlreadyClosed);
      return;
    }
    if (data.length > 0) {
      if (this.push(data)) this.ack(data.length);
      else this.pendingAck += data.length;
    }
    if (fin) this.onRemoteFin();
  }

  /** WINDOW_UPDATE, or a changed INITIAL_WINDOW_SIZE (whose delta may be negative). */
  adjustSendWindow(delta: number): void {
    this.sendWindow += delta;
    this.flushBlocked();
  }

  onReset(status: number): void {
    const err = new SpdyStreamResetError(this.id, status);
    for (const w of this.replyWaiters.splice(0)) w.reject(err);
    const wasDone = this.localFin && this.remoteFin;
    this.finish();
    // CANCEL is how kubelet-style servers tear streams down after the command
    // ends: treat it as end of data and keep what is still buffered for the reader.
    if (status === RstStatus.Cancel || wasDone) {
      if (!this.remoteFin) {
        this.remoteFin = true;
        this.push(null);
      }
      this.localFin = true;
      const blocked = this.blockedWrite;
      this.blockedWrite = undefined;
      blocked?.cb();
      return;
    }
    this.destroy(err);
  }

  onConnectionClosed(err?: Error): void {
    for (const w of this.replyWaiters.splice(0)) w.reject(err ?? new Error('SPDY connection closed'));
    if (!this.remoteFin) {
      this.remoteFin = true;
      this.push(null);
    }
    this.finish();
    const blocked = this.blockedWrite;
    this.blockedWrite = undefined;
    blocked?.cb();
    if (err) this.destroy(err);
  }

  // ---- Duplex plumbing ----

  override _read(): void {
    if (this.pendingAck > 0) {
      const n = this.pendingAck;
      this.pendingAck = 0;
      this.ack(n);
    }
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    // Writes after the stream ended (reset or connection gone) are dropped, like writes to a closed pipe's far end.
    if (this.finished) {
      cb();
      return;
    }
    this.blockedWrite = { data: chunk, cb };
    this.flushBlocked();
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (!this.localFin && !this.finished) {
      this.localFin = true;
      void this.host.sendData(this, Buffer.alloc(0), true);
      this.checkFinished();
    }
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    if (!this.finished) {
      this.host.sendReset(this, RstStatus.Cancel);
      this.finish();
    }
    const blocked = this.blockedWrite;
    this.blockedWrite = undefined;
    blocked?.cb(err ?? new Error('SPDY stream destroyed'));
    cb(err);
  }

  private flushBlocked(): void {
    const w = this.blockedWrite;
    if (!w) return;
    const enforce = this.host.peerFlowControl;
    let data = w.data;
    let sent: Promise<void> | undefined;
    while (data.length > 0) {
      const room = enforce ? Math.min(this.sendWindow, MAX_DATA_CHUNK) : MAX_DATA_CHUNK;
      if (room <= 0) {
        w.data = data;
        return;
      }
      const part = data.subarray(0, room);
      data = data.subarray(part.length);
      this.sendWindow -= part.length;
      sent = this.host.sendData(this, part, false);
    }
    this.blockedWrite = undefined;
    // The next write waits until the connection took this one: a slow peer holds the writer back
    // (Go's spdystream has no flow control, so the socket is the only brake).
    if (sent) void sent.then(() => w.cb());
    else w.cb();
  }

  private ack(n: number): void {
    // Nothing is owed to a peer that keeps no window for us.
    if (!this.host.peerFlowControl) return;
    this.consumed += n;
    // Batch updates: tell the peer once half the window has been consumed,
    // and only a peer that does flow control (see connection.ts).
    if (this.consumed >= this.recvWindow / 2 && !this.remoteFin) {
      this.host.sendWindowUpdate(this, this.consumed);
      this.consumed = 0;
    }
  }

  private onRemoteFin(): void {
    if (this.remoteFin) return;
    this.remoteFin = true;
    this.push(null);
    this.checkFinished();
  }

  private checkFinished(): void {
    if (this.localFin && this.remoteFin) this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.host.streamClosed(this);
  }

  /** Whether the stream still holds a slot in its connection. */
  get isOpen(): boolean {
    return !this.finished;
  }

  get isReplied(): boolean {
    return this.replied;
  }
}

/** Largest DATA payload we send in one frame. */
export const MAX_DATA_CHUNK = 16 * 1024;
