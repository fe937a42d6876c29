// The frames the hand-framed connection builds and the checks it makes on what it reads, apart
// from its state: control frames, a frame header written in place, padding, a request's fields.
import { FRAME_HEADER_LENGTH, FrameType, h2Frame, ErrorCode } from '../../protocols/http2/frame.js';

/** A connection error (RFC 9113 5.4.1): GOAWAY with `code`, then the connection closes. */
export class H2ConnectionError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** A request as RFC 9113 8.3.1 wants it: :method, :scheme and :path, pseudo-headers before the rest, no connection-specific fields. */
export function validRequest(fields: Array<[string, string]>): boolean {
  let method = false, scheme = false, path = false, regular = false;
  for (const [k, v] of fields) {
    if (k.charCodeAt(0) === 58 /* : */) {
      if (regular) return false;
      if (k === ':method') method = true;
      else if (k === ':scheme') scheme = true;
      else if (k === ':path') path = v.length > 0;
      else if (k !== ':authority') return false;
    } else {
      regular = true;
      if (k === 'connection' || (k === 'te' && v !== 'trailers')) return false;
    }
  }
  return method && scheme && path;
}

/** Writes a frame header into `buf` at `at`; returns where its payload starts. */
export function writeFrameHeader(buf: Buffer, at: number, length: number, type: number, flags: number, id: number): number {
  buf.writeUIntBE(length, at, 3);
  buf[at + 3] = type;
  buf[at + 4] = flags;
  buf.writeUInt32BE(id, at + 5);
  return at + FRAME_HEADER_LENGTH;
}

export function unpad(payload: Buffer): Buffer {
  if (payload.length < 1 || payload[0]! >= payload.length) throw new H2ConnectionError(ErrorCode.PROTOCOL_ERROR, 'bad padding');
  return payload.subarray(1, payload.length - payload[0]!);
}

export function windowUpdate(id: number, increment: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(increment, 0);
  return h2Frame(FrameType.WINDOW_UPDATE, 0, id, b);
}

export function rstStream(id: number, code: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(code, 0);
  return h2Frame(FrameType.RST_STREAM, 0, id, b);
}

export function goAway(lastStream: number, code: number, debug = ''): Buffer {
  const d = Buffer.from(debug, 'utf8');
  const b = Buffer.allocUnsafe(8 + d.length);
  b.writeUInt32BE(lastStream, 0);
  b.writeUInt32BE(code, 4);
  d.copy(b, 8);
  return h2Frame(FrameType.GOAWAY, 0, 0, b);
}
