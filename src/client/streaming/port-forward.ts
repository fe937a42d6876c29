// Local port forwarding to a pod through the streaming URL the CRI returned
// (PortForwardResponse.url), as `kubectl port-forward` / `crictl
// port-forward` do: listen locally and carry each accepted connection over a
// new pair of streams.
//
// SPDY (portforward.k8s.io) multiplexes every connection over one session:
// per connection an error stream and a data stream sharing `port` and
// `requestid` headers. WebSocket carries one connection per session (`?port=`,
// channels 0 data / 1 error, each opened by the server with a little-endian
// port prefix); since kubelet-style servers accept a streaming URL only once,
// it suits servers whose URLs can be reused, and is the fallback when the
// server refuses SPDY.
import net from 'node:net';
import { once } from 'node:events';
import type { SpdyConnection, SpdyStream } from '../../protocols/spdy/index.js';
import { decodeChannelMessage, encodeChannelMessage, channelProtocol, PortPrefixStripper } from '../../protocols/k8s-channel/index.js';
import {
  HEADER_PORT, HEADER_REQUEST_ID, HEADER_STREAM_TYPE, PORTFORWARD_PROTOCOL, PORTFORWARD_WS_PROTOCOLS, STREAM_TYPE,
} from '../../protocols/remotecommand/index.js';
import { StreamingError, UpgradeRefusedError } from './errors.js';
import { upgradeToSpdy } from './spdy-upgrade.js';
import { openChannelWebSocket, toWebSocketUrl } from './remote-command-ws.js';
import type { StreamingTransport } from './types.js';

export interface PortMapping {
  /** 0 picks a free port; the chosen one is reported in `ports`. */
  localPort: number;
  remotePort: number;
  /** Local address to listen on; by default 127.0.0.1 and, where the host has it, ::1. */
  address?: string;
}

export interface PortForwardOptions {
  /** 'auto' (default) uses SPDY and falls back to WebSocket when the server refuses SPDY. */
  transport?: StreamingTransport;
  /** Per-connection failures (the session goes on); default prints nothing. */
  onError?: (err: Error) => void;
  /** Each accepted connection, for logging ("Handling connection for 8080"). */
  onConnection?: (mapping: ForwardedPort) => void;
  tlsInsecure?: boolean;
  timeoutMs?: number;
  /** SPDY keepalive ping interval (ms); 0 disables. */
  pingIntervalMs?: number;
}

export interface ForwardedPort {
  address: string;
  localPort: number;
  remotePort: number;
}

export interface PortForwardSession {
  ports: ForwardedPort[];
  transport: 'spdy' | 'websocket';
  /** Resolves when the session ends: close() was called or the server went away. */
  done: Promise<void>;
  close(): Promise<void>;
}

interface Forwarder {
  handle(socket: net.Socket, mapping: ForwardedPort): void;
  close(): Promise<void>;
  onGone(cb: () => void): void;
}

export async function startPortForward(url: string, mappings: PortMapping[], opts: PortForwardOptions = {}): Promise<PortForwardSession> {
  if (mappings.length === 0) throw new StreamingError('no ports to forward');
  for (const m of mappings) {
    if (!Number.isInteger(m.remotePort) || m.remotePort < 1 || m.remotePort > 65535) throw new StreamingError(`invalid remote port ${m.remotePort}`);
    if (!Number.isInteger(m.localPort) || m.localPort < 0 || m.localPort > 65535) throw new StreamingError(`invalid local port ${m.localPort}`);
  }
  const transport = opts.transport ?? 'auto';
  let forwarder: Forwarder;
  let used: 'spdy' | 'websocket';
  if (transport === 'websocket') {
    forwarder = webSocketForwarder(url, opts);
    used = 'websocket';
  } else {
    try {
      forwarder = await spdyForwarder(url, opts);
      used = 'spdy';
    } catch (err) {
      if (transport === 'spdy' || !(err instanceof UpgradeRefusedError)) throw err;
      forwarder = webSocketForwarder(url, opts);
      used = 'websocket';
    }
  }

  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  const ports: ForwardedPort[] = [];
  try {
    for (const m of mappings) {
      // As kubectl and crictl ("localhost"): 127.0.0.1, then [::1] on the same port where the host has it.
      const addresses = m.address ? [m.address] : ['127.0.0.1', '::1'];
      let localPort = m.localPort;
      for (const [i, address] of addresses.entries()) {
        let server: net.Server;
        try {
          server = await listen(localPort, address);
        } catch (err) {
          if (i === 0) throw err;
          continue; // no IPv6 loopback here (or its port taken): the IPv4 listener serves
        }
        localPort = (server.address() as net.AddressInfo).port;
        const fp: ForwardedPort = { address, localPort, remotePort: m.remotePort };
        server.on('connection', (socket) => {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          socket.on('error', () => {});
          opts.onConnection?.(fp);
          forwarder.handle(socket, fp);
        });
        servers.push(server);
        ports.push(fp);
      }
    }
  } catch (err) {
    for (const s of servers) s.close();
    await forwarder.close();
    throw new StreamingError(`unable to listen for port forwarding: ${(err as Error).message}`, { cause: err });
  }

  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => { resolveDone = resolve; });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
      for (const s of sockets) s.destroy();
      await forwarder.close();
      resolveDone();
    })();
    return closing;
  };
  // When the server ends the session, stop listening too: new connections could not be carried.
  forwarder.onGone(() => { void close(); });
  return { ports, transport: used, done, close };
}

function listen(port: number, address: string): Promise<net.Server> {
  // Half-open: a client may end its side after its request and still read the answer.
  const server = net.createServer({ allowHalfOpen: true });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => { server.off('error', reject); resolve(server); });
  });
}

async function spdyForwarder(url: string, opts: PortForwardOptions): Promise<Forwarder> {
  const { connection } = await upgradeToSpdy(url, [PORTFORWARD_PROTOCOL], {
    method: 'POST', timeoutMs: opts.timeoutMs, tlsInsecure: opts.tlsInsecure, pingIntervalMs: opts.pingIntervalMs,
  });
  connection.on('error', () => {});
  let requestId = 0;
  return {
    handle: (socket, fp) => forwardOverSpdy(connection, socket, fp, String(requestId++), opts),
    close: () => closeSpdy(connection),
    onGone: (cb) => { if (connection.isClosed) cb(); else connection.once('close', cb); },
  };
}

/** GOAWAY and end; waits (a bounded time) for the server to close its side too. */
async function closeSpdy(connection: SpdyConnection): Promise<void> {
  const sock = connection.socket;
  if (sock.destroyed) return;
  const gone = once(sock, 'close').then(() => undefined, () => undefined);
  await connection.close();
  const timer = setTimeout(() => sock.destroy(), 2000);
  await gone;
  clearTimeout(timer);
}

function forwardOverSpdy(connection: SpdyConnection, socket: net.Socket, fp: ForwardedPort, requestId: string, opts: PortForwardOptions): void {
  if (connection.isClosed) {
    socket.destroy();
    return;
  }
  const headers = { [HEADER_PORT]: String(fp.remotePort), [HEADER_REQUEST_ID]: requestId };
  let errorStream: SpdyStream;
  let dataStream: SpdyStream;
  try {
    errorStream = connection.createStream({ [HEADER_STREAM_TYPE]: STREAM_TYPE.error, ...headers });
    dataStream = connection.createStream({ [HEADER_STREAM_TYPE]: STREAM_TYPE.data, ...headers });
  } catch (err) {
    // The session is going away: this connection cannot be carried.
    opts.onError?.(new StreamingError(`an error occurred forwarding ${fp.localPort} -> ${fp.remotePort}: ${(err as Error).message}`));
    socket.destroy();
    return;
  }
  // We never write on the error stream.
  errorStream.end();
  const fail = (msg: string): void => {
    opts.onError?.(new StreamingError(`an error occurred forwarding ${fp.localPort} -> ${fp.remotePort}: ${msg}`));
  };
  const errorText: Buffer[] = [];
  errorStream.on('data', (c: Buffer) => errorText.push(c));
  errorStream.on('end', () => {
    const text = Buffer.concat(errorText).toString('utf8').trim();
    if (text) {
      fail(text);
      socket.destroy();
    }
  });
  errorStream.on('error', () => {});
  dataStream.on('error', (err) => {
    fail(err.message);
    socket.destroy();
  });
  socket.pipe(dataStream);
  dataStream.pipe(socket);
  socket.once('close', () => {
    // Done both ways or the local side went away: release both streams.
    setTimeout(() => {
      if (dataStream.isOpen) dataStream.reset();
      if (errorStream.isOpen) errorStream.reset();
    }, 1000).unref();
  });
}

function webSocketForwarder(url: string, opts: PortForwardOptions): Forwarder {
  const live = new Set<() => void>();
  return {
    handle: (socket, fp) => {
      const stop = forwardOverWebSocket(url, socket, fp, opts);
      live.add(stop);
      socket.once('close', () => live.delete(stop));
    },
    close: async () => { for (const stop of live) stop(); },
    onGone: () => {},
  };
}

function forwardOverWebSocket(url: string, socket: net.Socket, fp: ForwardedPort, opts: PortForwardOptions): () => void {
  const target = toWebSocketUrl(url);
  target.searchParams.set('port', String(fp.remotePort));
  let stopped = false;
  let ws: import('ws').WebSocket | undefined;
  socket.pause();
  const stripper = new PortPrefixStripper();
  const errorText: Buffer[] = [];
  const onMessage = (payload: Buffer, isBinary: boolean, sock: import('ws').WebSocket): void => {
    const proto = channelProtocol(sock.protocol) ?? channelProtocol('')!;
    const base64 = proto.base64 && !isBinary;
    let msg;
    try {
      msg = decodeChannelMessage(base64 ? payload.toString('latin1') : payload, base64);
    } catch {
      sock.close(1002);
      return;
    }
    const data = stripper.strip(msg.channel, msg.data);
    if (!data || data.length === 0) return;
    if (msg.channel === 0) {
      if (!socket.write(data)) {
        sock.pause();
        socket.once('drain', () => sock.resume());
      }
    } else if (msg.channel === 1) {
      errorText.push(data);
    }
  };
  openChannelWebSocket(target, PORTFORWARD_WS_PROTOCOLS, opts, onMessage).then((sock) => {
    ws = sock;
    if (stopped) {
      sock.close();
      return;
    }
    const proto = channelProtocol(sock.protocol) ?? channelProtocol('')!;
    sock.on('close', () => {
      const text = Buffer.concat(errorText).toString('utf8').trim();
      if (text) opts.onError?.(new StreamingError(`an error occurred forwarding ${fp.localPort} -> ${fp.remotePort}: ${text}`));
      socket.end();
    });
    sock.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      socket.pause();
      sock.send(encodeChannelMessage(0, chunk, proto.base64), () => socket.resume());
    });
    // The channel protocols cannot half-close, so local EOF ends the session:
    // waiting instead would hang with every client that ends once it has read all.
    socket.on('end', () => sock.close(1000));
    socket.on('close', () => sock.close(1000));
    socket.resume();
  }, (err: Error) => {
    opts.onError?.(err);
    socket.destroy();
  });
  return () => {
    stopped = true;
    ws?.close(1000);
    socket.destroy();
  };
}
