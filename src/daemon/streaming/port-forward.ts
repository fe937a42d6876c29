// Port-forward sessions (kubelet's portforward server).
//
// SPDY (portforward.k8s.io): per forwarded connection the client opens an
// error stream and a data stream sharing `port` and `requestid` headers; we
// dial the port in the pod and copy both ways, with half-close, and report a
// failure as text on the error stream. Many connections share one session.
//
// WebSocket (v4.channel.k8s.io and v4.base64): one connection per forwarded
// port for the session's life; port i uses channel 2i (data) and 2i+1
// (error), and the server opens each channel with the port as a little-endian
// uint16. The ports are the request's, or the URL's `port` query values.
import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import {
  encodeChannelMessage, encodePortPrefix, type ChannelProtocol,
} from '../../protocols/k8s-channel/index.js';
import { HEADER_PORT, HEADER_REQUEST_ID, HEADER_STREAM_TYPE, STREAM_TYPE } from '../../protocols/remotecommand/index.js';
import type { SpdyConnection, SpdyStream } from '../../protocols/spdy/index.js';
import { STREAM_CREATION_TIMEOUT_MS } from './spdy-command.js';
import { readChannelFrame } from './ws-message.js';

export type Dial = (port: number) => Promise<Duplex>;

const describe = (port: number, podSandboxId: string, err: unknown): string =>
  `error forwarding port ${port} to pod ${podSandboxId}: ${err instanceof Error ? err.message : String(err)}`;

interface StreamPair { error?: SpdyStream; data?: SpdyStream; timer?: NodeJS.Timeout }

/**
 * A forwarded connection's two streams must both open within `creationTimeoutMs` (kubelet's
 * stream creation timeout): a half-open pair is dropped with a message on its error stream, so a
 * client cannot make the session hold streams that never carry anything.
 */
export function servePortForwardSpdy(connection: SpdyConnection, podSandboxId: string, dial: Dial, creationTimeoutMs = STREAM_CREATION_TIMEOUT_MS): Promise<void> {
  const pairs = new Map<string, StreamPair>();
  connection.once('close', () => {
    for (const pair of pairs.values()) clearTimeout(pair.timer);
    pairs.clear();
  });
  connection.on('stream', (stream) => {
    stream.on('error', () => {});
    const type = stream.headers[HEADER_STREAM_TYPE];
    const requestId = stream.headers[HEADER_REQUEST_ID] ?? '';
    const port = Number(stream.headers[HEADER_PORT]);
    if ((type !== STREAM_TYPE.error && type !== STREAM_TYPE.data) || !Number.isInteger(port) || port < 1 || port > 65535) {
      stream.reset();
      return;
    }
    stream.respond();
    let pair = pairs.get(requestId);
    if (!pair) {
      const created: StreamPair = {};
      created.timer = setTimeout(() => {
        if (pairs.get(requestId) !== created) return;
        pairs.delete(requestId);
        const missing = created.error ? 'data' : 'error';
        if (created.error) created.error.end(`timed out waiting for the ${missing} stream of request ${requestId}`);
        created.data?.reset();
      }, creationTimeoutMs);
      created.timer.unref();
      pair = created;
    }
    if (pair[type]) {
      stream.reset();
      return;
    }
    pair[type] = stream;
    pairs.set(requestId, pair);
    if (pair.error && pair.data) {
      clearTimeout(pair.timer);
      pairs.delete(requestId);
      void forwardPair(port, pair.error, pair.data, podSandboxId, dial);
    }
  });
  return new Promise((resolve) => connection.once('close', () => resolve()));
}

async function forwardPair(port: number, error: SpdyStream, data: SpdyStream, podSandboxId: string, dial: Dial): Promise<void> {
  let target: Duplex;
  try {
    target = await dial(port);
  } catch (err) {
    error.end(describe(port, podSandboxId, err));
    data.end();
    return;
  }
  target.on('error', (err) => {
    if (!error.writableEnded) error.end(describe(port, podSandboxId, err));
    data.destroy();
  });
  data.once('close', () => target.destroy());
  // Half-close both ways: the client's FIN ends our write side to the pod and the pod's EOF ends the data stream.
  data.pipe(target);
  target.pipe(data);
  target.once('end', () => { if (!error.writableEnded) error.end(); });
}

export async function servePortForwardWebSocket(
  ws: WebSocket, proto: ChannelProtocol, ports: number[], podSandboxId: string, dial: Dial,
): Promise<void> {
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  ws.on('error', () => {});
  const send = (channel: number, data: Buffer, cb?: () => void): void => {
    if (ws.readyState !== WebSocket.OPEN) {
      cb?.();
      return;
    }
    ws.send(encodeChannelMessage(channel, data, proto.base64), () => cb?.());
  };
  const targets = new Map<number, Duplex>();
  const pending = new Map<number, Buffer[]>();
  ws.on('message', (payload: Buffer, isBinary: boolean) => {
    const msg = readChannelFrame(ws, proto, payload, isBinary);
    if (!msg) return;
    // Only even (data) channels carry bytes for the pod.
    if (msg.channel % 2 !== 0 || msg.channel / 2 >= ports.length || msg.data.length === 0) return;
    const target = targets.get(msg.channel);
    if (target) {
      if (!target.write(msg.data)) {
        ws.pause();
        target.once('drain', () => ws.resume());
      }
    } else {
      pending.get(msg.channel)?.push(msg.data) ?? pending.set(msg.channel, [msg.data]);
    }
  });

  const sessions = ports.map(async (port, i) => {
    const dataChannel = 2 * i;
    const errorChannel = 2 * i + 1;
    send(dataChannel, encodePortPrefix(port));
    send(errorChannel, encodePortPrefix(port));
    let target: Duplex;
    try {
      target = await dial(port);
    } catch (err) {
      send(errorChannel, Buffer.from(describe(port, podSandboxId, err)));
      return;
    }
    target.on('error', (err) => send(errorChannel, Buffer.from(describe(port, podSandboxId, err))));
    for (const chunk of pending.get(dataChannel) ?? []) target.write(chunk);
    pending.delete(dataChannel);
    targets.set(dataChannel, target);
    void closed.then(() => target.destroy());
    target.on('data', (chunk: Buffer) => {
      target.pause();
      send(dataChannel, chunk, () => target.resume());
    });
    await new Promise<void>((resolve) => {
      target.once('end', () => resolve());
      target.once('close', () => resolve());
    });
  });
  await Promise.all(sessions);
  // Every port's connection ended: nothing more can be carried.
  if (ws.readyState === WebSocket.OPEN) ws.close(1000);
  await closed;
}
