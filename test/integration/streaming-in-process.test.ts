// runRemoteCommand and startPortForward against an in-process streaming
// server that speaks both SPDY (our own SpdyConnection in the server role)
// and WebSocket (ws), the way kubelet's streaming server does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { once } from 'node:events';
import { PassThrough, Readable, Writable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SpdyConnection, SpdyStream } from '../../src/protocols/spdy/index.js';
import {
  CLOSE_CHANNEL, channelProtocol, decodeChannelMessage, encodeChannelMessage, encodePortPrefix,
} from '../../src/protocols/k8s-channel/index.js';
import {
  acceptSpdyUpgrade, exitCodeStatus, failureStatus, PORTFORWARD_PROTOCOL, ResizeDecoder, SPDY_REMOTECOMMAND_PROTOCOLS,
  successStatus, type K8sStatus, type TerminalSize,
} from '../../src/protocols/remotecommand/index.js';
import { RemoteCommandError, runRemoteCommand, startPortForward, UpgradeRefusedError } from '../../src/client/streaming/index.js';

// ---- the fake container process ----

interface Side {
  onStdin(cb: (data: Buffer | null) => void): void;
  onResize(cb: (size: TerminalSize) => void): void;
  stdout(data: string | Buffer): void;
  stderr(data: string | Buffer): void;
  finish(status: K8sStatus): void;
  /** Drops the connection without a status, as a crashing server would. */
  abort(): void;
}

interface Route {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
  run(side: Side): void;
}

const routes: Record<string, Route> = {
  // Echoes stdin, says something on stderr, exits 3 at stdin EOF.
  '/exec/echo': {
    stdin: true, stdout: true, stderr: true, tty: false,
    run: (side) => {
      side.stderr('to stderr\n');
      side.onStdin((d) => (d ? side.stdout(d) : side.finish(exitCodeStatus(3))));
    },
  },
  // No stdin: prints and exits 3 at once.
  '/exec/print': {
    stdin: false, stdout: true, stderr: true, tty: false,
    run: (side) => {
      side.stdout('out\n');
      side.stderr('err\n');
      side.finish(exitCodeStatus(3));
    },
  },
  // A terminal: echoes stdin, reports resizes, exits 0 once stdin ended and two sizes came.
  '/exec/tty': {
    stdin: true, stdout: true, stderr: false, tty: true,
    run: (side) => {
      let eof = false;
      let sizes = 0;
      const maybeDone = (): void => { if (eof && sizes >= 2) side.finish(successStatus()); };
      side.onStdin((d) => {
        if (d) side.stdout(d);
        else { eof = true; maybeDone(); }
      });
      side.onResize((s) => { side.stdout(`[${s.width}x${s.height}]`); sizes++; maybeDone(); });
    },
  },
  '/exec/die': {
    stdin: false, stdout: true, stderr: true, tty: false,
    run: (side) => {
      side.stdout('partial');
      setTimeout(() => side.abort(), 20);
    },
  },
  '/exec/fail': {
    stdin: false, stdout: true, stderr: true, tty: false,
    run: (side) => side.finish(failureStatus('container "c1" is not running')),
  },
};

// ---- the server ----

interface ServerConfig {
  websocket: boolean;
  spdy: boolean;
  wsProtocols: string[];
}

const config: ServerConfig = { websocket: true, spdy: true, wsProtocols: [] };
const ALL_WS = ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'v4.base64.channel.k8s.io', 'channel.k8s.io', 'base64.channel.k8s.io'];
const seenStreamTypes: string[][] = [];

function serveSpdy(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path !== '/portforward' && !routes[path]) {
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  const accepted = acceptSpdyUpgrade(req, socket, head, path === '/portforward' ? [PORTFORWARD_PROTOCOL] : SPDY_REMOTECOMMAND_PROTOCOLS);
  if (!accepted) return;
  const conn = accepted.connection;
  conn.on('error', () => {});
  if (path === '/portforward') {
    servePortForwardSpdy(conn);
    return;
  }
  const route = routes[path]!;
  const expected = 1 + Number(route.stdin) + Number(route.stdout) + Number(route.stderr && !route.tty) + Number(route.tty);
  const streams: Record<string, SpdyStream> = {};
  conn.on('stream', (s) => {
    s.respond();
    s.on('error', () => {});
    streams[s.headers.streamtype!] = s;
    if (Object.keys(streams).length < expected) return;
    seenStreamTypes.push(Object.keys(streams).sort());
    const resizes = new ResizeDecoder();
    route.run({
      onStdin: (cb) => {
        streams.stdin?.on('data', (d: Buffer) => cb(d));
        streams.stdin?.on('end', () => cb(null));
      },
      onResize: (cb) => streams.resize?.on('data', (d: Buffer) => resizes.push(d).forEach(cb)),
      stdout: (d) => streams.stdout?.write(d),
      stderr: (d) => streams.stderr?.write(d),
      finish: (status) => {
        streams.error!.write(JSON.stringify(status));
        // As kubelet: reset every stream, then GOAWAY and close.
        for (const st of Object.values(streams)) st.reset();
        void conn.close();
      },
      abort: () => socket.destroy(),
    });
  });
}

function servePortForwardSpdy(conn: SpdyConnection): void {
  const pairs = new Map<string, { error?: SpdyStream; data?: SpdyStream }>();
  conn.on('stream', (s) => {
    s.respond();
    s.on('error', () => {});
    const id = s.headers.requestid!;
    const pair = pairs.get(id) ?? {};
    pairs.set(id, pair);
    if (s.headers.streamtype === 'error') pair.error = s;
    else pair.data = s;
    if (!pair.error || !pair.data) return;
    const { error, data } = pair;
    const port = Number(s.headers.port);
    const upstream = net.connect(port, '127.0.0.1');
    upstream.once('connect', () => {
      upstream.pipe(data);
      data.pipe(upstream);
    });
    upstream.once('error', (err) => {
      error.end(`failed to connect to localhost:${port}: ${err.message}`);
      data.end();
    });
  });
}

const wss = new WebSocketServer({
  noServer: true,
  handleProtocols: (protocols) => [...protocols].find((p) => config.wsProtocols.includes(p)) ?? false,
});

function serveWebSocket(ws: WebSocket, req: http.IncomingMessage): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const proto = channelProtocol(ws.protocol)!;
  const send = (ch: number, d: Buffer | string): void => ws.send(encodeChannelMessage(ch, Buffer.from(d), proto.base64));
  if (url.pathname === '/portforward') {
    const port = Number(url.searchParams.get('port'));
    const upstream = net.connect(port, '127.0.0.1');
    send(0, encodePortPrefix(port));
    send(1, encodePortPrefix(port));
    upstream.on('data', (d) => send(0, d));
    upstream.on('end', () => ws.close());
    upstream.on('error', (err) => { send(1, err.message); ws.close(); });
    ws.on('message', (p: Buffer, isBinary) => {
      const m = decodeChannelMessage(proto.base64 && !isBinary ? p.toString() : p, proto.base64 && !isBinary);
      if (m.channel === 0) upstream.write(m.data);
    });
    ws.on('close', () => upstream.end());
    return;
  }
  const route = routes[url.pathname]!;
  let stdinCb: (d: Buffer | null) => void = () => {};
  let resizeCb: (s: TerminalSize) => void = () => {};
  const resizes = new ResizeDecoder();
  ws.on('message', (p: Buffer, isBinary) => {
    const m = decodeChannelMessage(proto.base64 && !isBinary ? p.toString() : p, proto.base64 && !isBinary);
    if (m.channel === 0) stdinCb(m.data);
    else if (m.channel === CLOSE_CHANNEL && m.data[0] === 0) stdinCb(null);
    else if (m.channel === 4) resizes.push(m.data).forEach((s) => resizeCb(s));
  });
  send(1, Buffer.alloc(0)); // "connection established", as kubelet sends
  route.run({
    onStdin: (cb) => { stdinCb = cb; },
    onResize: (cb) => { resizeCb = cb; },
    stdout: (d) => send(1, d),
    stderr: (d) => send(2, d),
    finish: (status) => {
      if (proto.statusFormat === 'json') send(3, JSON.stringify(status));
      else if (status.status !== 'Success') send(3, status.message ?? 'failed');
      ws.close(1000);
    },
    abort: () => ws.terminate(),
  });
}

let server: http.Server;
const upgraded = new Set<[string, Duplex]>();
let base: string;
let echoServer: net.Server;
let echoPort: number;
let deadPort: number;

beforeAll(async () => {
  server = http.createServer((_req, res) => { res.statusCode = 400; res.end('upgrade required'); });
  server.on('upgrade', (req, socket, head) => {
    upgraded.add([req.url ?? '', socket]);
    const kind = String(req.headers.upgrade ?? '').toLowerCase();
    if (kind === 'websocket') {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (!config.websocket || (path !== '/portforward' && !routes[path])) {
        socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => serveWebSocket(ws, req));
    } else if (kind === 'spdy/3.1' && config.spdy) {
      serveSpdy(req, socket, head);
    } else {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  echoServer = net.createServer((s) => s.pipe(s));
  echoServer.listen(0, '127.0.0.1');
  await once(echoServer, 'listening');
  echoPort = (echoServer.address() as net.AddressInfo).port;
  // A port with nothing behind it: listen, note it, close.
  const probe = net.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  deadPort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
});

afterAll(async () => {
  wss.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await new Promise<void>((r) => echoServer.close(() => r()));
});

function collector(): { stream: Writable; text: () => string } {
  const parts: Buffer[] = [];
  const stream = new Writable({ write(c: Buffer, _e, cb) { parts.push(c); cb(); } });
  return { stream, text: () => Buffer.concat(parts).toString() };
}

async function* sizes(list: TerminalSize[]): AsyncGenerator<TerminalSize> {
  for (const s of list) {
    await new Promise((r) => setTimeout(r, 10));
    yield s;
  }
}

function configure(c: Partial<ServerConfig>): void {
  config.websocket = c.websocket ?? true;
  config.spdy = c.spdy ?? true;
  config.wsProtocols = c.wsProtocols ?? ALL_WS;
}

describe.each(['spdy', 'websocket'] as const)('runRemoteCommand over %s', (transport) => {
  beforeAll(() => configure({}));

  it('echoes stdin to stdout, keeps stderr apart and returns exit code 3 after stdin EOF', async () => {
    const out = collector();
    const err = collector();
    const result = await runRemoteCommand(`${base}/exec/echo`, {
      stdin: Readable.from([Buffer.from('hello\n'), Buffer.from('world\n')]), stdout: out.stream, stderr: err.stream, tty: false, transport,
    });
    expect(result).toEqual({ exitCode: 3, transport });
    expect(out.text()).toBe('hello\nworld\n');
    expect(err.text()).toBe('to stderr\n');
  });

  it('runs a command without stdin', async () => {
    const out = collector();
    const err = collector();
    const result = await runRemoteCommand(`${base}/exec/print`, { stdout: out.stream, stderr: err.stream, tty: false, transport });
    expect(result.exitCode).toBe(3);
    expect(out.text()).toBe('out\n');
    expect(err.text()).toBe('err\n');
  });

  it('with a TTY sends resizes and opens no stderr stream', async () => {
    const out = collector();
    const stdin = new PassThrough();
    const running = runRemoteCommand(`${base}/exec/tty`, {
      stdin, stdout: out.stream, tty: true, transport, resize: sizes([{ width: 80, height: 24 }, { width: 120, height: 40 }]),
    });
    stdin.write('abc');
    setTimeout(() => stdin.end(), 50);
    expect(await running).toEqual({ exitCode: 0, transport });
    expect(out.text()).toContain('abc');
    expect(out.text()).toContain('[80x24]');
    expect(out.text()).toContain('[120x40]');
    if (transport === 'spdy') expect(seenStreamTypes.at(-1)).toEqual(['error', 'resize', 'stdin', 'stdout']);
  });

  it('throws the server message for a failure that is not an exit code', async () => {
    await expect(runRemoteCommand(`${base}/exec/fail`, { stdout: collector().stream, stderr: collector().stream, tty: false, transport }))
      .rejects.toThrow(new RemoteCommandError('container "c1" is not running'));
  });

  it('fails when the server drops the connection before sending a status', async () => {
    const out = collector();
    await expect(runRemoteCommand(`${base}/exec/die`, { stdout: out.stream, stderr: collector().stream, tty: false, transport }))
      .rejects.toThrow(/lost the .* connection/);
    expect(out.text()).toBe('partial');
  });

  it('reports a refused upgrade with its HTTP status', async () => {
    const err = await runRemoteCommand(`${base}/exec/unknown-token`, { stdout: collector().stream, tty: false, transport }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpgradeRefusedError);
  });
});

describe('runRemoteCommand transport choice', () => {
  it('over WebSocket v5 signals stdin EOF with the close message', async () => {
    configure({ wsProtocols: ['v5.channel.k8s.io'] });
    const out = collector();
    const result = await runRemoteCommand(`${base}/exec/echo`, { stdin: Readable.from(['x']), stdout: out.stream, stderr: collector().stream, tty: false, transport: 'websocket' });
    expect(result).toEqual({ exitCode: 3, transport: 'websocket' });
    expect(out.text()).toBe('x');
  });

  it('auto prefers WebSocket without stdin and SPDY for piped stdin', async () => {
    configure({});
    const plain = await runRemoteCommand(`${base}/exec/print`, { stdout: collector().stream, stderr: collector().stream, tty: false });
    expect(plain.transport).toBe('websocket');
    const piped = await runRemoteCommand(`${base}/exec/echo`, { stdin: Readable.from(['y']), stdout: collector().stream, stderr: collector().stream, tty: false });
    expect(piped.transport).toBe('spdy');
  });

  it('decodes the base64 channel protocol when the server only speaks v4.base64', async () => {
    configure({ wsProtocols: ['v4.base64.channel.k8s.io'] });
    const out = collector();
    const err = collector();
    const result = await runRemoteCommand(`${base}/exec/print`, { stdout: out.stream, stderr: err.stream, tty: false, transport: 'websocket' });
    expect(result.exitCode).toBe(3);
    expect(out.text()).toBe('out\n');
    expect(err.text()).toBe('err\n');
  });

  it('reads the exit code from a pre-v4 text error channel', async () => {
    configure({ wsProtocols: ['channel.k8s.io'] });
    const result = await runRemoteCommand(`${base}/exec/print`, { stdout: collector().stream, stderr: collector().stream, tty: false, transport: 'websocket' });
    expect(result.exitCode).toBe(3);
  });

  it('auto falls back to SPDY when the server refuses the WebSocket upgrade', async () => {
    configure({ websocket: false });
    const out = collector();
    const result = await runRemoteCommand(`${base}/exec/print`, { stdout: out.stream, stderr: collector().stream, tty: false, transport: 'auto' });
    expect(result).toEqual({ exitCode: 3, transport: 'spdy' });
    expect(out.text()).toBe('out\n');
  });

  it('auto falls back to WebSocket when piped stdin meets a server that refuses SPDY', async () => {
    configure({ spdy: false });
    const out = collector();
    const result = await runRemoteCommand(`${base}/exec/echo`, { stdin: Readable.from(['via ws']), stdout: out.stream, stderr: collector().stream, tty: false });
    expect(result).toEqual({ exitCode: 3, transport: 'websocket' });
    expect(out.text()).toBe('via ws');
  });
});

async function roundTrip(port: number, payload: string): Promise<string> {
  const sock = net.connect(port, '127.0.0.1');
  await once(sock, 'connect');
  const parts: Buffer[] = [];
  sock.on('data', (d: Buffer) => {
    parts.push(d);
    if (Buffer.concat(parts).length >= payload.length) sock.end();
  });
  sock.write(payload);
  await once(sock, 'close');
  return Buffer.concat(parts).toString();
}

describe.each(['spdy', 'websocket'] as const)('startPortForward over %s', (transport) => {
  beforeAll(() => configure({}));

  it('picks a free local port and carries connections to the remote port', async () => {
    const session = await startPortForward(`${base}/portforward`, [{ localPort: 0, remotePort: echoPort }], { transport });
    try {
      expect(session.transport).toBe(transport);
      // kubectl's "localhost": 127.0.0.1, and [::1] on the same port where the host has it.
      const hasIpv6Loopback = Object.values(networkInterfaces()).flat().some((a) => a?.address === '::1');
      expect(session.ports.map((p) => p.address)).toEqual(hasIpv6Loopback ? ['127.0.0.1', '::1'] : ['127.0.0.1']);
      const local = session.ports[0]!.localPort;
      expect(local).toBeGreaterThan(0);
      expect(new Set(session.ports.map((p) => p.localPort))).toEqual(new Set([local]));
      const big = 'x'.repeat(200_000);
      const [a, b] = await Promise.all([roundTrip(local, 'first'), roundTrip(local, big)]);
      expect(a).toBe('first');
      expect(b.length).toBe(big.length);
    } finally {
      await session.close();
    }
  });

  it('reports a remote port that refuses the connection', async () => {
    const errors: Error[] = [];
    const session = await startPortForward(`${base}/portforward`, [{ localPort: 0, remotePort: deadPort }], { transport, onError: (e) => errors.push(e) });
    try {
      const sock = net.connect(session.ports[0]!.localPort, '127.0.0.1');
      sock.on('error', () => {});
      await once(sock, 'close');
      for (let i = 0; i < 50 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(errors[0]?.message).toMatch(new RegExp(`forwarding ${session.ports[0]!.localPort} -> ${deadPort}: .*ECONNREFUSED`));
    } finally {
      await session.close();
    }
  });
});

describe('startPortForward', () => {
  it('over SPDY returns the answer to a client that half-closes after sending', async () => {
    configure({});
    const session = await startPortForward(`${base}/portforward`, [{ localPort: 0, remotePort: echoPort }], { transport: 'spdy' });
    try {
      const sock = net.connect({ port: session.ports[0]!.localPort, host: '127.0.0.1', allowHalfOpen: true });
      await once(sock, 'connect');
      const parts: Buffer[] = [];
      sock.on('data', (d: Buffer) => parts.push(d));
      sock.end('request then EOF');
      await once(sock, 'end');
      expect(Buffer.concat(parts).toString()).toBe('request then EOF');
      sock.destroy();
    } finally {
      await session.close();
    }
  });

  it('stops listening when closed', async () => {
    configure({});
    const session = await startPortForward(`${base}/portforward`, [{ localPort: 0, remotePort: echoPort }], { transport: 'spdy' });
    const port = session.ports[0]!.localPort;
    await session.close();
    await session.done;
    const sock = net.connect(port, '127.0.0.1');
    const [err] = (await once(sock, 'error')) as [NodeJS.ErrnoException];
    expect(err.code).toBe('ECONNREFUSED');
  });
});

describe('connection hygiene', () => {
  it('leaves no upgraded connection open once sessions are over', async () => {
    const open = (): string[] => [...upgraded].filter(([, s]) => !s.destroyed).map(([url]) => url);
    for (let i = 0; i < 100 && open().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(open()).toEqual([]);
  });
});
