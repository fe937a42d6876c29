// One HTTP/2 server connection framed by hand (RFC 9113) on a socket: the preface, SETTINGS and
// their ACK, PING, WINDOW_UPDATE both ways (answers larger than the peer's window wait for it),
// HEADERS + CONTINUATION decoded with the connection's HPACK table, RST_STREAM, GOAWAY both ways,
// PRIORITY ignored, padding removed. Each request becomes an H2Stream handed to `onStream`.
// Everything a peer can grow is bounded (H2Limits, limits.ts): header blocks, concurrent streams,
// resets per second, control frames queued for a peer that does not read, the decoded header list.
import type { Socket } from 'node:net';
import {
  CLIENT_PREFACE, DEFAULT_MAX_FRAME, DEFAULT_WINDOW, ErrorCode, Flag, FRAME_HEADER_LENGTH, FrameType, h2Frame, h2FrameHeader,
  MAX_WINDOW, Setting,
} from '../../protocols/http2/frame.js';
import { HpackDecodeError, HpackDecoder } from '../../protocols/http2/hpack-decoder.js';
import { goAway, H2ConnectionError, rstStream, unpad, validRequest, windowUpdate, writeFrameHeader } from './frames.js';
import { H2Stream, STREAM_LOW_WATER, type StreamOwner } from './stream.js';

export { H2ConnectionError };

export interface H2Limits {
  /** SETTINGS_MAX_CONCURRENT_STREAMS we advertise; a stream past it is refused (REFUSED_STREAM). */
  maxConcurrentStreams: number;
  /** One request header block (HEADERS + CONTINUATION), encoded. */
  maxHeaderBlockBytes: number;
  /** SETTINGS_MAX_HEADER_LIST_SIZE we advertise: one block, decoded. */
  maxHeaderListBytes: number;
  /** Resets by the peer: a bucket of `resetBurst` tokens refilled at `resetsPerSecond` (rapid reset). */
  resetBurst: number;
  resetsPerSecond: number;
  /** Bytes waiting on the socket for a peer that does not read, past which the connection is dropped. */
  maxQueuedOutputBytes: number;
  /** Answer DATA held for streams whose window the peer keeps shut, past which the connection is dropped. */
  maxQueuedDataBytes: number;
  /** Entries in one SETTINGS frame. */
  maxSettingsEntries: number;
  /** Time to the first request header block. */
  handshakeTimeoutMs: number;
  /** A connection without an open stream this long gets GOAWAY and is closed. */
  idleTimeoutMs: number;
  /** A PING after this long without a frame from the peer; closed if its ACK takes longer than the timeout. */
  keepaliveTimeMs: number;
  keepaliveTimeoutMs: number;
}

/** Our receive windows: a request of this size needs no WINDOW_UPDATE round trip. */
const STREAM_RECEIVE_WINDOW = 1 << 20;
const CONNECTION_RECEIVE_WINDOW = 1 << 20;
/** DATA is written while the socket holds less than this (so a peer that does not read holds only its windows' worth in us). */
const SOCKET_HIGH_WATER = 256 * 1024;
/** After a GOAWAY of ours for an error, how long the peer gets to read it. */
const ERROR_LINGER_MS = 1_000;


export interface H2ConnectionEvents {
  /** A request's header block arrived: the stream is the handler's. */
  onStream(stream: H2Stream): void;
  /** The connection closed for a protocol error of the peer's (for the log). */
  onError?(err: H2ConnectionError): void;
  /** Handshake or idle timeout, keepalive unanswered. */
  onTimeout?(what: 'handshake' | 'idle' | 'keepalive'): void;
  onClose?(): void;
}

export class H2Connection implements StreamOwner {
  private readonly streams = new Map<number, H2Stream>();
  private readonly decoder: HpackDecoder;
  private pending: Buffer | undefined;
  private prefaceLeft = CLIENT_PREFACE.length;
  private settingsSeen = false;
  private block?: { streamId: number; endStream: boolean; parts: Buffer[]; size: number };
  private lastPeerStream = 0;
  private out: Buffer[] = [];
  private outBytes = 0;
  private flushQueued = false;
  /** Streams with DATA or trailers waiting, in the order they asked. */
  private readonly ready = new Set<H2Stream>();
  private sendWindow = DEFAULT_WINDOW;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = DEFAULT_MAX_FRAME;
  private receiveWindow = CONNECTION_RECEIVE_WINDOW;
  /** Bytes read since the last connection WINDOW_UPDATE. */
  private unacked = 0;
  private pumping = false;
  /** DATA is written while the socket holds less than this: well under the unread-output bound, which it must never trip. */
  private readonly dataHighWater: number;
  /** DATA queued on all streams. */
  private queuedData = 0;
  private resetTokens: number;
  private resetRefilled = Date.now();
  private goingAway = false;
  private peerGoingAway = false;
  private closed = false;
  private handshakeTimer?: NodeJS.Timeout;
  private idleTimer?: NodeJS.Timeout;
  private keepaliveTimer?: NodeJS.Timeout;
  private keepaliveDeadline?: NodeJS.Timeout;
  private readSinceCheck = false;
  /** Calls that came in (tests, the daemon's counters). */
  streamsOpened = 0;

  constructor(private readonly socket: Socket, private readonly limits: H2Limits, private readonly events: H2ConnectionEvents) {
    this.decoder = new HpackDecoder(4096, limits.maxHeaderListBytes);
    this.resetTokens = limits.resetBurst;
    this.dataHighWater = Math.min(SOCKET_HIGH_WATER, limits.maxQueuedOutputBytes / 4);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => this.pump());
    socket.on('error', () => undefined);
    socket.on('close', () => this.onSocketClose());
    this.handshakeTimer = setTimeout(() => this.timedOut('handshake'), limits.handshakeTimeoutMs);
    this.handshakeTimer.unref();
    this.keepaliveTimer = setTimeout(() => this.keepaliveCheck(), limits.keepaliveTimeMs);
    this.keepaliveTimer.unref();
    // The server preface: our SETTINGS, then the connection window opened to ours.
    const settings = Buffer.alloc(18);
    settings.writeUInt16BE(Setting.MAX_CONCURRENT_STREAMS, 0);
    settings.writeUInt32BE(limits.maxConcurrentStreams, 2);
    settings.writeUInt16BE(Setting.INITIAL_WINDOW_SIZE, 6);
    settings.writeUInt32BE(STREAM_RECEIVE_WINDOW, 8);
    settings.writeUInt16BE(Setting.MAX_HEADER_LIST_SIZE, 12);
    settings.writeUInt32BE(limits.maxHeaderListBytes, 14);
    this.emit(h2Frame(FrameType.SETTINGS, 0, 0, settings));
    this.emit(windowUpdate(0, CONNECTION_RECEIVE_WINDOW - DEFAULT_WINDOW));
    this.scheduleFlush();
  }

  /** Streams open now. */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Graceful stop: GOAWAY(NO_ERROR), no new streams, the socket ends once open streams end. */
  shutdown(): void {
    if (this.closed || this.goingAway) return;
    this.goingAway = true;
    this.emit(goAway(this.lastPeerStream, ErrorCode.NO_ERROR));
    if (!this.endIfDone()) this.scheduleFlush();
  }

  /** Drops the connection now (open streams hear CANCEL). */
  destroy(): void {
    this.socket.destroy();
  }

  // ---- input -------------------------------------------------------------------------------

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    // Read by the keepalive timer when it fires (cheaper than re-arming it for every chunk).
    this.readSinceCheck = true;
    try {
      let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
      this.pending = undefined;
      let pos = 0;
      if (this.prefaceLeft > 0) {
        const n = Math.min(this.prefaceLeft, buf.length);
        const at = CLIENT_PREFACE.length - this.prefaceLeft;
        if (!buf.subarray(0, n).equals(CLIENT_PREFACE.subarray(at, at + n))) {
          throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'not an HTTP/2 connection preface');
        }
        this.prefaceLeft -= n;
        pos = n;
      }
      while (buf.length - pos >= FRAME_HEADER_LENGTH && !this.closed) {
        const length = buf.readUIntBE(pos, 3);
        // We advertise the default SETTINGS_MAX_FRAME_SIZE.
        if (length > DEFAULT_MAX_FRAME) throw new H2ConnectionError(ErrorCode.FRAME_SIZE_ERROR, `frame of ${length} bytes`);
        if (buf.length - pos < FRAME_HEADER_LENGTH + length) break;
        const type = buf[pos + 3]!;
        const flags = buf[pos + 4]!;
        const id = buf.readUInt32BE(pos + 5) & 0x7fffffff;
        const payload = buf.subarray(pos + FRAME_HEADER_LENGTH, pos + FRAME_HEADER_LENGTH + length);
        pos += FRAME_HEADER_LENGTH + length;
        this.onFrame(type, flags, id, payload);
      }
      if (pos < buf.length && !this.closed) {
        buf = buf.subarray(pos);
        // Copied, so a large chunk is not kept alive by a few bytes of it.
        this.pending = Buffer.from(buf);
      }
    } catch (err) {
      if (err instanceof H2ConnectionError) this.fail(err);
      else throw err;
    }
    this.scheduleFlush();
  }

  private onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (!this.settingsSeen) {
      if (type !== FrameType.SETTINGS || flags & Flag.ACK) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'the client preface must start with SETTINGS');
      this.settingsSeen = true;
    }
    if (this.block && type !== FrameType.CONTINUATION) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'frame within a header block');
    switch (type) {
      case FrameType.DATA: return this.onDataFrame(flags, id, payload);
      case FrameType.HEADERS: return this.onHeaders(flags, id, payload);
      case FrameType.CONTINUATION: return this.onContinuation(flags, id, payload);
      case FrameType.PRIORITY:
        if (id === 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'PRIORITY on stream 0');
        if (payload.length !== 5) this.resetUnknown(id, ErrorCode.FRAME_SIZE_ERROR);
        return;
      case FrameType.RST_STREAM: return this.onReset(id, payload);
      case FrameType.SETTINGS: return this.onSettings(flags, id, payload);
      case FrameType.PUSH_PROMISE: throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'PUSH_PROMISE from a client');
      case FrameType.PING: return this.onPing(flags, id, payload);
      case FrameType.GOAWAY:
        if (id !== 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'GOAWAY on a stream');
        this.peerGoingAway = true;
        this.endIfDone();
        return;
      case FrameType.WINDOW_UPDATE: return this.onWindowUpdate(id, payload);
      default: return; // unknown frame types are ignored (RFC 9113 4.1)
    }
  }

  private onDataFrame(flags: number, id: number, payload: Buffer): void {
    if (id === 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'DATA on stream 0');
    if (payload.length > this.receiveWindow) throw new H2ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'DATA past the connection window');
    this.receiveWindow -= payload.length;
    const stream = this.streams.get(id);
    if (!stream || stream.remoteEnded) {
      if (id > this.lastPeerStream) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'DATA on an idle stream');
      // A stream we closed or reset: its bytes still count against the connection window.
      this.returnConnectionWindow(payload.length);
      if (stream) stream.reset(ErrorCode.STREAM_CLOSED);
      return;
    }
    if (payload.length > stream.receiveWindow) {
      this.returnConnectionWindow(payload.length);
      return stream.reset(ErrorCode.FLOW_CONTROL_ERROR);
    }
    stream.receiveWindow -= payload.length;
    const data = flags & Flag.PADDED ? unpad(payload) : payload;
    // The connection's window comes back on arrival (a stream that reads slowly must not stall
    // the others; each stream's own window bounds what it holds), the stream's once it is read.
    this.returnConnectionWindow(payload.length);
    if (!stream.manualWindow) this.consumed(stream, payload.length);
    else if (data.length < payload.length) this.consumed(stream, payload.length - data.length);
    if (data.length) stream.onData?.(data);
    if (flags & Flag.END_STREAM) this.remoteEnd(stream);
  }

  private onHeaders(flags: number, id: number, payload: Buffer): void {
    if (id === 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'HEADERS on stream 0');
    let fragment = flags & Flag.PADDED ? unpad(payload) : payload;
    if (flags & Flag.PRIORITY) {
      if (fragment.length < 5) throw new H2ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'short HEADERS priority');
      fragment = fragment.subarray(5);
    }
    this.block = { streamId: id, endStream: (flags & Flag.END_STREAM) !== 0, parts: [fragment], size: fragment.length };
    this.checkBlockSize();
    if (flags & Flag.END_HEADERS) this.onBlock();
  }

  private onContinuation(flags: number, id: number, payload: Buffer): void {
    const b = this.block;
    if (!b || b.streamId !== id) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'CONTINUATION without its HEADERS');
    b.parts.push(payload);
    b.size += payload.length;
    this.checkBlockSize();
    if (flags & Flag.END_HEADERS) this.onBlock();
  }

  /** CONTINUATION floods: a block is refused as it passes the bound, before the rest of it is kept. */
  private checkBlockSize(): void {
    if (this.block!.size > this.limits.maxHeaderBlockBytes) {
      throw new H2ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, `header block past ${this.limits.maxHeaderBlockBytes} bytes`);
    }
  }

  private onBlock(): void {
    const { streamId: id, endStream, parts } = this.block!;
    this.block = undefined;
    let fields;
    try {
      fields = this.decoder.decode(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
    } catch (err) {
      if (!(err instanceof HpackDecodeError)) throw err;
      // The table is out of step with the peer's either way: a connection error.
      throw new H2ConnectionError(err.tooLarge ? ErrorCode.ENHANCE_YOUR_CALM : ErrorCode.COMPRESSION_ERROR, err.message);
    }
    const existing = this.streams.get(id);
    if (existing) {
      // Trailers of a request: they must end it.
      if (!endStream || existing.remoteEnded) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a second header block without END_STREAM');
      return this.remoteEnd(existing);
    }
    if (id <= this.lastPeerStream) throw new H2ConnectionError(ErrorCode.STREAM_CLOSED, `HEADERS on closed stream ${id}`);
    if (id % 2 === 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, `even stream ID ${id} from a client`);
    this.lastPeerStream = id;
    if (this.handshakeTimer) {
      clearTimeout(this.handshakeTimer);
      this.handshakeTimer = undefined;
    }
    if (this.goingAway || this.streams.size >= this.limits.maxConcurrentStreams) return this.resetUnknown(id, ErrorCode.REFUSED_STREAM);
    if (!validRequest(fields)) return this.resetUnknown(id, ErrorCode.PROTOCOL_ERROR);
    const stream = new H2Stream(id, fields, this, this.peerInitialWindow, STREAM_RECEIVE_WINDOW);
    this.streams.set(id, stream);
    this.streamsOpened++;
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
    }
    // The peer's side may already be over: a handler answering at once then owes no RST_STREAM.
    stream.remoteEnded = endStream;
    this.events.onStream(stream);
    if (endStream && !stream.closed) stream.onEnd?.();
  }

  private onReset(id: number, payload: Buffer): void {
    if (id === 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'RST_STREAM on stream 0');
    if (payload.length !== 4) throw new H2ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'RST_STREAM of the wrong size');
    if (id > this.lastPeerStream) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'RST_STREAM on an idle stream');
    // Rapid reset (CVE-2023-44487): each reset costs a token; tokens come back at a fixed rate.
    const now = Date.now();
    this.resetTokens = Math.min(this.limits.resetBurst, this.resetTokens + ((now - this.resetRefilled) / 1000) * this.limits.resetsPerSecond);
    this.resetRefilled = now;
    if (--this.resetTokens < 0) throw new H2ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, 'too many stream resets');
    const stream = this.streams.get(id);
    if (stream) this.close(stream, payload.readUInt32BE(0));
  }

  private onSettings(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'SETTINGS on a stream');
    if (flags & Flag.ACK) {
      if (payload.length) throw new H2ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'SETTINGS ACK with a payload');
      return;
    }
    if (payload.length % 6) throw new H2ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'SETTINGS of the wrong size');
    if (payload.length / 6 > this.limits.maxSettingsEntries) throw new H2ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, 'too many settings in one frame');
    for (let at = 0; at < payload.length; at += 6) {
      const key = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (key === Setting.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW) throw new H2ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'SETTINGS_INITIAL_WINDOW_SIZE too large');
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const s of this.streams.values()) {
          s.sendWindow += delta;
          if (s.sendWindow > MAX_WINDOW) throw new H2ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'stream window overflow');
          if (delta > 0) this.schedule(s);
        }
      } else if (key === Setting.MAX_FRAME_SIZE) {
        if (value < DEFAULT_MAX_FRAME || value > 0xffffff) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'bad SETTINGS_MAX_FRAME_SIZE');
        this.peerMaxFrame = value;
      } else if (key === Setting.ENABLE_PUSH && value > 1) {
        throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'bad SETTINGS_ENABLE_PUSH');
      }
      // HEADER_TABLE_SIZE: our encoder never indexes, so any size of the peer's table suits it.
    }
    this.control(h2Frame(FrameType.SETTINGS, Flag.ACK, 0));
  }

  private onPing(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'PING on a stream');
    if (payload.length !== 8) throw new H2ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'PING of the wrong size');
    if (flags & Flag.ACK) {
      if (this.keepaliveDeadline) clearTimeout(this.keepaliveDeadline);
      this.keepaliveDeadline = undefined;
      return;
    }
    this.control(h2Frame(FrameType.PING, Flag.ACK, 0, payload));
  }

  private onWindowUpdate(id: number, payload: Buffer): void {
    if (payload.length !== 4) throw new H2ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'WINDOW_UPDATE of the wrong size');
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (id === 0) {
      if (increment === 0) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'WINDOW_UPDATE of 0');
      this.sendWindow += increment;
      if (this.sendWindow > MAX_WINDOW) throw new H2ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'connection window overflow');
      for (const s of this.streams.values()) if (s.queuedBytes || s.trailers || s.endAfterData) this.ready.add(s);
      return this.pump();
    }
    const stream = this.streams.get(id);
    if (!stream) {
      if (id > this.lastPeerStream) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'WINDOW_UPDATE on an idle stream');
      return;
    }
    if (increment === 0) return stream.reset(ErrorCode.PROTOCOL_ERROR);
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) return stream.reset(ErrorCode.FLOW_CONTROL_ERROR);
    this.schedule(stream);
  }

  private remoteEnd(stream: H2Stream): void {
    stream.remoteEnded = true;
    stream.onEnd?.();
  }

  // ---- output ------------------------------------------------------------------------------

  sendHeaders(stream: H2Stream, block: Buffer, endStream: boolean): void {
    if (stream.closed || this.closed) return;
    this.emitHeaderBlock(stream.id, block, endStream ? Flag.END_STREAM : 0);
    if (endStream) this.localDone(stream);
    else if (stream.queuedBytes > 0 || stream.trailers || stream.endAfterData) return this.schedule(stream);
    this.scheduleFlush();
  }

  sendWhole(stream: H2Stream, headers: Buffer, body: Buffer, trailers: Buffer): boolean {
    if (stream.closed || this.closed) return true;
    const n = body.length;
    if (n > stream.sendWindow || n > this.sendWindow || n > this.peerMaxFrame || headers.length > this.peerMaxFrame || trailers.length > this.peerMaxFrame) return false;
    if (this.socket.writableLength + this.outBytes >= this.dataHighWater) return false;
    const H = FRAME_HEADER_LENGTH;
    const out = Buffer.allocUnsafe(3 * H + headers.length + n + trailers.length);
    let at = writeFrameHeader(out, 0, headers.length, FrameType.HEADERS, Flag.END_HEADERS, stream.id);
    at += headers.copy(out, at);
    at = writeFrameHeader(out, at, n, FrameType.DATA, 0, stream.id);
    at += body.copy(out, at);
    at = writeFrameHeader(out, at, trailers.length, FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, stream.id);
    trailers.copy(out, at);
    stream.headersSent = true;
    stream.localEnded = true;
    stream.sendWindow -= n;
    this.sendWindow -= n;
    this.emit(out);
    this.localDone(stream);
    this.scheduleFlush();
    return true;
  }

  enqueue(stream: H2Stream, data: Buffer): void {
    if (stream.closed) return;
    stream.queue.push(data);
    stream.queuedBytes += data.length;
    this.queuedData += data.length;
    if (this.queuedData > this.limits.maxQueuedDataBytes) {
      return this.fail(new H2ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, 'answers held for windows the peer keeps shut'));
    }
    this.schedule(stream);
  }

  schedule(stream: H2Stream): void {
    if (stream.closed) return;
    this.ready.add(stream);
    this.pump();
  }

  sendReset(stream: H2Stream, code: number): void {
    if (stream.closed) return;
    this.emit(rstStream(stream.id, code));
    this.close(stream);
    this.scheduleFlush();
  }

  consumed(stream: H2Stream, bytes: number): void {
    if (stream.remoteEnded || stream.closed) return;
    // Said once half the window is read, so a long upload costs few frames.
    stream.unacked += bytes;
    if (stream.unacked >= STREAM_RECEIVE_WINDOW / 2) {
      stream.receiveWindow += stream.unacked;
      this.emit(windowUpdate(stream.id, stream.unacked));
      stream.unacked = 0;
      this.scheduleFlush();
    }
  }

  private returnConnectionWindow(bytes: number): void {
    this.unacked += bytes;
    if (this.unacked >= CONNECTION_RECEIVE_WINDOW / 2) {
      this.receiveWindow += this.unacked;
      this.emit(windowUpdate(0, this.unacked));
      this.unacked = 0;
      this.scheduleFlush();
    }
  }

  /** Sends queued DATA and trailers as far as the windows and the socket allow. */
  private pump(): void {
    if (this.closed || this.pumping) return;
    this.pumping = true;
    try {
      this.pumpReady();
    } finally {
      this.pumping = false;
    }
    this.scheduleFlush();
  }

  private pumpReady(): void {
    for (const s of this.ready) {
      if (s.closed) {
        this.ready.delete(s);
        continue;
      }
      // DATA waits for the response headers (a relay may hear a body before its headers event).
      if (!s.headersSent && s.queuedBytes > 0) continue;
      while (s.queuedBytes > 0) {
        if (this.socket.writableLength + this.outBytes >= this.dataHighWater) return;
        const n = Math.min(s.queuedBytes, s.sendWindow, this.sendWindow, this.peerMaxFrame);
        if (n <= 0) break;
        const last = n === s.queuedBytes && s.endAfterData;
        this.emitData(s, n, last);
        if (last) {
          s.endAfterData = false;
          this.localDone(s);
        }
      }
      if (s.closed) {
        this.ready.delete(s);
        continue;
      }
      if (s.queuedBytes === 0) {
        if (s.trailers) {
          const t = s.trailers;
          s.trailers = undefined;
          this.emitHeaderBlock(s.id, t, Flag.END_STREAM);
          this.localDone(s);
        } else if (s.endAfterData) {
          s.endAfterData = false;
          this.emit(h2Frame(FrameType.DATA, Flag.END_STREAM, s.id));
          this.localDone(s);
        }
        this.ready.delete(s);
      }
      if (s.queuedBytes < STREAM_LOW_WATER && !s.closed) s.onDrain?.();
    }
  }

  private emitData(s: H2Stream, n: number, endStream: boolean): void {
    let left = n;
    this.emit(h2FrameHeader(FrameType.DATA, endStream ? Flag.END_STREAM : 0, s.id, n));
    while (left > 0) {
      const head = s.queue[0]!;
      if (head.length <= left) {
        s.queue.shift();
        this.emit(head);
        left -= head.length;
      } else {
        this.emit(head.subarray(0, left));
        s.queue[0] = head.subarray(left);
        left = 0;
      }
    }
    s.queuedBytes -= n;
    this.queuedData -= n;
    s.sendWindow -= n;
    this.sendWindow -= n;
  }

  private emitHeaderBlock(id: number, block: Buffer, flags: number): void {
    if (block.length <= this.peerMaxFrame) {
      this.emit(h2Frame(FrameType.HEADERS, flags | Flag.END_HEADERS, id, block));
      return;
    }
    let type: number = FrameType.HEADERS;
    for (let at = 0; at < block.length; at += this.peerMaxFrame) {
      const part = block.subarray(at, at + this.peerMaxFrame);
      const last = at + this.peerMaxFrame >= block.length;
      this.emit(h2Frame(type, (type === FrameType.HEADERS ? flags : 0) | (last ? Flag.END_HEADERS : 0), id, part));
      type = FrameType.CONTINUATION;
    }
  }

  /** Our side of `stream` is done: closed if the peer's is too, else told to stop sending (RFC 9113 8.1). */
  private localDone(stream: H2Stream): void {
    if (stream.remoteEnded) return this.close(stream);
    this.emit(rstStream(stream.id, ErrorCode.NO_ERROR));
    this.close(stream);
  }

  /** A control frame (ACK): refused, with the connection, when the peer leaves too much of our output unread. */
  private control(frame: Buffer): void {
    if (this.socket.writableLength + this.outBytes + frame.length > this.limits.maxQueuedOutputBytes) {
      throw new H2ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, 'the peer does not read what it asks for');
    }
    this.emit(frame);
  }

  private emit(bytes: Buffer): void {
    this.out.push(bytes);
    this.outBytes += bytes.length;
  }

  /** Frames written in one event-loop turn go out in one socket write. */
  private scheduleFlush(): void {
    if (this.flushQueued || this.outBytes === 0) return;
    this.flushQueued = true;
    process.nextTick(() => this.flush());
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.outBytes === 0 || this.socket.destroyed) return;
    // DATA stops at the high-water mark, so what piles up past the bound is frames a peer that does
    // not read keeps asking for (answers to calls that fail, resets, acknowledgements).
    if (!this.goingAway && this.socket.writableLength + this.outBytes > this.limits.maxQueuedOutputBytes) {
      return this.fail(new H2ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, 'the peer does not read what it asks for'));
    }
    const bytes = this.out.length === 1 ? this.out[0]! : Buffer.concat(this.out, this.outBytes);
    this.out = [];
    this.outBytes = 0;
    // Streams still holding DATA (stopped at the high-water mark) go on once this is written, whether
    // or not the socket reports 'drain'.
    this.socket.write(bytes, this.ready.size > 0 ? this.afterWrite : undefined);
  }

  private readonly afterWrite = (): void => this.pump();

  // ---- lifecycle ---------------------------------------------------------------------------

  private close(stream: H2Stream, abortCode?: number): void {
    if (stream.closed) return;
    const early = !stream.localEnded || stream.queuedBytes > 0 || !!stream.trailers || stream.endAfterData;
    stream.closed = true;
    stream.localEnded = true;
    stream.queue.length = 0;
    this.queuedData -= stream.queuedBytes;
    stream.queuedBytes = 0;
    stream.trailers = undefined;
    this.streams.delete(stream.id);
    this.ready.delete(stream);
    if (early || abortCode !== undefined) stream.onAbort?.(abortCode ?? ErrorCode.CANCEL);
    if (this.streams.size === 0) {
      if (this.endIfDone()) return;
      if (!this.idleTimer && !this.closed) {
        this.idleTimer = setTimeout(() => this.timedOut('idle'), this.limits.idleTimeoutMs);
        this.idleTimer.unref();
      }
    }
  }

  private endIfDone(): boolean {
    if ((this.goingAway || this.peerGoingAway) && this.streams.size === 0 && !this.closed) {
      this.flush();
      this.socket.end();
      // A peer that never closes its side does not keep the socket.
      setTimeout(() => this.socket.destroy(), ERROR_LINGER_MS).unref();
      return true;
    }
    return false;
  }

  /** A PING once a whole keepalive period passed without a byte from the peer (so after one to two periods of silence). */
  private keepaliveCheck(): void {
    if (this.closed) return;
    if (this.readSinceCheck) {
      this.readSinceCheck = false;
      this.keepaliveTimer?.refresh();
      return;
    }
    this.ping();
  }

  private ping(): void {
    if (this.closed) return;
    this.emit(h2Frame(FrameType.PING, 0, 0, Buffer.alloc(8)));
    this.scheduleFlush();
    this.keepaliveDeadline = setTimeout(() => this.timedOut('keepalive'), this.limits.keepaliveTimeoutMs);
    this.keepaliveDeadline.unref();
    this.keepaliveTimer?.refresh();
  }

  private timedOut(what: 'handshake' | 'idle' | 'keepalive'): void {
    if (this.closed) return;
    this.events.onTimeout?.(what);
    if (what === 'idle') {
      this.shutdown();
      return;
    }
    this.socket.destroy();
  }

  /** A connection error: GOAWAY with its code, every stream aborted, the socket closed. */
  private fail(err: H2ConnectionError): void {
    if (this.closed) return;
    this.events.onError?.(err);
    this.goingAway = true;
    this.out = [];
    this.outBytes = 0;
    if (this.settingsSeen || this.prefaceLeft === 0) this.emit(goAway(this.lastPeerStream, err.code, err.message));
    this.flush();
    this.closed = true;
    this.abortAll();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), ERROR_LINGER_MS).unref();
  }

  private resetUnknown(id: number, code: number): void {
    this.emit(rstStream(id, code));
  }

  private abortAll(): void {
    for (const s of [...this.streams.values()]) this.close(s, ErrorCode.CANCEL);
  }

  private onSocketClose(): void {
    this.closed = true;
    for (const t of [this.handshakeTimer, this.idleTimer, this.keepaliveTimer, this.keepaliveDeadline]) if (t) clearTimeout(t);
    this.abortAll();
    this.pending = undefined;
    this.out = [];
    this.outBytes = 0;
    this.events.onClose?.();
  }
}
