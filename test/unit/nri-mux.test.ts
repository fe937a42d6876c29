import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Mux, MuxConn, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN, FIRST_FRAME_MAX } from '../../src/nri/mux/mux.js';
import { TtrpcClient, TtrpcServer, loadEnvelopes } from '../../src/nri/ttrpc/index.js';

function read(conn: MuxConn, bytes: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let n = 0;
    const onData = (b: Buffer) => {
      parts.push(b);
      n += b.length;
      if (n >= bytes) {
        conn.off('data', onData);
        resolve(Buffer.concat(parts));
      }
    };
    conn.on('data', onData);
  });
}

describe('NRI connection multiplexer', () => {
  let dir: string;
  let listener: net.Server;
  let a: Mux;
  let b: Mux;

  async function pair(opts: { acceptUnknown?: boolean } = {}): Promise<[Mux, Mux]> {
    const accepted = new Promise<net.Socket>((r) => listener.once('connection', r));
    const sock = net.connect(join(dir, 's'));
    return [new Mux(sock), new Mux(await accepted, opts)];
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nm-'));
    listener = net.createServer();
    await new Promise<void>((r) => listener.listen(join(dir, 's'), r));
    [a, b] = await pair();
  });

  afterEach(async () => {
    a.close();
    b.close();
    await new Promise<void>((r) => listener.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  // As Go's bufio.Writer under upstream ttrpc frames a message: the Go reader needs a first frame of at
  // most 4 KiB, and queues only 256 frames per connection, so a large write must not become many frames.
  it('frames a write as its first 4 KiB and the rest, with connection ID and length', async () => {
    const raw: Buffer[] = [];
    b.trunk.prependListener('data', (c: Buffer) => raw.push(c));
    const data = Buffer.alloc(FIRST_FRAME_MAX * 300 + 10, 7);
    const got = read(b.open(5), data.length);
    a.open(5).write(data);
    expect((await got).equals(data)).toBe(true);
    const wire = Buffer.concat(raw);
    expect(wire.readUInt32BE(0)).toBe(5);
    expect(wire.readUInt32BE(4)).toBe(FIRST_FRAME_MAX);
    expect(wire.readUInt32BE(8 + FIRST_FRAME_MAX)).toBe(5);
    expect(wire.readUInt32BE(12 + FIRST_FRAME_MAX)).toBe(data.length - FIRST_FRAME_MAX);
    expect(wire.length).toBe(data.length + 2 * 8);
  });

  it('sends a write of at most 4 KiB as one frame', async () => {
    const raw: Buffer[] = [];
    b.trunk.prependListener('data', (c: Buffer) => raw.push(c));
    const data = Buffer.alloc(FIRST_FRAME_MAX, 3);
    const got = read(b.open(6), data.length);
    a.open(6).write(data);
    expect((await got).equals(data)).toBe(true);
    const wire = Buffer.concat(raw);
    expect(wire.readUInt32BE(4)).toBe(FIRST_FRAME_MAX);
    expect(wire.length).toBe(data.length + 8);
  });

  it('keeps logical connections apart', async () => {
    const one = read(b.open(PLUGIN_SERVICE_CONN), 3);
    const two = read(b.open(RUNTIME_SERVICE_CONN), 3);
    a.open(RUNTIME_SERVICE_CONN).write('two');
    a.open(PLUGIN_SERVICE_CONN).write('one');
    expect((await one).toString()).toBe('one');
    expect((await two).toString()).toBe('two');
  });

  it('drops frames for unopened connections unless accepting', async () => {
    const seen: number[] = [];
    b.on('connection', (c: MuxConn) => seen.push(c.id));
    a.open(9).write('lost');
    const got = read(b.open(3), 2);
    a.open(3).write('ok');
    expect((await got).toString()).toBe('ok');
    expect(seen).toEqual([]);
  });

  it('accepts unknown connections when asked to', async () => {
    const [x, y] = await pair({ acceptUnknown: true });
    const accepted = new Promise<MuxConn>((r) => y.once('connection', r));
    x.open(11).write('hello');
    const conn = await accepted;
    expect(conn.id).toBe(11);
    expect((await read(conn, 0)).toString()).toBe('hello');
    x.close();
    y.close();
  });

  it('carries ttrpc in both directions over one socket', async () => {
    const env = await loadEnvelopes();
    const serverA = new TtrpcServer(env);
    serverA.register('svc.A', { Ping: () => Buffer.from('from-a') });
    serverA.serve(a.open(PLUGIN_SERVICE_CONN));
    const serverB = new TtrpcServer(env);
    serverB.register('svc.B', { Ping: () => Buffer.from('from-b') });
    serverB.serve(b.open(RUNTIME_SERVICE_CONN));
    const clientB = new TtrpcClient(b.open(PLUGIN_SERVICE_CONN), env);
    const clientA = new TtrpcClient(a.open(RUNTIME_SERVICE_CONN), env);
    expect((await clientB.call('svc.A', 'Ping', Buffer.alloc(0))).toString()).toBe('from-a');
    expect((await clientA.call('svc.B', 'Ping', Buffer.alloc(0))).toString()).toBe('from-b');
  });

  it('closes every logical connection when the trunk closes', async () => {
    const conn = b.open(1);
    const closed = new Promise<void>((r) => conn.once('close', () => r()));
    a.close();
    await closed;
    expect(b.isClosed).toBe(true);
  });
});
