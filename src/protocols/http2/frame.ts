// HTTP/2 bytes written by hand (RFC 9113 section 3.4 and 4.1): the client's connection preface and
// one frame. Shared by the CLI's unary fast path, the daemon's connection refusal and the tests.

export const CLIENT_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** One frame: the 9-byte header (length, type, flags, stream ID), then its payload. */
export function h2Frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(streamId, 5);
  return Buffer.concat([h, payload]);
}
