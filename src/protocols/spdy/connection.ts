// A SPDY/3.1 session over one byte stream (an upgraded HTTP socket), in the
// client or server role: opens and accepts streams, routes frames to them,
// answers pings, does GOAWAY, and applies per-stream flow control.
//
// Flow control is used only with a peer that shows it does flow control, by
// sending SETTINGS INITIAL_WINDOW_SIZE or a WINDOW_UPDATE; we announce ours
// with SETTINGS at the start, so two of our connections use it both ways. Go's
// spdystream (kubelet, containerd, CRI-O, kubectl, crictl) does no flow
// control: it never limits us, so waiting on its window would stall streams
// after 64 KiB; and WINDOW_UPDATEs we sent it could reach a socket it has just
// closed, whose TCP reset would destroy the final output still unread on our side.
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import {
  encodeFrame, FLAG_FIN, FLAG_UNIDIRECTIONAL, FrameParser, GoAwayStatus, RstStatus, SettingId,
  SpdyProtocolError, type SpdyFrame,
} from './frames.js';
import { HeaderCompressor, HeaderDecompressor } from './header-compression.js';
import type { SpdyHeaders } from './header-block.js';
import { SpdyStream, type StreamHost } from './stream.js';

export const DEFAULT_WINDOW_SIZE = 64 * 1024;

export interface SpdyConnectionOptions {
  role: 'client' | 'server';
  /** Our per-stream receive window, announced with SETTINGS. */
  initialWindowSize?: number;
  /** Send a PING this often; the connection closes when one is not answered in time. */
  pingIntervalMs?: number;
}

export interface SpdyConnectionEvents {
  stream: [SpdyStream];
  goaway: [{ lastGoodStreamId: number; status: number }];
  error: [Error];
  close: [];
}

export class SpdyConnection extends EventEmitter<SpdyConnectionEvents> implements StreamHost {
  readonly role: 'client' | 'server';
  private readonly parser = new FrameParser();
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private readonly streams = new Map<number, SpdyStream>();
  private readonly pings = new Map<number, { start: number; resolve: (ms: number) => void; reject: (e: Error) => void }>();
  private readonly recvWindow: number;
  private nextStreamId: number;
  private nextPingId: number;
  private lastRemoteStreamId = 0;
  private peerInitialWindow = DEFAULT_WINDOW_SIZE;
  private sentGoAway = false;
  private receivedGoAway = false;
  private closed = false;
  private pingTimer: NodeJS.Timeout | undefined;
  private inChain: Promise<void> = Promise.resolve();
  private outChain: Promise<void> = Promise.resolve();
  private corked = false;
  peerFlowControl = false;

  constructor(readonly socket: Duplex, opts: SpdyConnectionOptions) {
    super();
    this.role = opts.role;
    this.nextStreamId = opts.role === 'client' ? 1 : 2;
    this.nextPingId = opts.role === 'client' ? 1 : 2;
    this.recvWindow = opts.initialWindowSize ?? DEFAULT_WINDOW_SIZE;
    socket.on('data', (chunk: Buffer) => this.onBytes(chunk));
    // Let frames already received finish their way through before tearing down.
    const afterInput = (err?: Error): void => { this.inChain = this.inChain.then(() => this.teardown(err)); };
    socket.on('end', () => afterInput());
    socket.on('close', () => afterInput());
    socket.on('error', (err: Error) => afterInput(err));
    this.writeFrame({ type: 'settings', flags: 0, settings: [{ id: SettingId.InitialWindowSize, value: this.recvWindow, flags: 0 }] });
    if (opts.pingIntervalMs && opts.pingIntervalMs > 0) this.startKeepalive(opts.pingIntervalMs);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether the peer said goodbye (GOAWAY) rather than just dropping the socket. */
  get goAwayReceived(): boolean {
    return this.receivedGoAway;
  }

  /** Opens a stream (SYN_STREAM). Await stream.waitReply() for the peer's answer. */
  createStream(headers: SpdyHeaders, opts: { fin?: boolean; priority?: number } = {}): SpdyStream {
    if (this.closed) throw new Error('SPDY connection is closed');
    if (this.receivedGoAway || this.sentGoAway) throw new Error('SPDY connection is going away');
    const id = this.nextStreamId;
    if (id > 0x7fffffff) throw new Error('SPDY stream ids exhausted');
    this.nextStreamId += 2;
    const stream = new SpdyStream(this, id, headers, { remote: false, sendWindow: this.peerInitialWindow, recvWindow: this.recvWindow });
    this.streams.set(id, stream);
    let flags = 0;
    if (opts.fin) flags |= FLAG_FIN;
    this.writeHeaderFrame(headers, (headerBlock) => ({
      type: 'syn_stream', streamId: id, associatedId: 0, priority: opts.priority ?? 0, slot: 0, flags, headerBlock,
    }));
    if (opts.fin) stream.end();
    return stream;
  }

  /** Sends a PING and resolves with the round trip in milliseconds. */
  ping(timeoutMs = 10_000): Promise<number> {
    if (this.closed) return Promise.reject(new Error('SPDY connection is closed'));
    const id = this.nextPingId;
    this.nextPingId = this.nextPingId + 2 > 0xffffffff ? this.nextPingId % 2 || 2 : this.nextPingId + 2;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pings.delete(id);
        reject(new Error(`SPDY ping ${id} timed out after ${timeoutMs}ms`));
      }, timeoutMs);
      this.pings.set(id, {
        start: performance.now(),
        resolve: (ms) => { clearTimeout(timer); resolve(ms); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      this.writeFrame({ type: 'ping', id });
    });
  }

  /** Says no new streams will be accepted; open streams continue. */
  goAway(status: number = GoAwayStatus.Ok): void {
    if (this.sentGoAway || this.closed) return;
    this.sentGoAway = true;
    this.writeFrame({ type: 'goaway', lastGoodStreamId: this.lastRemoteStreamId, status });
  }

  /** GOAWAY, then ends the socket once every queued frame is written (the peer may still be reading them). */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.goAway();
    this.outChain = this.outChain.then(() => {
      this.socket.end();
      this.teardown();
    });
    return this.outChain;
  }

  /** Tears the connection down at once. */
  destroy(err?: Error): void {
    this.socket.destroy();
    this.teardown(err);
  }

  get openStreams(): number {
    return this.streams.size;
  }

  // ---- StreamHost ----

  sendData(stream: SpdyStream, data: Buffer, fin: boolean): Promise<void> {
    return this.enqueue(() => ({ type: 'data', streamId: stream.id, flags: fin ? FLAG_FIN : 0, data }));
  }

  sendReply(stream: SpdyStream, headers: SpdyHeaders, fin: boolean): void {
    this.writeHeaderFrame(headers, (headerBlock) => ({ type: 'syn_reply', streamId: stream.id, flags: fin ? FLAG_FIN : 0, headerBlock }));
  }

  sendReset(stream: SpdyStream, status: number): void {
    this.writeFrame({ type: 'rst_stream', streamId: stream.id, status });
  }

  sendWindowUpdate(stream: SpdyStream, delta: number): void {
    this.writeFrame({ type: 'window_update', streamId: stream.id, delta });
  }

  streamClosed(stream: SpdyStream): void {
    if (this.streams.get(stream.id) === stream) this.streams.delete(stream.id);
  }

  // ---- inbound ----

  private onBytes(chunk: Buffer): void {
    if (this.closed) return;
    let frames: SpdyFrame[];
    try {
      frames = this.parser.push(chunk);
    } catch (err) {
      this.fail(err);
      return;
    }
    // Frames are handled strictly in order: a header block may take a zlib round trip.
    for (const frame of frames) {
      this.inChain = this.inChain.then(() => (this.closed ? undefined : this.handleFrame(frame))).catch((err: unknown) => this.fail(err));
    }
  }

  private fail(err: unknown): void {
    if (this.closed) return;
    const e = err instanceof Error ? err : new Error(String(err));
    if (e instanceof SpdyProtocolError) this.goAway(GoAwayStatus.ProtocolError);
    this.outChain = this.outChain.then(() => {
      this.socket.end();
      this.teardown(e);
    });
  }

  private async handleFrame(frame: SpdyFrame): Promise<void> {
    switch (frame.type) {
      case 'data': {
        const stream = this.streams.get(frame.streamId);
        if (!stream) {
          this.writeFrame({ type: 'rst_stream', streamId: frame.streamId, status: RstStatus.InvalidStream });
          return;
        }
        stream.onData(frame.data, (frame.flags & FLAG_FIN) !== 0);
        return;
      }
      case 'syn_stream':
        // Decompress first, whatever becomes of the stream, to keep the shared zlib context in step.
        this.acceptStream(frame, await this.decompressor.decompress(frame.headerBlock));
        return;
      case 'syn_reply': {
        const headers = await this.decompressor.decompress(frame.headerBlock);
        const stream = this.streams.get(frame.streamId);
        if (!stream) return;
        if (stream.replyHeaders) {
          stream.reset(RstStatus.StreamInUse);
          return;
        }
        stream.onReply(headers, (frame.flags & FLAG_FIN) !== 0);
        return;
      }
      case 'headers': {
        const headers = await this.decompressor.decompress(frame.headerBlock);
        const stream = this.streams.get(frame.streamId);
        if (!stream) return;
        stream.emit('headers', headers);
        if (frame.flags & FLAG_FIN) stream.onData(Buffer.alloc(0), true);
        return;
      }
      case 'rst_stream':
        this.streams.get(frame.streamId)?.onReset(frame.status);
        return;
      case 'settings':
        for (const s of frame.settings) {
          if (s.id !== SettingId.InitialWindowSize) continue;
          const delta = s.value - this.peerInitialWindow;
          this.peerInitialWindow = s.value;
          this.peerFlowControl = true;
          for (const stream of this.streams.values()) stream.adjustSendWindow(delta);
        }
        return;
      case 'ping': {
        const ours = (frame.id & 1) === (this.role === 'client' ? 1 : 0);
        if (!ours) {
          this.writeFrame({ type: 'ping', id: frame.id });
          return;
        }
        const waiter = this.pings.get(frame.id);
        this.pings.delete(frame.id);
        waiter?.resolve(performance.now() - waiter.start);
        return;
      }
      case 'goaway':
        this.receivedGoAway = true;
        for (const stream of this.streams.values()) {
          if (this.isLocalId(stream.id) && stream.id > frame.lastGoodStreamId && !stream.isReplied) {
            stream.onReset(RstStatus.RefusedStream);
          }
        }
        this.emit('goaway', { lastGoodStreamId: frame.lastGoodStreamId, status: frame.status });
        return;
      case 'window_update':
        // Stream 0 is SPDY/3.1's session window; we do not limit the session as a whole.
        if (frame.streamId === 0) return;
        this.peerFlowControl = true;
        this.streams.get(frame.streamId)?.adjustSendWindow(frame.delta);
        return;
      case 'unknown':
        return;
    }
  }

  private acceptStream(frame: Extract<SpdyFrame, { type: 'syn_stream' }>, headers: SpdyHeaders): void {
    const id = frame.streamId;
    if (id === 0 || this.isLocalId(id) || id <= this.lastRemoteStreamId) {
      this.writeFrame({ type: 'rst_stream', streamId: id, status: RstStatus.ProtocolError });
      return;
    }
    this.lastRemoteStreamId = id;
    if (this.sentGoAway) {
      this.writeFrame({ type: 'rst_stream', streamId: id, status: RstStatus.RefusedStream });
      return;
    }
    const stream = new SpdyStream(this, id, headers, { remote: true, sendWindow: this.peerInitialWindow, recvWindow: this.recvWindow });
    this.streams.set(id, stream);
    if (frame.flags & FLAG_UNIDIRECTIONAL) stream.end();
    if (frame.flags & FLAG_FIN) stream.onData(Buffer.alloc(0), true);
    if (this.listenerCount('stream') === 0) {
      stream.reset(RstStatus.RefusedStream);
      return;
    }
    this.emit('stream', stream);
  }

  private isLocalId(id: number): boolean {
    return (id & 1) === (this.role === 'client' ? 1 : 0);
  }

  // ---- outbound and lifecycle ----

  private writeFrame(frame: SpdyFrame): void {
    void this.enqueue(() => frame);
  }

  private writeHeaderFrame(headers: SpdyHeaders, make: (headerBlock: Buffer) => SpdyFrame): void {
    // Compression happens in queue order, so blocks reach the peer in the order the shared context saw them.
    this.enqueue(async () => make(await this.compressor.compress(headers)));
  }

  /**
   * Queues a frame; resolves once the socket took it and is below its high-water mark again, so
   * a writer that waits (SpdyStream) is held back by a peer that reads slowly instead of filling
   * our memory. The queue itself waits too: later frames are not built before the socket drains.
   */
  private enqueue(build: () => SpdyFrame | Promise<SpdyFrame>): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.outChain = this.outChain.then(async () => {
      if (this.closed || this.socket.destroyed || this.socket.writableEnded) return;
      const frame = await build();
      if (this.closed || this.socket.destroyed || this.socket.writableEnded) return;
      this.corkUntilNextTick();
      if (!this.socket.write(encodeFrame(frame))) await drained(this.socket);
    }).catch((err: unknown) => this.fail(err));
    return this.outChain;
  }

  /** Frames queued in one turn of the event loop go out in one write (one syscall, not one per frame). */
  private corkUntilNextTick(): void {
    if (this.corked) return;
    this.corked = true;
    this.socket.cork();
    process.nextTick(() => {
      this.corked = false;
      this.socket.uncork();
    });
  }

  private startKeepalive(intervalMs: number): void {
    this.pingTimer = setInterval(() => {
      this.ping(intervalMs).catch((err: Error) => this.destroy(err));
    }, intervalMs);
    this.pingTimer.unref();
  }

  private teardown(err?: Error): void {
    if (this.closed) return;
    this.closed = true;
    if (this.pingTimer) clearInterval(this.pingTimer);
    // Our side of the socket goes too, after anything already written.
    if (err) this.socket.destroy();
    else if (!this.socket.writableEnded) this.socket.end();
    const closedErr = err ?? new Error('SPDY connection closed');
    for (const p of this.pings.values()) p.reject(closedErr);
    this.pings.clear();
    for (const stream of [...this.streams.values()]) stream.onConnectionClosed(err);
    this.streams.clear();
    this.compressor.close();
    this.decompressor.close();
    if (err && this.listenerCount('error') > 0) this.emit('error', err);
    this.emit('close');
  }
}

/** Resolves when the socket can take more (or will never again). */
function drained(socket: Duplex): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      socket.off('error', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
    socket.on('error', done);
  });
}
