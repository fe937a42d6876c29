import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { once } from 'node:events';
import {
  encodeFrame, FrameParser, RstStatus, SpdyConnection, SpdyStream, SpdyStreamResetError, type SpdyFrame,
} from '../../src/protocols/spdy/index.js';

/** A connected pair of loopback sockets. */
async function socketPair(): Promise<[net.Socket, net.Socket]> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const accepted = once(server, 'connection') as Promise<[net.Socket]>;
  const client = net.connect(port, '127.0.0.1');
  await once(client, 'connect');
  const [peer] = await accepted;
  server.close();
  return [client, peer];
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function pair(opts: { serverWindow?: number } = {}): Promise<{ client: SpdyConnection; server: SpdyConnection }> {
  const [a, b] = await socketPair();
  const client = new SpdyConnection(a, { role: 'client' });
  const server = new SpdyConnection(b, { role: 'server', initialWindowSize: opts.serverWindow });
  cleanups.push(() => { a.destroy(); b.destroy(); });
  return { client, server };
}

function readAll(s: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    s.on('data', (c: Buffer) => parts.push(c));
    s.on('end', () => resolve(Buffer.concat(parts).toString()));
    s.on('error', reject);
  });
}

describe('SPDY connection', () => {
  it('opens a stream, gets its reply and exchanges data both ways with FIN', async () => {
    const { client, server } = await pair();
    server.on('stream', (s) => {
      expect(s.headers).toEqual({ streamtype: 'stdin', port: '80' });
      s.respond({ ok: 'yes' });
      void readAll(s).then((text) => s.end(`echo:${text}`));
    });
    const stream = client.createStream({ streamType: 'stdin', port: '80' });
    expect(stream.id).toBe(1);
    expect(await stream.waitReply(5000)).toEqual({ ok: 'yes' });
    stream.end('hello');
    expect(await readAll(stream)).toBe('echo:hello');
  });

  it('numbers client streams odd and server streams even', async () => {
    const { client, server } = await pair();
    client.on('stream', (s) => s.respond());
    server.on('stream', (s) => s.respond());
    const c1 = client.createStream({ a: '1' });
    const c2 = client.createStream({ a: '2' });
    const s1 = server.createStream({ b: '1' });
    await Promise.all([c1.waitReply(), c2.waitReply(), s1.waitReply()]);
    expect([c1.id, c2.id, s1.id]).toEqual([1, 3, 2]);
  });

  it('keeps header compression in step across many streams in both directions', async () => {
    const { client, server } = await pair();
    const seen: string[] = [];
    server.on('stream', (s) => {
      seen.push(s.headers.requestid!);
      s.respond({ requestid: s.headers.requestid! });
    });
    const streams = Array.from({ length: 20 }, (_, i) => client.createStream({ streamtype: 'data', port: '8080', requestid: String(i) }));
    const replies = await Promise.all(streams.map((s) => s.waitReply(5000)));
    expect(replies.map((r) => r.requestid)).toEqual(streams.map((_, i) => String(i)));
    expect(seen).toEqual(streams.map((_, i) => String(i)));
  });

  it('answers pings and measures the round trip', async () => {
    const { client, server } = await pair();
    expect(await client.ping(5000)).toBeGreaterThanOrEqual(0);
    expect(await server.ping(5000)).toBeGreaterThanOrEqual(0);
  });

  it('reports a reset stream to its reader as an error', async () => {
    const { client, server } = await pair();
    server.on('stream', (s) => {
      s.respond();
      s.reset(RstStatus.InternalError);
    });
    const stream = client.createStream({});
    await stream.waitReply();
    const [err] = (await once(stream, 'error')) as [SpdyStreamResetError];
    expect(err).toBeInstanceOf(SpdyStreamResetError);
    expect(err.status).toBe(RstStatus.InternalError);
  });

  it('ends a stream reset with CANCEL after delivering the data sent before it', async () => {
    const { client, server } = await pair();
    server.on('stream', (s) => {
      s.respond();
      s.write('last words');
      s.reset(RstStatus.Cancel);
    });
    const stream = client.createStream({});
    expect(await readAll(stream)).toBe('last words');
  });

  it('refuses streams when nobody listens for them', async () => {
    const [a, b] = await socketPair();
    cleanups.push(() => { a.destroy(); b.destroy(); });
    const client = new SpdyConnection(a, { role: 'client' });
    new SpdyConnection(b, { role: 'server' });
    const stream = client.createStream({});
    stream.on('error', () => {});
    await expect(stream.waitReply(5000)).rejects.toThrow(/reset/);
  });

  it('holds writes at the window of a peer that does flow control, and finishes once it reads', async () => {
    const { client, server } = await pair({ serverWindow: 8192 });
    const total = 256 * 1024;
    let received: Promise<string> | undefined;
    let accepted!: SpdyStream;
    const got = new Promise<void>((resolve) => server.on('stream', (s) => {
      accepted = s;
      s.respond();
      s.pause();
      resolve();
    }));
    const stream = client.createStream({});
    await stream.waitReply();
    await got;
    stream.end(Buffer.alloc(total, 0x61));
    await new Promise((r) => setTimeout(r, 100));
    // The server announced an 8 KiB window and its reader takes nothing: past its read buffer
    // (highWaterMark) at most one window more arrives.
    expect(accepted.readableLength).toBeLessThanOrEqual(accepted.readableHighWaterMark + 8192);
    expect(accepted.readableLength).toBeLessThan(total);
    expect(client.peerFlowControl).toBe(true);
    received = readAll(accepted);
    accepted.resume();
    expect((await received).length).toBe(total);
  });

  it('sends past the default window to a peer that never does flow control (Go spdystream)', async () => {
    const [a, b] = await socketPair();
    cleanups.push(() => { a.destroy(); b.destroy(); });
    const client = new SpdyConnection(a, { role: 'client' });
    const { HeaderCompressor } = await import('../../src/protocols/spdy/index.js');
    const parser = new FrameParser();
    let dataBytes = 0;
    let fin = false;
    b.on('data', (c: Buffer) => {
      for (const f of parser.push(c)) {
        if (f.type === 'data') {
          dataBytes += f.data.length;
          fin ||= (f.flags & 1) === 1;
        }
      }
    });
    const stream = client.createStream({});
    b.write(encodeFrame({ type: 'syn_reply', streamId: 1, flags: 0, headerBlock: await new HeaderCompressor().compress({}) }));
    await stream.waitReply(5000);
    const total = 300 * 1024;
    stream.end(Buffer.alloc(total));
    for (let i = 0; i < 100 && !fin; i++) await new Promise((r) => setTimeout(r, 20));
    expect(client.peerFlowControl).toBe(false);
    expect(dataBytes).toBe(total);
    expect(fin).toBe(true);
  });

  it('sends no WINDOW_UPDATE to a peer that never does flow control, however much it reads', async () => {
    const [a, b] = await socketPair();
    cleanups.push(() => { a.destroy(); b.destroy(); });
    const client = new SpdyConnection(a, { role: 'client' });
    const { HeaderCompressor } = await import('../../src/protocols/spdy/index.js');
    const parser = new FrameParser();
    const seen: string[] = [];
    b.on('data', (c: Buffer) => { for (const f of parser.push(c)) seen.push(f.type); });
    const stream = client.createStream({});
    b.write(encodeFrame({ type: 'syn_reply', streamId: 1, flags: 0, headerBlock: await new HeaderCompressor().compress({}) }));
    for (let i = 0; i < 20; i++) b.write(encodeFrame({ type: 'data', streamId: 1, flags: i === 19 ? 1 : 0, data: Buffer.alloc(16 * 1024) }));
    expect((await readAll(stream)).length).toBe(20 * 16 * 1024);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).not.toContain('window_update');
  });

  it('interoperates with a hand-rolled peer at the frame level (SYN_REPLY, DATA with FIN)', async () => {
    const [a, b] = await socketPair();
    cleanups.push(() => { a.destroy(); b.destroy(); });
    const client = new SpdyConnection(a, { role: 'client' });
    const parser = new FrameParser();
    const frames: SpdyFrame[] = [];
    b.on('data', (c: Buffer) => frames.push(...parser.push(c)));
    const stream = client.createStream({ streamtype: 'error' });
    await new Promise((r) => setTimeout(r, 50));
    expect(frames[0]).toMatchObject({ type: 'settings', settings: [{ id: 7, value: 65536 }] });
    expect(frames[1]).toMatchObject({ type: 'syn_stream', streamId: 1, associatedId: 0 });
    // Our reply needs no header compression state beyond an empty block: reuse the client's own compressor format.
    const { HeaderCompressor } = await import('../../src/protocols/spdy/index.js');
    const headerBlock = await new HeaderCompressor().compress({});
    b.write(encodeFrame({ type: 'syn_reply', streamId: 1, flags: 0, headerBlock }));
    b.write(encodeFrame({ type: 'data', streamId: 1, flags: 1, data: Buffer.from('{"status":"Success"}') }));
    await stream.waitReply(5000);
    expect(await readAll(stream)).toBe('{"status":"Success"}');
  });

  it('closes every stream when the socket goes away', async () => {
    const { client, server } = await pair();
    server.on('stream', (s) => s.respond());
    const stream = client.createStream({});
    await stream.waitReply();
    const ended = readAll(stream);
    const closed = once(client, 'close');
    server.destroy();
    await ended;
    await closed;
    expect(client.isClosed).toBe(true);
  });

  it('sends GOAWAY on close and refuses new streams afterwards', async () => {
    const { client, server } = await pair();
    const goaway = once(server, 'goaway');
    await client.close();
    const [info] = (await goaway) as [{ status: number }];
    expect(info.status).toBe(0);
    expect(() => client.createStream({})).toThrow(/closed|going away/);
  });
});
