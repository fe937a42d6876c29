// exec/attach over WebSocket (kubelet's wsstream): channel 0 stdin, 1 stdout,
// 2 stderr, 3 error (the final status), 4 resize. Only v5 can half-close
// stdin (the close signal); with older protocols stdin ends when the client
// closes the connection.
import { PassThrough, Writable } from 'node:stream';
import WebSocket from 'ws';
import type { StreamIO } from '../../client/backend.js';
import {
  CLOSE_CHANNEL, encodeChannelMessage, type ChannelProtocol,
} from '../../protocols/k8s-channel/index.js';
import { ResizeDecoder, STREAM_CHANNELS, type K8sStatus } from '../../protocols/remotecommand/index.js';
import { encodeStatus } from './command-session.js';
import { SizeQueue } from './size-queue.js';
import type { StreamOptions } from './types.js';
import { readChannelFrame } from './ws-message.js';

export async function serveCommandWebSocket(
  ws: WebSocket, proto: ChannelProtocol, opts: StreamOptions, run: (io: StreamIO) => Promise<K8sStatus>,
): Promise<void> {
  const stdin = opts.stdin ? new PassThrough() : undefined;
  const sizes = opts.tty ? new SizeQueue() : undefined;
  const resizeDecoder = new ResizeDecoder();
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  const endInput = (): void => {
    if (stdin && !stdin.writableEnded) stdin.end();
    sizes?.end();
  };
  void closed.then(endInput);
  ws.on('error', () => {});

  ws.on('message', (payload: Buffer, isBinary: boolean) => {
    const msg = readChannelFrame(ws, proto, payload, isBinary);
    if (!msg) return;
    if (proto.supportsClose && msg.channel === CLOSE_CHANNEL) {
      if (msg.data[0] === STREAM_CHANNELS.stdin && stdin && !stdin.writableEnded) stdin.end();
      return;
    }
    if (msg.channel === STREAM_CHANNELS.stdin && stdin && !stdin.writableEnded) {
      if (msg.data.length > 0 && !stdin.write(msg.data)) {
        // Backpressure: stop reading the socket until the process took its input.
        ws.pause();
        stdin.once('drain', () => ws.resume());
      }
    } else if (msg.channel === STREAM_CHANNELS.resize && sizes) {
      for (const size of resizeDecoder.push(msg.data)) sizes.push(size);
    }
  });

  const send = (channel: number, data: Buffer, cb: () => void): void => {
    if (ws.readyState !== WebSocket.OPEN) {
      cb();
      return;
    }
    ws.send(encodeChannelMessage(channel, data, proto.base64), () => cb());
  };
  const output = (channel: number): Writable => new Writable({
    write(chunk: Buffer, _enc, cb) {
      send(channel, chunk, cb);
    },
  });
  const stdout = opts.stdout ? output(STREAM_CHANNELS.stdout) : undefined;
  const stderr = opts.stderr ? output(STREAM_CHANNELS.stderr) : undefined;

  // A client that went away cannot get a status: stop waiting (the runtime ends what it started: `gone`).
  const status = await Promise.race([run({ stdin, stdout, stderr, tty: opts.tty, resize: sizes, gone: closed }), closed.then(() => undefined)]);
  if (!status) {
    stdout?.destroy();
    stderr?.destroy();
    return;
  }
  // All output first, then the status, then the close: the client reads them in this order.
  await Promise.all([stdout, stderr].map((w) => (w ? endAndFlush(w) : undefined)));
  const statusBytes = encodeStatus(status, proto.statusFormat);
  if (statusBytes) await new Promise<void>((resolve) => send(STREAM_CHANNELS.error, statusBytes, resolve));
  endInput();
  // ws drops a client that does not answer the close within its closeTimeout (30 s); the output
  // queued before the close frame is still being read by a slow client meanwhile.
  if (ws.readyState === WebSocket.OPEN) ws.close(1000);
  await closed;
}

export function endAndFlush(w: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (w.writableFinished || w.destroyed) {
      resolve();
      return;
    }
    w.once('finish', () => resolve());
    w.once('close', () => resolve());
    w.end();
  });
}
