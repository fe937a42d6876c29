// HTTP/2 bytes for tests that speak the wire format by hand (RFC 9113 section 4.1).
export const CLIENT_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** One frame: 9-byte header (length, type, flags, stream ID) and its payload. */
export function h2Frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(streamId, 5);
  return Buffer.concat([h, payload]);
}
