import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Code,
  FrameDecoder,
  MESSAGE_LENGTH_MAX,
  MessageType,
  OversizedMessageError,
  TtrpcClient,
  TtrpcServer,
  TtrpcStatusError,
  encodeFrame,
  loadEnvelopes,
  type Frame,
} from '../../src/nri/ttrpc/index.js';

function collect(): { frames: Frame[]; oversized: number[]; decoder: FrameDecoder } {
  const frames: Frame[] = [];
  const oversized: number[] = [];
  const decoder = new FrameDecoder({ frame: (f) => frames.push(f), oversized: (id) => oversized.push(id) });
  return { frames, oversized, decoder };
}

describe('ttrpc frame codec', () => {
  it('writes the 10-byte big-endian header', () => {
    const frame = encodeFrame(3, MessageType.request, 0, Buffer.from('abc'));
    expect([...frame.subarray(0, 10)]).toEqual([0, 0, 0, 3, 0, 0, 0, 3, 1, 0]);
    expect(frame.subarray(10).toString()).toBe('abc');
  });

  it('decodes frames split at every byte boundary', () => {
    const wire = Buffer.concat([
      encodeFrame(1, MessageType.request, 0, Buffer.from('hello')),
      encodeFrame(3, MessageType.response, 2, Buffer.alloc(0)),
      encodeFrame(5, MessageType.data, 4, Buffer.from('x')),
    ]);
    const { frames, decoder } = collect();
    for (const byte of wire) decoder.push(Buffer.from([byte]));
    expect(frames.map((f) => [f.streamId, f.type, f.flags, f.payload.toString()])).toEqual([
      [1, 1, 0, 'hello'],
      [3, 2, 2, ''],
      [5, 3, 4, 'x'],
    ]);
    expect(decoder.idle).toBe(true);
  });

  it('refuses to encode a payload over 4 MiB', () => {
    expect(() => encodeFrame(1, 1, 0, Buffer.alloc(MESSAGE_LENGTH_MAX + 1))).toThrow(OversizedMessageError);
    expect(() => encodeFrame(1, 1, 0, Buffer.alloc(MESSAGE_LENGTH_MAX + 1))).toThrow(/exceeds maximum message size of 4194304/);
  });

  it('skips an oversized incoming message and keeps decoding', () => {
    const { frames, oversized, decoder } = collect();
    const big = Buffer.alloc(10 + 20);
    big.writeUInt32BE(20, 0);
    big.writeUInt32BE(7, 4);
    big.writeUInt8(1, 8);
    const small = new FrameDecoder({ frame: (f) => frames.push(f), oversized: (id) => oversized.push(id) }, 10);
    small.push(Buffer.concat([big, encodeFrame(9, 1, 0, Buffer.from('ok'))]));
    expect(oversized).toEqual([7]);
    expect(frames.map((f) => f.payload.toString())).toEqual(['ok']);
    expect(decoder.idle).toBe(true);
  });
});

describe('ttrpc client and server over a unix socket', () => {
  let dir: string;
  let listener: net.Server;
  let client: TtrpcClient;
  let server: TtrpcServer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nt-'));
    const envelopes = await loadEnvelopes();
    server = new TtrpcServer(envelopes);
    server.register('test.Echo', {
      Echo: (payload) => payload,
      Upper: async (payload, ctx) => Buffer.from(`${payload.toString().toUpperCase()}:${ctx.timeoutMs}`),
      Fail: () => {
        throw new TtrpcStatusError(Code.FAILED_PRECONDITION, 'not now');
      },
      Crash: () => {
        throw new Error('boom');
      },
      Hang: () => new Promise<Uint8Array>(() => undefined),
    });
    listener = net.createServer((sock) => server.serve(sock));
    const path = join(dir, 's');
    await new Promise<void>((r) => listener.listen(path, r));
    const sock = net.connect(path);
    await new Promise<void>((r) => sock.once('connect', r));
    client = new TtrpcClient(sock, envelopes);
  });

  afterEach(async () => {
    client.close();
    server.close();
    await new Promise<void>((r) => listener.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips payloads and passes the timeout to the server', async () => {
    expect((await client.call('test.Echo', 'Echo', Buffer.from('hi'))).toString()).toBe('hi');
    expect((await client.call('test.Echo', 'Upper', Buffer.from('hi'), { timeoutMs: 1500 })).toString()).toBe('HI:1500');
  });

  it('runs concurrent calls on distinct odd streams', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map((i) => client.call('test.Echo', 'Echo', Buffer.from(String(i)))));
    expect(answers.map((a) => a.toString())).toEqual(['1', '2', '3', '4']);
  });

  it('reports unknown services and methods as UNIMPLEMENTED', async () => {
    await expect(client.call('test.Nope', 'X', Buffer.alloc(0))).rejects.toMatchObject({ code: Code.UNIMPLEMENTED, details: 'service test.Nope' });
    await expect(client.call('test.Echo', 'Nope', Buffer.alloc(0))).rejects.toMatchObject({ code: Code.UNIMPLEMENTED, details: 'method Nope' });
  });

  it('carries status codes of handler errors, UNKNOWN for plain errors', async () => {
    await expect(client.call('test.Echo', 'Fail', Buffer.alloc(0))).rejects.toMatchObject({ code: Code.FAILED_PRECONDITION, details: 'not now' });
    await expect(client.call('test.Echo', 'Crash', Buffer.alloc(0))).rejects.toMatchObject({ code: Code.UNKNOWN, details: 'boom' });
  });

  it('times out a hung call with DEADLINE_EXCEEDED and keeps the connection usable', async () => {
    await expect(client.call('test.Echo', 'Hang', Buffer.alloc(0), { timeoutMs: 50 })).rejects.toMatchObject({ code: Code.DEADLINE_EXCEEDED });
    expect((await client.call('test.Echo', 'Echo', Buffer.from('still'))).toString()).toBe('still');
  });

  it('fails pending calls when the connection closes', async () => {
    const pending = client.call('test.Echo', 'Hang', Buffer.alloc(0));
    server.close();
    await expect(pending).rejects.toThrow(/closed/);
    await expect(client.call('test.Echo', 'Echo', Buffer.alloc(0))).rejects.toThrow(/closed/);
  });

  it('answers an oversized incoming request with RESOURCE_EXHAUSTED and keeps serving', async () => {
    const raw = net.connect(join(dir, 's'));
    const env = await loadEnvelopes();
    const frames: Frame[] = [];
    const decoder = new FrameDecoder({ frame: (f) => frames.push(f), oversized: () => undefined });
    raw.on('data', (c: Buffer) => decoder.push(c));
    const header = Buffer.alloc(10);
    header.writeUInt32BE(MESSAGE_LENGTH_MAX + 1, 0);
    header.writeUInt32BE(1, 4);
    header.writeUInt8(MessageType.request, 8);
    raw.write(header);
    raw.write(Buffer.alloc(MESSAGE_LENGTH_MAX + 1));
    const ok = env.encodeRequest({ service: 'test.Echo', method: 'Echo', payload: Buffer.from('fine'), timeoutNano: '0' });
    raw.write(encodeFrame(3, MessageType.request, 0, ok));
    for (let i = 0; i < 200 && frames.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    raw.destroy();
    const [first, second] = frames.map((f) => ({ id: f.streamId, res: env.decodeResponse(f.payload) }));
    expect(first.id).toBe(1);
    expect(first.res.status).toEqual({ code: Code.RESOURCE_EXHAUSTED, message: `message length ${MESSAGE_LENGTH_MAX + 1} exceeds maximum message size of ${MESSAGE_LENGTH_MAX}` });
    expect(second.id).toBe(3);
    expect(second.res.payload.toString()).toBe('fine');
  });

  it('rejects a request over 4 MiB before sending it', async () => {
    await expect(client.call('test.Echo', 'Echo', Buffer.alloc(MESSAGE_LENGTH_MAX))).rejects.toMatchObject({ code: Code.RESOURCE_EXHAUSTED });
    expect((await client.call('test.Echo', 'Echo', Buffer.from('after'))).toString()).toBe('after');
  });
});
