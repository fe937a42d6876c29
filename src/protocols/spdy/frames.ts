// SPDY/3.1 frame layouts: pure encode functions and a push-style parser.
// Header blocks travel here still compressed; compression is the
// connection's job because its zlib context spans every frame.

export const SPDY_VERSION = 3;
export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;
export const FLAG_SETTINGS_CLEAR = 0x01;
export const MAX_FRAME_LENGTH = 0xffffff;
/**
 * A header block inflates to at most 1 MiB (MAX_HEADER_BLOCK_BYTES, header-compression.ts), and
 * compressed it is no larger than that plus zlib's framing: a control frame past this is refused
 * before it is buffered. (DATA frames keep the protocol's 16 MiB, spdystream's MaxDataLength.)
 */
export const MAX_CONTROL_FRAME_LENGTH = (1 << 20) + 4096;

export const ControlType = {
  SynStream: 1,
  SynReply: 2,
  RstStream: 3,
  Settings: 4,
  Ping: 6,
  GoAway: 7,
  Headers: 8,
  WindowUpdate: 9,
} as const;

/** RST_STREAM status codes. */
export const RstStatus = {
  ProtocolError: 1,
  InvalidStream: 2,
  RefusedStream: 3,
  UnsupportedVersion: 4,
  Cancel: 5,
  InternalError: 6,
  FlowControlError: 7,
  StreamInUse: 8,
  StreamAlreadyClosed: 9,
  FrameTooLarge: 11,
} as const;

/** GOAWAY status codes. */
export const GoAwayStatus = { Ok: 0, ProtocolError: 1, InternalError: 2 } as const;

/** SETTINGS ids. */
export const SettingId = {
  MaxConcurrentStreams: 4,
  InitialWindowSize: 7,
} as const;

export interface Setting {
  id: number;
  value: number;
  flags: number;
}

export type SpdyFrame =
  | { type: 'data'; streamId: number; flags: number; data: Buffer }
  | { type: 'syn_stream'; streamId: number; associatedId: number; priority: number; slot: number; flags: number; headerBlock: Buffer }
  | { type: 'syn_reply'; streamId: number; flags: number; headerBlock: Buffer }
  | { type: 'rst_stream'; streamId: number; status: number }
  | { type: 'settings'; flags: number; settings: Setting[] }
  | { type: 'ping'; id: number }
  | { type: 'goaway'; lastGoodStreamId: number; status: number }
  | { type: 'headers'; streamId: number; flags: number; headerBlock: Buffer }
  | { type: 'window_update'; streamId: number; delta: number }
  | { type: 'unknown'; controlType: number; flags: number; payload: Buffer };

export class SpdyProtocolError extends Error {
  constructor(message: string, readonly status: number = RstStatus.ProtocolError) {
    super(message);
    this.name = 'SpdyProtocolError';
  }
}

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  if (payload.length > MAX_FRAME_LENGTH) throw new SpdyProtocolError('frame too large', RstStatus.FrameTooLarge);
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(((flags & 0xff) << 24 | payload.length) >>> 0, 4);
  return Buffer.concat([head, payload]);
}

function u31(n: number): number {
  return n & 0x7fffffff;
}

/** Serializes one frame; header blocks must already be compressed. */
export function encodeFrame(frame: SpdyFrame): Buffer {
  switch (frame.type) {
    case 'data': {
      if (frame.data.length > MAX_FRAME_LENGTH) throw new SpdyProtocolError('frame too large', RstStatus.FrameTooLarge);
      const head = Buffer.alloc(8);
      head.writeUInt32BE(u31(frame.streamId), 0);
      head.writeUInt32BE(((frame.flags & 0xff) << 24 | frame.data.length) >>> 0, 4);
      return Buffer.concat([head, frame.data]);
    }
    case 'syn_stream': {
      const p = Buffer.alloc(10);
      p.writeUInt32BE(u31(frame.streamId), 0);
      p.writeUInt32BE(u31(frame.associatedId), 4);
      p.writeUInt8((frame.priority & 0x7) << 5, 8);
      p.writeUInt8(frame.slot & 0xff, 9);
      return controlFrame(ControlType.SynStream, frame.flags, Buffer.concat([p, frame.headerBlock]));
    }
    case 'syn_reply':
    case 'headers': {
      const p = Buffer.alloc(4);
      p.writeUInt32BE(u31(frame.streamId), 0);
      const type = frame.type === 'syn_reply' ? ControlType.SynReply : ControlType.Headers;
      return controlFrame(type, frame.flags, Buffer.concat([p, frame.headerBlock]));
    }
    case 'rst_stream': {
      const p = Buffer.alloc(8);
      p.writeUInt32BE(u31(frame.streamId), 0);
      p.writeUInt32BE(frame.status >>> 0, 4);
      return controlFrame(ControlType.RstStream, 0, p);
    }
    case 'settings': {
      const p = Buffer.alloc(4 + 8 * frame.settings.length);
      p.writeUInt32BE(frame.settings.length, 0);
      frame.settings.forEach((s, i) => {
        p.writeUInt32BE(((s.flags & 0xff) << 24 | (s.id & 0xffffff)) >>> 0, 4 + 8 * i);
        p.writeUInt32BE(s.value >>> 0, 8 + 8 * i);
      });
      return controlFrame(ControlType.Settings, frame.flags, p);
    }
    case 'ping': {
      const p = Buffer.alloc(4);
      p.writeUInt32BE(frame.id >>> 0, 0);
      return controlFrame(ControlType.Ping, 0, p);
    }
    case 'goaway': {
      const p = Buffer.alloc(8);
      p.writeUInt32BE(u31(frame.lastGoodStreamId), 0);
      p.writeUInt32BE(frame.status >>> 0, 4);
      return controlFrame(ControlType.GoAway, 0, p);
    }
    case 'window_update': {
      const p = Buffer.alloc(8);
      p.writeUInt32BE(u31(frame.streamId), 0);
      p.writeUInt32BE(u31(frame.delta), 4);
      return controlFrame(ControlType.WindowUpdate, 0, p);
    }
    case 'unknown':
      return controlFrame(frame.controlType, frame.flags, frame.payload);
  }
}

function need(payload: Buffer, n: number, what: string): void {
  if (payload.length < n) throw new SpdyProtocolError(`${what} frame too short (${payload.length} < ${n})`);
}

function decodeControl(type: number, flags: number, p: Buffer): SpdyFrame {
  switch (type) {
    case ControlType.SynStream:
      need(p, 10, 'SYN_STREAM');
      return {
        type: 'syn_stream',
        streamId: u31(p.readUInt32BE(0)),
        associatedId: u31(p.readUInt32BE(4)),
        priority: p.readUInt8(8) >> 5,
        slot: p.readUInt8(9),
        flags,
        headerBlock: p.subarray(10),
      };
    case ControlType.SynReply:
    case ControlType.Headers:
      need(p, 4, type === ControlType.SynReply ? 'SYN_REPLY' : 'HEADERS');
      return {
        type: type === ControlType.SynReply ? 'syn_reply' : 'headers',
        streamId: u31(p.readUInt32BE(0)),
        flags,
        headerBlock: p.subarray(4),
      };
    case ControlType.RstStream:
      need(p, 8, 'RST_STREAM');
      return { type: 'rst_stream', streamId: u31(p.readUInt32BE(0)), status: p.readUInt32BE(4) };
    case ControlType.Settings: {
      need(p, 4, 'SETTINGS');
      const count = p.readUInt32BE(0);
      need(p, 4 + 8 * count, 'SETTINGS');
      const settings: Setting[] = [];
      for (let i = 0; i < count; i++) {
        const idFlags = p.readUInt32BE(4 + 8 * i);
        settings.push({ flags: idFlags >>> 24, id: idFlags & 0xffffff, value: p.readUInt32BE(8 + 8 * i) });
      }
      return { type: 'settings', flags, settings };
    }
    case ControlType.Ping:
      need(p, 4, 'PING');
      return { type: 'ping', id: p.readUInt32BE(0) };
    case ControlType.GoAway:
      // SPDY/2 GOAWAY lacked the status; accept a short one.
      need(p, 4, 'GOAWAY');
      return { type: 'goaway', lastGoodStreamId: u31(p.readUInt32BE(0)), status: p.length >= 8 ? p.readUInt32BE(4) : 0 };
    case ControlType.WindowUpdate:
      need(p, 8, 'WINDOW_UPDATE');
      return { type: 'window_update', streamId: u31(p.readUInt32BE(0)), delta: u31(p.readUInt32BE(4)) };
    default:
      return { type: 'unknown', controlType: type, flags, payload: p };
  }
}

/**
 * Incremental frame parser: feed it bytes as they arrive, in any split, and
 * it returns each complete frame once. It keeps no connection state.
 */
export class FrameParser {
  private pending: Buffer[] = [];
  private pendingLength = 0;

  constructor(private readonly maxFrameLength = MAX_FRAME_LENGTH, private readonly maxControlLength = MAX_CONTROL_FRAME_LENGTH) {}

  push(chunk: Buffer): SpdyFrame[] {
    if (chunk.length > 0) {
      this.pending.push(chunk);
      this.pendingLength += chunk.length;
    }
    const frames: SpdyFrame[] = [];
    for (;;) {
      if (this.pendingLength < 8) break;
      if (this.pending[0]!.length < 8) this.flatten();
      const length = this.pending[0]!.readUInt32BE(4) & 0xffffff;
      if (length > this.maxFrameLength) throw new SpdyProtocolError(`frame of ${length} bytes exceeds limit`, RstStatus.FrameTooLarge);
      if (length > this.maxControlLength && this.pending[0]!.readUInt8(0) & 0x80) {
        throw new SpdyProtocolError(`control frame of ${length} bytes exceeds limit of ${this.maxControlLength}`, RstStatus.FrameTooLarge);
      }
      // Join chunks only once the whole frame is here, so a big frame arriving in pieces costs one copy.
      if (this.pendingLength < 8 + length) break;
      const buf = this.flatten();
      const flags = buf.readUInt8(4);
      // Copy the payload out so consumers may keep it after we drop the buffer.
      const payload = Buffer.from(buf.subarray(8, 8 + length));
      const word = buf.readUInt32BE(0);
      this.consume(8 + length);
      if (word & 0x80000000) {
        const version = (word >>> 16) & 0x7fff;
        if (version !== SPDY_VERSION) throw new SpdyProtocolError(`unsupported SPDY version ${version}`, RstStatus.UnsupportedVersion);
        frames.push(decodeControl(word & 0xffff, flags, payload));
      } else {
        frames.push({ type: 'data', streamId: word & 0x7fffffff, flags, data: payload });
      }
    }
    return frames;
  }

  private flatten(): Buffer {
    if (this.pending.length > 1) this.pending = [Buffer.concat(this.pending, this.pendingLength)];
    return this.pending[0]!;
  }

  private consume(n: number): void {
    const buf = this.flatten();
    const rest = buf.subarray(n);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingLength = rest.length;
  }
}
