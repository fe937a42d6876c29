// ttrpc wire constants (containerd/ttrpc): every message is a 10-byte header
// (4-byte big-endian payload length, 4-byte stream ID, 1-byte type, 1-byte
// flags) followed by the payload. Client-initiated streams use odd IDs.

export const HEADER_LENGTH = 10;
/** Largest payload either side accepts: 4 MiB. */
export const MESSAGE_LENGTH_MAX = 4 << 20;

export const MessageType = {
  request: 1,
  response: 2,
  data: 3,
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

export const Flags = {
  remoteClosed: 0x1,
  remoteOpen: 0x2,
  noData: 0x4,
} as const;

/** gRPC status codes, as ttrpc carries them in google.rpc.Status. */
export const Code = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;
