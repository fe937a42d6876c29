// One incoming WebSocket frame of a channel.k8s.io session, decoded; a frame
// that does not decode ends the session with 1002 (protocol error).
import type WebSocket from 'ws';
import { decodeChannelMessage, type ChannelMessage, type ChannelProtocol } from '../../protocols/k8s-channel/index.js';

export function readChannelFrame(ws: WebSocket, proto: ChannelProtocol, payload: Buffer, isBinary: boolean): ChannelMessage | undefined {
  try {
    // base64 sessions send text frames; a binary frame is taken as raw bytes.
    const base64 = proto.base64 && !isBinary;
    return decodeChannelMessage(base64 ? payload.toString('latin1') : payload, base64);
  } catch {
    ws.close(1002);
    return undefined;
  }
}
