// routeUnixConnection with real unix sockets and Node's HTTP/2 server and client: which clients
// reach the server directly, which through the authority rewriter, and that both keep working.
// (Go's client, which waits for the server's preface, is covered by daemon-go-client.test.ts.)
import http2 from 'node:http2';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routeUnixConnection, withoutFirstSettingsAck } from '../../src/daemon/authority-fix.js';
import { CLIENT_PREFACE, h2Frame } from '../rig/h2-frames.js';

const PREFACE = CLIENT_PREFACE;
const frame = (type: number, flags: number, payload = Buffer.alloc(0), stream = 0) => h2Frame(type, flags, stream, payload);

describe('routeUnixConnection', () => {
  let dir: string;
  let path: string;
  let server: net.Server;
  let h2: http2.Http2Server;
  let routes: string[];
  let errors: string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ist-route-'));
    path = join(dir, 's.sock');
    routes = [];
    errors = [];
    h2 = http2.createServer();
    h2.on('stream', (stream, headers) => {
      stream.respond({ ':status': 200 });
      stream.end(`${headers[':authority']} ${headers[':path']}`);
    });
    server = net.createServer((socket) => routeUnixConnection(socket, {
      direct: (s) => { routes.push('direct'); h2.emit('connection', s); },
      rewritten: (s) => { routes.push('rewritten'); h2.emit('connection', s); },
      error: (err) => errors.push(err.message),
    }));
    await new Promise<void>((resolve) => server.listen(path, resolve));
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  async function requests(authority: string | undefined, paths: string[]): Promise<string[]> {
    const session = http2.connect('http://localhost', { createConnection: () => net.connect(path) });
    try {
      const answers: string[] = [];
      for (const p of paths) {
        answers.push(await new Promise<string>((resolve, reject) => {
          const req = session.request({ ':path': p, ...(authority ? { ':authority': authority } : {}) });
          let body = '';
          req.setEncoding('utf8').on('data', (d: string) => { body += d; });
          req.on('end', () => resolve(body));
          req.on('error', reject);
        }));
      }
      return answers;
    } finally {
      session.close();
    }
  }

  it('hands a client with a valid authority to the server directly, for every request of the connection', async () => {
    expect(await requests(undefined, ['/a', '/b', '/c'])).toEqual(['localhost:80 /a', 'localhost:80 /b', 'localhost:80 /c']);
    expect(routes).toEqual(['direct']);
    expect(errors).toEqual([]);
  });

  it('sends a client whose authority is the socket path through the rewriter', async () => {
    expect(await requests('/run/x.sock', ['/a', '/b'])).toEqual(['_run_x.sock /a', '_run_x.sock /b']);
    expect(routes).toEqual(['rewritten']);
  });

  it('closes a connection that does not start with the HTTP/2 preface', async () => {
    const socket = net.connect(path);
    const closed = new Promise<Buffer>((resolve) => {
      const got: Buffer[] = [];
      socket.on('data', (d: Buffer) => got.push(d));
      socket.on('close', () => resolve(Buffer.concat(got)));
    });
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    // Only our early server preface (an empty SETTINGS frame) was sent before the close.
    expect((await closed).toString('hex')).toBe(frame(4, 0).toString('hex'));
    expect(routes).toEqual([]);
    expect(errors).toEqual(['not an HTTP/2 connection preface']);
  });
});

describe('routeUnixConnection handshake timeout', () => {
  it('closes a connection that sends nothing, or stops after the preface, once the timeout passes; one that sent its request stays', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ist-route-'));
    const path = join(dir, 's.sock');
    const timedOut: string[] = [];
    const h2 = http2.createServer();
    h2.on('stream', (stream) => { stream.respond({ ':status': 200 }); stream.end('ok'); });
    const server = net.createServer((socket) => routeUnixConnection(socket, {
      direct: (s) => h2.emit('connection', s),
      rewritten: (s) => h2.emit('connection', s),
      error: () => undefined,
      timedOut: () => timedOut.push('timed out'),
    }, 300));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const closedOf = (s: net.Socket) => new Promise<void>((resolve) => { s.resume(); s.on('close', () => resolve()); });
    const silent = net.connect(path);
    const prefaceOnly = net.connect(path, () => prefaceOnly.write(PREFACE));
    const session = http2.connect('http://localhost', { createConnection: () => net.connect(path) });
    try {
      // A client that makes its request in time is past the router: later silence is the gRPC server's to bound.
      const body = await new Promise<string>((resolve, reject) => {
        const req = session.request({ ':path': '/x' });
        let text = '';
        req.setEncoding('utf8').on('data', (d: string) => { text += d; });
        req.on('end', () => resolve(text));
        req.on('error', reject);
      });
      expect(body).toBe('ok');
      await Promise.all([closedOf(silent), closedOf(prefaceOnly)]);
      expect(timedOut).toEqual(['timed out', 'timed out']);
      await new Promise((r) => setTimeout(r, 600));
      expect(session.closed).toBe(false);
      expect(timedOut).toHaveLength(2);
    } finally {
      session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('withoutFirstSettingsAck', () => {
  it('removes the first SETTINGS ACK only, wherever it falls among whole frames', () => {
    const settings = frame(4, 0, Buffer.from([0, 3, 0, 0, 0, 100]));
    const ack = frame(4, 1);
    const ping = frame(6, 0, Buffer.alloc(8, 7));
    const headers = frame(1, 5, Buffer.from('abc'), 1);
    expect(withoutFirstSettingsAck(Buffer.concat([PREFACE, settings, ping, ack, headers, ack]))).toEqual(Buffer.concat([PREFACE, settings, ping, headers, ack]));
    expect(withoutFirstSettingsAck(Buffer.concat([PREFACE, settings, headers]))).toEqual(Buffer.concat([PREFACE, settings, headers]));
    // A frame cut off at the end of what was read is left as it is.
    const partial = Buffer.concat([PREFACE, ack, ping.subarray(0, 12)]);
    expect(withoutFirstSettingsAck(partial)).toEqual(Buffer.concat([PREFACE, ping.subarray(0, 12)]));
  });
});
