// exec/attach over WebSocket with the channel protocols. v5 can half-close
// stdin with the close signal; older versions cannot signal stdin EOF at all.
import WebSocket from 'ws';
import {
  channelProtocol, decodeChannelMessage, encodeChannelMessage, encodeCloseSignal, REMOTECOMMAND_WS_PROTOCOLS,
} from '../../protocols/k8s-channel/index.js';
import { encodeResize, interpretErrorStream, STREAM_CHANNELS, type CommandOutcome } from '../../protocols/remotecommand/index.js';
import { StreamingError, UpgradeRefusedError } from './errors.js';
import { attachInput, forwardResizes } from './pipe-helpers.js';
import type { RemoteCommandOptions } from './types.js';

export function toWebSocketUrl(url: string): URL {
  const u = new URL(url);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new StreamingError(`unsupported streaming URL scheme ${u.protocol}`);
  return u;
}

export type MessageHandler = (payload: Buffer, isBinary: boolean, ws: WebSocket) => void;

/**
 * Opens the WebSocket, rejecting with UpgradeRefusedError when the server
 * answers without upgrading. `onMessage` is attached before the handshake
 * completes: a server may send in the same packet as its 101 response.
 */
export function openChannelWebSocket(
  url: URL, protocols: readonly string[], opts: { timeoutMs?: number; tlsInsecure?: boolean }, onMessage: MessageHandler,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [...protocols], {
      perMessageDeflate: false,
      handshakeTimeout: opts.timeoutMs ?? 30_000,
      rejectUnauthorized: !(opts.tlsInsecure ?? true),
    });
    ws.on('message', (payload: Buffer, isBinary: boolean) => onMessage(payload, isBinary, ws));
    let opened = false;
    ws.once('open', () => {
      opened = true;
      resolve(ws);
    });
    ws.once('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => { if (chunks.length < 64) chunks.push(c); });
      res.on('end', () => reject(new UpgradeRefusedError('websocket', res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', () => reject(new UpgradeRefusedError('websocket', res.statusCode ?? 0, '')));
      req.destroy();
    });
    // Stays attached for the socket's life: later errors also end in 'close', which callers watch.
    ws.on('error', (err) => {
      if (!opened) reject(new StreamingError(`WebSocket connection to ${url.host} failed: ${err.message}`, { cause: err }));
    });
  });
}

export async function runRemoteCommandWebSocket(url: string, opts: RemoteCommandOptions): Promise<CommandOutcome> {
  const errorBytes: Buffer[] = [];
  let protocolError: Error | undefined;
  // Outputs whose 'drain' we wait for: ws.pause() stops the socket, but messages already received
  // still arrive, and each must not add one more listener (one wait per output suffices).
  const waiting = new Set<NodeJS.WritableStream>();
  const writeOut = (ws: WebSocket, out: NodeJS.WritableStream | undefined, data: Buffer): void => {
    if (!out || data.length === 0) return;
    if (out.write(data) || waiting.has(out)) return;
    waiting.add(out);
    ws.pause();
    out.once('drain', () => {
      waiting.delete(out);
      if (waiting.size === 0) ws.resume();
    });
  };
  const onMessage = (payload: Buffer, isBinary: boolean, ws: WebSocket): void => {
    const proto = channelProtocol(ws.protocol);
    if (!proto) return;
    const base64 = proto.base64 && !isBinary;
    let msg;
    try {
      msg = decodeChannelMessage(base64 ? payload.toString('latin1') : payload, base64);
    } catch (err) {
      protocolError = err as Error;
      ws.close(1002);
      return;
    }
    switch (msg.channel) {
      case STREAM_CHANNELS.stdout: writeOut(ws, opts.stdout, msg.data); break;
      case STREAM_CHANNELS.stderr: writeOut(ws, opts.stderr ?? opts.stdout, msg.data); break;
      case STREAM_CHANNELS.error: errorBytes.push(msg.data); break;
      default: break; // the server's own close signals and unknown channels carry nothing for us
    }
  };
  const ws = await openChannelWebSocket(toWebSocketUrl(url), REMOTECOMMAND_WS_PROTOCOLS, opts, onMessage);
  const proto = channelProtocol(ws.protocol);
  if (!proto) {
    ws.terminate();
    throw new StreamingError(`server chose unknown WebSocket subprotocol ${JSON.stringify(ws.protocol)}`);
  }
  const send = (channel: number, data: Buffer, cb?: (err?: Error) => void): void => {
    if (ws.readyState !== WebSocket.OPEN) {
      cb?.();
      return;
    }
    ws.send(encodeChannelMessage(channel, data, proto.base64), cb);
  };
  const closed = new Promise<number>((resolve) => {
    ws.once('close', (code: number) => resolve(code));
    ws.on('error', (err) => { protocolError ??= err; });
  });

  let detachStdin = (): void => {};
  if (opts.stdin) {
    detachStdin = attachInput(opts.stdin, {
      write: (chunk, resume) => send(STREAM_CHANNELS.stdin, chunk, () => resume()),
      end: () => {
        if (proto.supportsClose && ws.readyState === WebSocket.OPEN) ws.send(encodeCloseSignal(STREAM_CHANNELS.stdin));
      },
    });
  }
  const stopResize = opts.tty ? forwardResizes(opts.resize, (size) => send(STREAM_CHANNELS.resize, encodeResize(size))) : () => {};
  let closeCode: number;
  try {
    closeCode = await closed;
  } finally {
    stopResize();
    detachStdin();
  }
  if (errorBytes.length === 0) {
    if (protocolError) throw new StreamingError(`WebSocket remote command failed: ${protocolError.message}`, { cause: protocolError });
    // 1006: the connection dropped without a close frame; from v4 on a status would have come first.
    if (closeCode === 1006 && proto.statusFormat === 'json') throw new StreamingError('lost the WebSocket connection before the command finished');
  }
  return interpretErrorStream(Buffer.concat(errorBytes), proto.statusFormat);
}
