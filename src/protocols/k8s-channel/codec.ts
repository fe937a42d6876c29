// The Kubernetes WebSocket channel framing (wsstream): every message starts
// with its channel number. Binary protocols put it in the first byte; the
// base64 protocols send text messages whose first character is '0'+channel
// and whose rest is the base64 of the payload.

export const CHANNEL_PROTOCOL_V5 = 'v5.channel.k8s.io';
export const CHANNEL_PROTOCOL_V4 = 'v4.channel.k8s.io';
export const CHANNEL_PROTOCOL_V4_BASE64 = 'v4.base64.channel.k8s.io';
export const CHANNEL_PROTOCOL_V1 = 'channel.k8s.io';
export const CHANNEL_PROTOCOL_V1_BASE64 = 'base64.channel.k8s.io';

/** v5: a message on this channel carrying one byte asks to close that channel (half-close). */
export const CLOSE_CHANNEL = 255;

export interface ChannelProtocol {
  name: string;
  base64: boolean;
  version: 1 | 4 | 5;
  /** The error channel carries a JSON metav1.Status (v4+) or a bare message (v1). */
  statusFormat: 'json' | 'text';
  /** Whether a channel can be half-closed with the close signal. */
  supportsClose: boolean;
}

const PROTOCOLS: Record<string, ChannelProtocol> = {
  [CHANNEL_PROTOCOL_V5]: { name: CHANNEL_PROTOCOL_V5, base64: false, version: 5, statusFormat: 'json', supportsClose: true },
  [CHANNEL_PROTOCOL_V4]: { name: CHANNEL_PROTOCOL_V4, base64: false, version: 4, statusFormat: 'json', supportsClose: false },
  [CHANNEL_PROTOCOL_V4_BASE64]: { name: CHANNEL_PROTOCOL_V4_BASE64, base64: true, version: 4, statusFormat: 'json', supportsClose: false },
  [CHANNEL_PROTOCOL_V1]: { name: CHANNEL_PROTOCOL_V1, base64: false, version: 1, statusFormat: 'text', supportsClose: false },
  [CHANNEL_PROTOCOL_V1_BASE64]: { name: CHANNEL_PROTOCOL_V1_BASE64, base64: true, version: 1, statusFormat: 'text', supportsClose: false },
  // A server that negotiates no subprotocol speaks the binary v1 framing.
  '': { name: '', base64: false, version: 1, statusFormat: 'text', supportsClose: false },
};

/** The remote command subprotocols a client offers, best first. */
export const REMOTECOMMAND_WS_PROTOCOLS = [
  CHANNEL_PROTOCOL_V5, CHANNEL_PROTOCOL_V4, CHANNEL_PROTOCOL_V4_BASE64, CHANNEL_PROTOCOL_V1, CHANNEL_PROTOCOL_V1_BASE64,
];

export function channelProtocol(name: string): ChannelProtocol | undefined {
  return PROTOCOLS[name];
}

export interface ChannelMessage {
  channel: number;
  data: Buffer;
}

export class ChannelCodecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChannelCodecError';
  }
}

/** One outgoing message: a Buffer to send as binary, or a string to send as text. */
export function encodeChannelMessage(channel: number, data: Buffer, base64: boolean): Buffer | string {
  if (!Number.isInteger(channel) || channel < 0 || channel > 255) throw new ChannelCodecError(`bad channel ${channel}`);
  if (base64) return String.fromCharCode(48 + channel) + data.toString('base64');
  const out = Buffer.allocUnsafe(data.length + 1);
  out[0] = channel;
  data.copy(out, 1);
  return out;
}

/** The v5 close signal for `channel` (never base64: v5 has no base64 variant). */
export function encodeCloseSignal(channel: number): Buffer {
  return Buffer.from([CLOSE_CHANNEL, channel]);
}

/** Decodes one received message; `payload` as the ws library hands it over. */
export function decodeChannelMessage(payload: Buffer | string, base64: boolean): ChannelMessage {
  if (base64) {
    const text = typeof payload === 'string' ? payload : payload.toString('latin1');
    if (text.length === 0) throw new ChannelCodecError('empty message');
    const channel = text.charCodeAt(0) - 48;
    if (channel < 0 || channel > 255) throw new ChannelCodecError(`bad channel character ${JSON.stringify(text[0])}`);
    return { channel, data: Buffer.from(text.slice(1), 'base64') };
  }
  const buf = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  if (buf.length === 0) throw new ChannelCodecError('empty message');
  return { channel: buf[0]!, data: buf.subarray(1) };
}

/**
 * Port-forward over WebSocket: the server opens each channel with the port as
 * an unsigned 16-bit little-endian prefix. This strips it once per channel.
 */
export class PortPrefixStripper {
  private readonly seen = new Map<number, Buffer>();
  readonly ports = new Map<number, number>();

  /** Returns the payload after the prefix, or undefined while the prefix is still incomplete. */
  strip(channel: number, data: Buffer): Buffer | undefined {
    if (this.ports.has(channel)) return data;
    const got = Buffer.concat([this.seen.get(channel) ?? Buffer.alloc(0), data]);
    if (got.length < 2) {
      this.seen.set(channel, got);
      return undefined;
    }
    this.seen.delete(channel);
    this.ports.set(channel, got.readUInt16LE(0));
    return got.subarray(2);
  }
}

export function encodePortPrefix(port: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(port);
  return b;
}
