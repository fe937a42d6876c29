// HTTP/2 bytes written by hand (RFC 9113 section 3.4 and 4.1): the client's connection preface and
// one frame, with the frame types, flags and error codes by name. Shared by the CLI's unary fast
// path, the daemon's hand-framed transport (src/daemon/h2/), its connection refusal and the tests.

export const CLIENT_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
export const FRAME_HEADER_LENGTH = 9;

export const FrameType = {
  DATA: 0x0, HEADERS: 0x1, PRIORITY: 0x2, RST_STREAM: 0x3, SETTINGS: 0x4, PUSH_PROMISE: 0x5, PING: 0x6, GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8, CONTINUATION: 0x9,
} as const;

export const Flag = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;

/** RFC 9113 section 7. */
export const ErrorCode = {
  NO_ERROR: 0x0, PROTOCOL_ERROR: 0x1, INTERNAL_ERROR: 0x2, FLOW_CONTROL_ERROR: 0x3, SETTINGS_TIMEOUT: 0x4, STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6, REFUSED_STREAM: 0x7, CANCEL: 0x8, COMPRESSION_ERROR: 0x9, CONNECT_ERROR: 0xa, ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc, HTTP_1_1_REQUIRED: 0xd,
} as const;

/** RFC 9113 section 6.5.2. */
export const Setting = {
  HEADER_TABLE_SIZE: 0x1, ENABLE_PUSH: 0x2, MAX_CONCURRENT_STREAMS: 0x3, INITIAL_WINDOW_SIZE: 0x4, MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;

/** The defaults every peer starts from (RFC 9113 section 6.5.2 and 6.9.2). */
export const DEFAULT_WINDOW = 65_535;
export const DEFAULT_MAX_FRAME = 16_384;
export const MAX_WINDOW = 0x7fffffff;

/** One frame: the 9-byte header (length, type, flags, stream ID), then its payload. */
export function h2Frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const h = Buffer.allocUnsafe(FRAME_HEADER_LENGTH + payload.length);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(streamId, 5);
  payload.copy(h, FRAME_HEADER_LENGTH);
  return h;
}

/** Just the 9-byte header of a frame whose payload goes out as its own buffer (no copy of a large one). */
export function h2FrameHeader(type: number, flags: number, streamId: number, length: number): Buffer {
  const h = Buffer.allocUnsafe(FRAME_HEADER_LENGTH);
  h.writeUIntBE(length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(streamId, 5);
  return h;
}
