// Why this exists: older Go gRPC clients (crictl and the CRI validation suite
// up to 1.26, kubelets before 1.26) send the unix socket path, e.g.
// "/run/isulats/isulats.sock", as the HTTP/2 `:authority`. Node's HTTP/2 server
// is nghttp2, whose HTTP messaging checks (nghttp2_http_on_header ->
// nghttp2_check_authority, server side, for `:authority` and `host`) accept
// only RFC 3986 authority characters; '/' fails, and nghttp2 resets the stream
// with RST_STREAM PROTOCOL_ERROR inside the native layer, before Node's JS (and
// so grpc-js) ever sees the request. Node 20 exposes no option to turn the
// check off (nghttp2_option_set_no_http_messaging is not among its http2
// options), and a separate proxy process would still need an HTTP/2 stack that
// accepts the header.
//
// So the daemon accepts unix connections itself and puts this Duplex between
// the socket and grpc-js (Server.createConnectionInjector): it parses the
// client->server frame stream, and in each request header block replaces an
// invalid `:authority`/`host` value by a valid one of the same length
// (AuthorityPatcher, authority-patch.ts: the block is scanned, not decoded, and
// both HPACK tables keep the same entries). Every other frame, and the whole
// server->client direction, passes through byte for byte; DATA is streamed,
// not buffered.
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { AuthorityPatcher } from './authority-patch.js';
import { CLIENT_PREFACE } from '../protocols/http2/frame.js';

const PREFACE_LENGTH = 24;
const FRAME_HEADER = 9;
const HEADERS = 0x1;
const SETTINGS = 0x4;
const CONTINUATION = 0x9;
const FLAG_ACK = 0x1;
/** An empty SETTINGS frame: a server connection preface saying "defaults". */
const EMPTY_SETTINGS = Buffer.from([0, 0, 0, SETTINGS, 0, 0, 0, 0, 0]);
const FLAG_END_STREAM = 0x1;
const FLAG_END_HEADERS = 0x4;
const FLAG_PADDED = 0x8;
const FLAG_PRIORITY = 0x20;
/** SETTINGS_MAX_FRAME_SIZE's minimum: every HTTP/2 peer accepts frames this large. */
const MAX_OUT_FRAME = 16384;
/** A header block larger than this is an attack, not a CRI request. */
const MAX_HEADER_BLOCK = 1024 * 1024;
const EMPTY = Buffer.alloc(0);

export { isValidAuthority } from './authority-patch.js';

interface PendingBlock {
  streamId: number;
  flags: number;
  priority?: Buffer;
  fragments: Buffer[];
  size: number;
}

/** The client->server byte rewriter; a pure state machine over chunks. */
export class RequestHeaderRewriter {
  private prefaceLeft = PREFACE_LENGTH;
  private header = EMPTY;
  /** Payload bytes still to pass through unchanged. */
  private passLeft = 0;
  /** Payload of a HEADERS/CONTINUATION frame being collected. */
  private collect?: { type: number; flags: number; streamId: number; need: number; parts: Buffer[]; got: number };
  private pending?: PendingBlock;
  private readonly patcher = new AuthorityPatcher();
  /** Count of header blocks whose authority was replaced (for logs and tests). */
  rewritten = 0;
  /** Count of complete request header blocks seen. */
  blocks = 0;
  /** Count of SETTINGS acknowledgements from the client. */
  settingsAcks = 0;

  /** Returns the bytes to forward for `chunk`; throws on a protocol error. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let pos = 0;
    while (pos < chunk.length) {
      if (this.prefaceLeft > 0) {
        const n = Math.min(this.prefaceLeft, chunk.length - pos);
        out.push(chunk.subarray(pos, pos + n));
        this.prefaceLeft -= n;
        pos += n;
      } else if (this.passLeft > 0) {
        const n = Math.min(this.passLeft, chunk.length - pos);
        out.push(chunk.subarray(pos, pos + n));
        this.passLeft -= n;
        pos += n;
      } else if (this.collect) {
        const c = this.collect;
        if (c.got === 0 && chunk.length - pos >= c.need) {
          // The whole payload is in this chunk (the usual case): no copy.
          this.collect = undefined;
          this.onHeaderFrame(c.type, c.flags, c.streamId, chunk.subarray(pos, pos + c.need), out);
          pos += c.need;
          continue;
        }
        const n = Math.min(c.need - c.got, chunk.length - pos);
        c.parts.push(chunk.subarray(pos, pos + n));
        c.got += n;
        pos += n;
        if (c.got === c.need) {
          this.collect = undefined;
          this.onHeaderFrame(c.type, c.flags, c.streamId, Buffer.concat(c.parts), out);
        }
      } else if (this.header.length === 0 && chunk.length - pos >= FRAME_HEADER) {
        this.onFrameHeader(chunk.subarray(pos, pos + FRAME_HEADER), out);
        pos += FRAME_HEADER;
      } else {
        const n = Math.min(FRAME_HEADER - this.header.length, chunk.length - pos);
        this.header = Buffer.concat([this.header, chunk.subarray(pos, pos + n)]);
        pos += n;
        if (this.header.length === FRAME_HEADER) {
          const h = this.header;
          this.header = EMPTY;
          this.onFrameHeader(h, out);
        }
      }
    }
    return out;
  }

  private onFrameHeader(h: Buffer, out: Buffer[]): void {
    const length = h.readUIntBE(0, 3);
    const type = h[3];
    const flags = h[4];
    const streamId = h.readUInt32BE(5) & 0x7fffffff;
    if (type === HEADERS || type === CONTINUATION) {
      if (length > MAX_HEADER_BLOCK) throw new Error(`header frame of ${length} bytes`);
      this.collect = { type, flags, streamId, need: length, parts: [], got: 0 };
      if (length === 0) {
        this.collect = undefined;
        this.onHeaderFrame(type, flags, streamId, Buffer.alloc(0), out);
      }
      return;
    }
    if (this.pending) throw new Error('frame interleaved within a header block');
    if (type === SETTINGS && flags & FLAG_ACK) this.settingsAcks++;
    out.push(h);
    this.passLeft = length;
  }

  private onHeaderFrame(type: number, flags: number, streamId: number, payload: Buffer, out: Buffer[]): void {
    if (type === HEADERS) {
      if (this.pending) throw new Error('HEADERS within a header block');
      let start = 0;
      let end = payload.length;
      if (flags & FLAG_PADDED) {
        if (payload.length < 1) throw new Error('bad padding');
        end -= payload[0];
        start = 1;
      }
      let priority: Buffer | undefined;
      if (flags & FLAG_PRIORITY) {
        priority = Buffer.from(payload.subarray(start, start + 5));
        start += 5;
      }
      if (end < start) throw new Error('bad padding');
      this.pending = { streamId, flags, priority, fragments: [payload.subarray(start, end)], size: end - start };
    } else {
      const p = this.pending;
      if (!p || p.streamId !== streamId) throw new Error('unexpected CONTINUATION');
      p.fragments.push(payload);
      p.size += payload.length;
      if (p.size > MAX_HEADER_BLOCK) throw new Error('header block too large');
    }
    if (flags & FLAG_END_HEADERS) {
      const p = this.pending!;
      this.pending = undefined;
      this.emitBlock(p, out);
    }
  }

  private emitBlock(p: PendingBlock, out: Buffer[]): void {
    const patched = this.patcher.patch(p.fragments.length === 1 ? p.fragments[0]! : Buffer.concat(p.fragments));
    this.blocks++;
    if (patched.changed) this.rewritten++;
    let block = patched.block;
    const prio = p.priority ?? Buffer.alloc(0);
    let type = HEADERS;
    let first = true;
    do {
      const room = MAX_OUT_FRAME - (first ? prio.length : 0);
      const part = block.subarray(0, room);
      block = block.subarray(part.length);
      let flags = block.length === 0 ? FLAG_END_HEADERS : 0;
      if (first) flags |= (p.flags & FLAG_END_STREAM) | (p.priority ? FLAG_PRIORITY : 0);
      const head = Buffer.alloc(FRAME_HEADER);
      const length = part.length + (first ? prio.length : 0);
      head.writeUIntBE(length, 0, 3);
      head[3] = type;
      head[4] = flags;
      head.writeUInt32BE(p.streamId, 5);
      out.push(head);
      if (first && prio.length) out.push(prio);
      out.push(part);
      first = false;
      type = CONTINUATION;
    } while (block.length > 0);
  }
}

/**
 * A Duplex over an accepted socket for Node's HTTP/2 server: reads are the
 * client's bytes after RequestHeaderRewriter, writes go to the socket as is.
 */
export class AuthorityFixStream extends Duplex {
  constructor(
    private readonly socket: Socket,
    onError?: (err: Error) => void,
    /** A rewriter that already read the start of the connection, and the bytes it gave for it. */
    readonly rewriter = new RequestHeaderRewriter(),
    rewrittenSoFar?: Buffer,
  ) {
    super({ allowHalfOpen: false });
    if (rewrittenSoFar?.length) this.push(rewrittenSoFar);
    socket.on('data', (chunk: Buffer) => {
      let parts: Buffer[];
      try {
        parts = this.rewriter.push(chunk);
      } catch (err) {
        onError?.(err as Error);
        socket.destroy();
        this.destroy();
        return;
      }
      if (parts.length > 0 && !this.push(parts.length === 1 ? parts[0] : Buffer.concat(parts))) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.destroy());
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  setTimeout(ms: number, cb?: () => void): this {
    this.socket.setTimeout(ms, cb);
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }

  override _read(): void {
    this.socket.resume();
  }

  /** The frames nghttp2 hands over at once (a response's HEADERS, DATA and trailers): one socket write. */
  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    this.forward(chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((c) => c.chunk)), cb);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.forward(chunk, cb);
  }

  private forward(chunk: Buffer, cb: (err?: Error | null) => void): void {
    if (this.socket.destroyed) return cb();
    if (this.socket.write(chunk)) return cb();
    // Backpressure: take more once the socket drained (or is gone, which destroys us too).
    const done = () => {
      this.socket.off('drain', done);
      this.socket.off('close', done);
      cb();
    };
    this.socket.on('drain', done);
    this.socket.on('close', done);
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.socket.end(() => cb());
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.socket.destroy();
    cb(err);
  }
}

/**
 * Routes an accepted unix connection by its first request header block. A client whose
 * `:authority` nghttp2 accepts (grpc-js, Go gRPC from 1.26 on, containerd's clients) gets its
 * socket handed to grpc-js as it is, with the bytes read so far put back (Node's HTTP/2 session
 * takes what is buffered on the socket): no JavaScript stream between the socket and the session,
 * which cost about 2 ms per call. Only a client sending the socket path goes through
 * AuthorityFixStream. A gRPC client keeps one authority for all streams of a connection, so its
 * first header block decides.
 *
 * Go clients send no request before the server's connection preface, so we send one ourselves
 * (an empty SETTINGS frame) before the server exists. The client's acknowledgement of it is taken
 * out of the bytes handed over; otherwise the server would read it as the acknowledgement of its
 * own SETTINGS and then fail on the real one ("unexpected ACK"). The server's own SETTINGS,
 * which follows ours, is legal at any time and acknowledged as usual.
 */
export function routeUnixConnection(
  socket: Socket,
  handlers: {
    direct(socket: Socket): void;
    rewritten(stream: AuthorityFixStream): void;
    error(err: Error): void;
    /** The client sent no request within `timeoutMs`; its socket is closed. */
    timedOut?(): void;
  },
  /** How long the client has to send its preface and first request (unbounded when absent). */
  timeoutMs?: number,
): void {
  const rewriter = new RequestHeaderRewriter();
  const raw: Buffer[] = [];
  let rawLength = 0;
  const out: Buffer[] = [];
  // A client that connects and stays silent (or stops half way) would hold its descriptor for good.
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
    stop();
    handlers.timedOut?.();
    socket.destroy();
  }, timeoutMs);
  timer?.unref();
  const stop = () => {
    clearTimeout(timer);
    socket.off('data', onData);
    socket.off('close', stop);
  };
  const fail = (err: Error) => {
    stop();
    handlers.error(err);
    socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    raw.push(chunk);
    rawLength += chunk.length;
    const seen = Buffer.concat(raw, Math.min(rawLength, CLIENT_PREFACE.length));
    if (!CLIENT_PREFACE.subarray(0, seen.length).equals(seen)) return fail(new Error('not an HTTP/2 connection preface'));
    try {
      out.push(...rewriter.push(chunk));
    } catch (err) {
      return fail(err as Error);
    }
    if (rewriter.blocks === 0 || rewriter.settingsAcks === 0) return;
    stop();
    socket.pause();
    if (rewriter.rewritten === 0) {
      socket.unshift(withoutFirstSettingsAck(Buffer.concat(raw)));
      handlers.direct(socket);
    } else {
      handlers.rewritten(new AuthorityFixStream(socket, handlers.error, rewriter, withoutFirstSettingsAck(Buffer.concat(out))));
    }
  };
  socket.on('error', () => undefined);
  socket.on('data', onData);
  socket.on('close', stop);
  socket.write(EMPTY_SETTINGS);
}

/** `bytes` (a client's connection start: preface, then frames) without its first SETTINGS ACK frame. */
export function withoutFirstSettingsAck(bytes: Buffer): Buffer {
  let pos = CLIENT_PREFACE.length;
  while (pos + FRAME_HEADER <= bytes.length) {
    const length = bytes.readUIntBE(pos, 3);
    if (bytes[pos + 3] === SETTINGS && (bytes[pos + 4]! & FLAG_ACK) !== 0) {
      return Buffer.concat([bytes.subarray(0, pos), bytes.subarray(pos + FRAME_HEADER + length)]);
    }
    pos += FRAME_HEADER + length;
  }
  return bytes;
}
