// NRI's connection multiplexer (containerd/nri pkg/net/multiplex): several
// logical connections over one socket. Each frame is an 8-byte header
// (4-byte big-endian connection ID, 4-byte big-endian payload length) and the
// payload. Opening a connection sends nothing: both ends simply agree on IDs.
// Frames for a connection that is not open are dropped, as upstream does,
// unless the mux was created with `acceptUnknown`, which opens it and emits
// 'connection'.
import { EventEmitter } from 'node:events';
import { Duplex } from 'node:stream';
import { HEADER_LENGTH as TTRPC_HEADER_LENGTH, MESSAGE_LENGTH_MAX as TTRPC_MESSAGE_LENGTH_MAX } from '../ttrpc/constants.js';

/** The plugin's ttrpc service (Plugin): the runtime is its client. */
export const PLUGIN_SERVICE_CONN = 1;
/** The runtime's ttrpc service (Runtime): the plugin is its client. */
export const RUNTIME_SERVICE_CONN = 2;

export const MUX_HEADER_LENGTH = 8;
/** Largest payload a single frame may carry: one whole ttrpc message. */
export const MAX_FRAME_PAYLOAD = TTRPC_HEADER_LENGTH + TTRPC_MESSAGE_LENGTH_MAX;
/**
 * How we frame a write: as Go's 4 KiB bufio.Writer under upstream's ttrpc
 * does (containerd sends exactly this): the first 4096 bytes in one frame, the
 * rest in a second. The Go reader needs both: its bufio.Reader reads a frame
 * into a 4 KiB buffer (ENOMEM on a larger one) unless the read is for 4 KiB or
 * more, when it reads straight into the message; and its mux queues at most
 * 256 frames per connection, closing the whole mux when a burst overflows
 * that, so a message cut into 4 KiB frames lost plugins above ~1 MiB.
 */
export const FIRST_FRAME_MAX = 4096;

function frameHeader(id: number, length: number): Buffer {
  const hdr = Buffer.allocUnsafe(MUX_HEADER_LENGTH);
  hdr.writeUInt32BE(id, 0);
  hdr.writeUInt32BE(length, 4);
  return hdr;
}

export interface MuxOptions {
  acceptUnknown?: boolean;
}

export class MuxConn extends Duplex {
  constructor(
    readonly id: number,
    private readonly mux: Mux,
  ) {
    super({ allowHalfOpen: false });
  }

  override _read(): void {
    // Data is pushed as frames arrive; the trunk has its own flow control.
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.mux.writeFrames(this.id, chunk, cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.mux.forget(this);
    cb(err);
  }

  /** Delivered by the mux. */
  deliver(payload: Buffer): void {
    if (!this.destroyed) this.push(payload);
  }
}

export class Mux extends EventEmitter {
  private readonly conns = new Map<number, MuxConn>();
  private header = Buffer.alloc(MUX_HEADER_LENGTH);
  private headerFill = 0;
  private payload: Buffer | undefined;
  private payloadFill = 0;
  private connId = 0;
  private closed = false;

  constructor(
    readonly trunk: Duplex,
    private readonly opts: MuxOptions = {},
  ) {
    super();
    trunk.on('data', (chunk: Buffer) => this.onData(chunk));
    trunk.on('end', () => this.close());
    trunk.on('close', () => this.close());
    trunk.on('error', (err) => this.close(err));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  open(id: number): MuxConn {
    if (id === 0) throw new Error('mux: connection ID 0 is reserved');
    if (this.closed) throw new Error('mux: closed');
    let conn = this.conns.get(id);
    if (!conn) {
      conn = new MuxConn(id, this);
      this.conns.set(id, conn);
    }
    return conn;
  }

  /** Closes the trunk and every logical connection. */
  close(err?: Error): void {
    if (this.closed) return;
    this.closed = true;
    for (const conn of [...this.conns.values()]) {
      conn.push(null);
      conn.destroy();
    }
    this.conns.clear();
    this.trunk.destroy();
    this.emit('close', err);
  }

  forget(conn: MuxConn): void {
    if (this.conns.get(conn.id) === conn) this.conns.delete(conn.id);
  }

  writeFrames(id: number, data: Buffer, cb: (err?: Error | null) => void): void {
    if (this.closed || this.trunk.destroyed) {
      cb(new Error('mux: closed'));
      return;
    }
    if (data.length > MAX_FRAME_PAYLOAD) {
      cb(new Error(`mux: oversized message (${data.length} > ${MAX_FRAME_PAYLOAD})`));
      return;
    }
    // An empty frame would read as a zero-byte read on the Go side: send none.
    if (data.length === 0) {
      cb();
      return;
    }
    const first = Math.min(data.length, FIRST_FRAME_MAX);
    const parts = [frameHeader(id, first), data.subarray(0, first)];
    if (data.length > first) parts.push(frameHeader(id, data.length - first), data.subarray(first));
    // One write per logical write keeps frames of different connections from interleaving mid-frame.
    this.trunk.write(Buffer.concat(parts), (err) => cb(err ?? null));
  }

  private onData(chunk: Buffer): void {
    let off = 0;
    while (off < chunk.length && !this.closed) {
      if (!this.payload) {
        const n = Math.min(MUX_HEADER_LENGTH - this.headerFill, chunk.length - off);
        chunk.copy(this.header, this.headerFill, off, off + n);
        this.headerFill += n;
        off += n;
        if (this.headerFill < MUX_HEADER_LENGTH) break;
        this.headerFill = 0;
        this.connId = this.header.readUInt32BE(0);
        const length = this.header.readUInt32BE(4);
        if (length > MAX_FRAME_PAYLOAD) {
          this.close(new Error(`mux: oversized frame (${length} > ${MAX_FRAME_PAYLOAD})`));
          return;
        }
        this.payload = Buffer.allocUnsafe(length);
        this.payloadFill = 0;
      }
      const n = Math.min(this.payload.length - this.payloadFill, chunk.length - off);
      chunk.copy(this.payload, this.payloadFill, off, off + n);
      this.payloadFill += n;
      off += n;
      if (this.payloadFill === this.payload.length) {
        const payload = this.payload;
        this.payload = undefined;
        this.route(this.connId, payload);
      }
    }
  }

  private route(id: number, payload: Buffer): void {
    let conn = this.conns.get(id);
    if (!conn && this.opts.acceptUnknown && id !== 0) {
      conn = this.open(id);
      this.emit('connection', conn);
    }
    if (conn && payload.length > 0) conn.deliver(payload);
  }
}
