// The hand-framed HTTP/2 connection (src/daemon/h2/connection.ts) against a peer written frame by
// frame on a real unix socket: the handshake, PING, padding and PRIORITY, flow control both ways,
// graceful GOAWAY, and a hostile peer at each bound (header block size, decoded list, concurrent
// streams, rapid reset, PING flood into a socket it does not read, SETTINGS size, bad HPACK).
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { H2Connection, type H2Limits } from '../../src/daemon/h2/connection.js';
import type { H2Stream } from '../../src/daemon/h2/stream.js';
import { CLIENT_PREFACE, ErrorCode, Flag, FrameType, h2Frame, Setting } from '../../src/protocols/http2/frame.js';
import { HpackDecoder } from '../../src/protocols/http2/hpack-decoder.js';
import { hpackEncode, hpackInt } from '../../src/protocols/http2/hpack-encoder.js';

const LIMITS: H2Limits = {
  maxConcurrentStreams: 4, maxHeaderBlockBytes: 4096, maxHeaderListBytes: 8192, resetBurst: 20, resetsPerSecond: 1,
  maxQueuedOutputBytes: 64 * 1024, maxQueuedDataBytes: 256 * 1024, maxSettingsEntries: 8, handshakeTimeoutMs: 5000, idleTimeoutMs: 60_000,
  keepaliveTimeMs: 60_000, keepaliveTimeoutMs: 5000,
};

interface Frame { type: number; flags: number; id: number; payload: Buffer }

/** A client that writes frames by hand and keeps every frame the server sends. */
class Peer {
  readonly frames: Frame[] = [];
  closed = false;
  private buf = Buffer.alloc(0);
  readonly decoder = new HpackDecoder();
  constructor(readonly sock: Socket) {
    sock.on('data', (c: Buffer) => {
      this.buf = Buffer.concat([this.buf, c]);
      while (this.buf.length >= 9 && this.buf.length >= 9 + this.buf.readUIntBE(0, 3)) {
        const len = this.buf.readUIntBE(0, 3);
        this.frames.push({ type: this.buf[3]!, flags: this.buf[4]!, id: this.buf.readUInt32BE(5), payload: this.buf.subarray(9, 9 + len) });
        this.buf = this.buf.subarray(9 + len);
      }
    });
    sock.on('error', () => undefined);
    sock.on('close', () => (this.closed = true));
  }
  send(...frames: Buffer[]): void {
    if (!this.sock.destroyed) this.sock.write(Buffer.concat(frames));
  }
  start(settings = Buffer.alloc(0)): void {
    this.send(CLIENT_PREFACE, h2Frame(FrameType.SETTINGS, 0, 0, settings));
  }
  async until(what: string, test: () => boolean, ms = 3000): Promise<void> {
    for (let t = 0; t < ms / 10 && !test(); t++) await new Promise((r) => setTimeout(r, 10));
    if (!test()) throw new Error(`timed out waiting for ${what}; frames: ${this.frames.map((f) => `${f.type}/${f.flags}/${f.id}`).join(' ')}`);
  }
  of(type: number, id?: number): Frame[] {
    return this.frames.filter((f) => f.type === type && (id === undefined || f.id === id));
  }
  goAwayCode(): number | undefined {
    return this.of(FrameType.GOAWAY)[0]?.payload.readUInt32BE(4);
  }
  dataBytes(id: number): number {
    return this.of(FrameType.DATA, id).reduce((n, f) => n + f.payload.length, 0);
  }
}

const REQUEST = hpackEncode([[':method', 'POST'], [':scheme', 'http'], [':path', '/x'], ['content-type', 'application/grpc']]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const setting = (key: number, value: number) => {
  const b = Buffer.alloc(6);
  b.writeUInt16BE(key, 0);
  b.writeUInt32BE(value, 2);
  return b;
};

let dir: string;
let server: Server;
let path: string;
/** What each test's server does with a stream; the default answers 'ok' with trailers once the request ended. */
let onStream: (s: H2Stream, conn: H2Connection) => void;
let limits: H2Limits;
const conns: H2Connection[] = [];
const peers: Peer[] = [];

const answer = (s: H2Stream, body = Buffer.from('ok')) => {
  s.onEnd = () => {
    s.respond(hpackEncode([[':status', '200']]));
    s.write(body);
    s.end(hpackEncode([['grpc-status', '0']]));
  };
};

beforeAll(async () => {
  dir = mkdtempSync('/tmp/ist-h2c-');
  path = `${dir}/s.sock`;
  server = createServer((sock) => {
    const conn: H2Connection = new H2Connection(sock, limits, { onStream: (s) => onStream(s, conn) });
    conns.push(conn);
  });
  await new Promise<void>((r) => server.listen(path, r));
});
afterEach(() => {
  for (const p of peers.splice(0)) p.sock.destroy();
  for (const c of conns.splice(0)) c.destroy();
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function peer(l: Partial<H2Limits> = {}, handler: typeof onStream = (s) => answer(s)): Promise<Peer> {
  limits = { ...LIMITS, ...l };
  onStream = handler;
  const sock = connect(path);
  await new Promise((r) => sock.once('connect', r));
  const p = new Peer(sock);
  peers.push(p);
  return p;
}

describe('hand-framed HTTP/2 connection', () => {
  it('opens with its SETTINGS, acknowledges the peer\'s and its PINGs, and answers a request', async () => {
    const p = await peer();
    p.start();
    p.send(h2Frame(FrameType.PING, 0, 0, Buffer.from('12345678')), h2Frame(FrameType.HEADERS, Flag.END_HEADERS, 1, REQUEST), h2Frame(FrameType.DATA, Flag.END_STREAM, 1, Buffer.from('hi')));
    await p.until('trailers', () => p.of(FrameType.HEADERS, 1).length === 2);
    const settings = p.of(FrameType.SETTINGS).find((f) => !(f.flags & Flag.ACK))!;
    expect(settings.payload.length % 6).toBe(0);
    expect(p.frames[0]!.type).toBe(FrameType.SETTINGS);
    expect(p.of(FrameType.SETTINGS).some((f) => f.flags & Flag.ACK)).toBe(true);
    expect(p.of(FrameType.PING)[0]).toMatchObject({ flags: Flag.ACK, payload: Buffer.from('12345678') });
    const [headers, trailers] = p.of(FrameType.HEADERS, 1);
    expect(p.decoder.decode(headers!.payload)).toEqual([[':status', '200']]);
    expect(p.dataBytes(1)).toBe(2);
    expect(trailers!.flags & Flag.END_STREAM).toBe(Flag.END_STREAM);
    expect(conns[0]!.openStreams).toBe(0);
  });

  it('closes a connection that does not start with the preface', async () => {
    const p = await peer();
    p.send(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    await p.until('close', () => p.closed);
  });

  it('reads padded HEADERS with a priority, padded DATA, CONTINUATION, and ignores PRIORITY frames', async () => {
    let got: { path?: string; body: string } = { body: '' };
    const p = await peer({}, (s) => {
      got.path = s.header(':path');
      s.onData = (d) => (got.body += d.toString());
      answer(s);
    });
    p.start();
    const padded = Buffer.concat([Buffer.from([3]), Buffer.from([0, 0, 0, 0, 16]), REQUEST.subarray(0, 10), Buffer.alloc(3)]);
    p.send(
      h2Frame(FrameType.HEADERS, Flag.PADDED | Flag.PRIORITY, 1, padded),
      h2Frame(FrameType.CONTINUATION, Flag.END_HEADERS, 1, REQUEST.subarray(10)),
      h2Frame(FrameType.PRIORITY, 0, 3, Buffer.from([0, 0, 0, 1, 16])),
      h2Frame(FrameType.DATA, Flag.PADDED | Flag.END_STREAM, 1, Buffer.concat([Buffer.from([4]), Buffer.from('body'), Buffer.alloc(4)])),
    );
    await p.until('answer', () => p.of(FrameType.HEADERS, 1).length === 2);
    expect(got).toEqual({ path: '/x', body: 'body' });
  });

  it('splits a header block larger than the peer\'s frame size into HEADERS and CONTINUATION', async () => {
    const fields: Array<[string, string]> = [[':status', '200'], ['grpc-status', '13'], ['grpc-message', 'm'.repeat(40_000)]];
    const p = await peer({}, (s) => s.respond(hpackEncode(fields), true));
    p.start();
    p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, REQUEST));
    await p.until('the whole block', () => p.frames.some((f) => f.id === 1 && f.flags & Flag.END_HEADERS));
    const parts = p.frames.filter((f) => f.id === 1);
    expect(parts.map((f) => f.type)).toEqual([FrameType.HEADERS, FrameType.CONTINUATION, FrameType.CONTINUATION]);
    expect(parts[0]!.flags & Flag.END_STREAM).toBe(Flag.END_STREAM);
    expect(p.decoder.decode(Buffer.concat(parts.map((f) => f.payload)))).toEqual(fields);
  });

  it('sends an answer larger than the peer\'s window as the peer opens it, never past it', async () => {
    const body = Buffer.alloc(200_000, 7);
    const p = await peer({}, (s) => answer(s, body));
    p.start(setting(Setting.INITIAL_WINDOW_SIZE, 1000));
    p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, REQUEST));
    await p.until('the first window', () => p.dataBytes(1) === 1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(p.dataBytes(1)).toBe(1000);
    // The stream's window opens wide; the connection's (65535) then bounds it.
    p.send(h2Frame(FrameType.WINDOW_UPDATE, 0, 1, u32(1_000_000)));
    await p.until('the connection window', () => p.dataBytes(1) === 65_535);
    await new Promise((r) => setTimeout(r, 100));
    expect(p.dataBytes(1)).toBe(65_535);
    p.send(h2Frame(FrameType.WINDOW_UPDATE, 0, 0, u32(1_000_000)));
    await p.until('all of it and the trailers', () => p.of(FrameType.HEADERS, 1).length === 2);
    expect(p.dataBytes(1)).toBe(body.length);
    expect(Math.max(...p.of(FrameType.DATA, 1).map((f) => f.payload.length))).toBeLessThanOrEqual(16_384);
  });

  it('gives window back as it reads, and resets a stream sent more than its window', async () => {
    // Stream 1 reads as DATA comes; stream 3's handler reads nothing (a relay whose target is stuck).
    const p = await peer({}, (s) => (s.manualWindow = s.id === 3));
    p.start();
    const chunk = Buffer.alloc(16_384);
    const frames = Array.from({ length: 40 }, () => h2Frame(FrameType.DATA, 0, 1, chunk)); // 640 KiB
    p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS, 1, REQUEST), ...frames);
    await p.until('a WINDOW_UPDATE for the stream', () => p.of(FrameType.WINDOW_UPDATE, 1).length > 0);
    // A peer ignoring the window: more than 1 MiB on stream 3, which gave none back.
    p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS, 3, REQUEST), ...Array.from({ length: 65 }, () => h2Frame(FrameType.DATA, 0, 3, chunk)));
    await p.until('RST_STREAM FLOW_CONTROL_ERROR', () => p.of(FrameType.RST_STREAM, 3).length > 0, 8000);
    expect(p.of(FrameType.RST_STREAM, 3)[0]!.payload.readUInt32BE(0)).toBe(ErrorCode.FLOW_CONTROL_ERROR);
    expect(p.goAwayCode()).toBeUndefined();
  }, 15_000);

  it('on shutdown sends GOAWAY, refuses new streams, lets an open one finish, then ends the socket', async () => {
    let pending: H2Stream | undefined;
    const p = await peer({}, (s) => (pending = s));
    p.start();
    p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, REQUEST));
    await p.until('the stream', () => pending !== undefined);
    conns[0]!.shutdown();
    await p.until('GOAWAY', () => p.goAwayCode() !== undefined);
    expect(p.goAwayCode()).toBe(ErrorCode.NO_ERROR);
    expect(p.of(FrameType.GOAWAY)[0]!.payload.readUInt32BE(0)).toBe(1);
    p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 3, REQUEST));
    await p.until('refusal', () => p.of(FrameType.RST_STREAM, 3).length > 0);
    expect(p.of(FrameType.RST_STREAM, 3)[0]!.payload.readUInt32BE(0)).toBe(ErrorCode.REFUSED_STREAM);
    expect(p.closed).toBe(false);
    pending!.respond(hpackEncode([[':status', '200']]), true);
    await p.until('close', () => p.closed);
  });

  it('aborts a stream the peer resets, and every stream when the socket closes', async () => {
    const aborted: number[] = [];
    const p = await peer({}, (s) => (s.onAbort = (code) => aborted.push(code)));
    p.start();
    p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS, 1, REQUEST), h2Frame(FrameType.HEADERS, Flag.END_HEADERS, 3, REQUEST), h2Frame(FrameType.RST_STREAM, 0, 1, u32(ErrorCode.CANCEL)));
    await new Promise((r) => setTimeout(r, 100));
    expect(aborted).toEqual([ErrorCode.CANCEL]);
    p.sock.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(aborted).toEqual([ErrorCode.CANCEL, ErrorCode.CANCEL]);
  });

  describe('a hostile peer at each bound', () => {
    it('a header block past the bound (a CONTINUATION flood): GOAWAY ENHANCE_YOUR_CALM', async () => {
      const p = await peer();
      p.start();
      p.send(h2Frame(FrameType.HEADERS, 0, 1, REQUEST), ...Array.from({ length: 10 }, () => h2Frame(FrameType.CONTINUATION, 0, 1, Buffer.alloc(1000, 0x82))));
      await p.until('GOAWAY', () => p.goAwayCode() !== undefined);
      expect(p.goAwayCode()).toBe(ErrorCode.ENHANCE_YOUR_CALM);
      await p.until('close', () => p.closed);
    });

    it('a small block decoding past the header list bound: GOAWAY ENHANCE_YOUR_CALM', async () => {
      const p = await peer();
      p.start();
      const big = Buffer.concat([Buffer.from([0x40, 3]), Buffer.from('big'), hpackInt(2000, 7, 0), Buffer.alloc(2000, 0x61)]);
      p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, Buffer.concat([REQUEST, big])));
      await p.until('the answer', () => p.of(FrameType.HEADERS, 1).length === 2);
      p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 3, Buffer.concat([REQUEST, Buffer.alloc(10, 0xbe)])));
      await p.until('GOAWAY', () => p.goAwayCode() !== undefined);
      expect(p.goAwayCode()).toBe(ErrorCode.ENHANCE_YOUR_CALM);
    });

    it('more streams than SETTINGS_MAX_CONCURRENT_STREAMS: the extra one refused, the rest served', async () => {
      const held: H2Stream[] = [];
      const p = await peer({}, (s) => held.push(s));
      p.start();
      for (let id = 1; id <= 9; id += 2) p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, id, REQUEST));
      await p.until('refusal', () => p.of(FrameType.RST_STREAM, 9).length > 0);
      expect(p.of(FrameType.RST_STREAM, 9)[0]!.payload.readUInt32BE(0)).toBe(ErrorCode.REFUSED_STREAM);
      expect(held.map((s) => s.id)).toEqual([1, 3, 5, 7]);
      const advertised = p.of(FrameType.SETTINGS).find((f) => !(f.flags & Flag.ACK))!.payload;
      expect(advertised.subarray(0, 6)).toEqual(setting(Setting.MAX_CONCURRENT_STREAMS, 4));
    });

    it('rapid reset: streams opened and reset past the burst get GOAWAY ENHANCE_YOUR_CALM', async () => {
      const p = await peer({}, () => undefined);
      p.start();
      const frames: Buffer[] = [];
      for (let i = 0; i < 30; i++) {
        const id = 2 * i + 1;
        frames.push(h2Frame(FrameType.HEADERS, Flag.END_HEADERS, id, REQUEST), h2Frame(FrameType.RST_STREAM, 0, id, u32(ErrorCode.CANCEL)));
      }
      p.send(...frames);
      await p.until('GOAWAY', () => p.goAwayCode() !== undefined);
      expect(p.goAwayCode()).toBe(ErrorCode.ENHANCE_YOUR_CALM);
      // The burst (20) was served before the refusal.
      expect(p.of(FrameType.GOAWAY)[0]!.payload.readUInt32BE(0)).toBeGreaterThanOrEqual(39);
    });

    it('a PING flood from a peer that does not read: GOAWAY ENHANCE_YOUR_CALM once the unread output passes the bound', async () => {
      const p = await peer();
      p.start();
      p.sock.pause();
      const ping = h2Frame(FrameType.PING, 0, 0, Buffer.alloc(8));
      // 40 bursts of 10000 PINGs: 6.8 MB of ACKs asked for, far past the bound plus the kernel's socket buffers.
      const burst = Buffer.concat(Array.from({ length: 10_000 }, () => ping));
      for (let i = 0; i < 40 && !p.sock.destroyed; i++) {
        p.send(burst);
        await new Promise((r) => setTimeout(r, 10));
      }
      p.sock.resume();
      await p.until('GOAWAY', () => p.goAwayCode() !== undefined, 10_000);
      expect(p.goAwayCode()).toBe(ErrorCode.ENHANCE_YOUR_CALM);
      expect(p.of(FrameType.PING).length).toBeLessThan(400_000);
      await p.until('close', () => p.closed, 5000);
    }, 20_000);

    it('answers held for a window the peer keeps shut: GOAWAY ENHANCE_YOUR_CALM once they pass the bound', async () => {
      const p = await peer({}, (s) => answer(s, Buffer.alloc(100_000)));
      p.start(setting(Setting.INITIAL_WINDOW_SIZE, 0));
      p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, REQUEST), h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 3, REQUEST));
      await new Promise((r) => setTimeout(r, 100));
      expect(p.goAwayCode()).toBeUndefined(); // 200 KB held: under the bound
      p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 5, REQUEST));
      await p.until('GOAWAY', () => p.goAwayCode() !== undefined);
      expect(p.goAwayCode()).toBe(ErrorCode.ENHANCE_YOUR_CALM);
      expect(p.dataBytes(1) + p.dataBytes(3) + p.dataBytes(5)).toBe(0);
    });

    it('calls that fail at once, asked by a peer that does not read: GOAWAY ENHANCE_YOUR_CALM once the unread output passes the bound', async () => {
      const status = hpackEncode([[':status', '200'], ['grpc-status', '5'], ['grpc-message', 'x'.repeat(1000)]]);
      const p = await peer({}, (s) => s.respond(status, true));
      p.start();
      p.sock.pause();
      for (let batch = 0; batch < 10 && !p.sock.destroyed; batch++) {
        const frames: Buffer[] = [];
        for (let i = 0; i < 200; i++) frames.push(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 2 * (batch * 200 + i) + 1, REQUEST));
        p.send(...frames);
        await new Promise((r) => setTimeout(r, 20));
      }
      p.sock.resume();
      await p.until('GOAWAY', () => p.goAwayCode() !== undefined, 10_000);
      expect(p.goAwayCode()).toBe(ErrorCode.ENHANCE_YOUR_CALM);
      expect(p.of(FrameType.HEADERS).length).toBeLessThan(2000);
    }, 20_000);

    it('SETTINGS with more entries than the bound: GOAWAY ENHANCE_YOUR_CALM', async () => {
      const p = await peer();
      p.start(Buffer.concat(Array.from({ length: 9 }, () => setting(Setting.ENABLE_PUSH, 0))));
      await p.until('GOAWAY', () => p.goAwayCode() !== undefined);
      expect(p.goAwayCode()).toBe(ErrorCode.ENHANCE_YOUR_CALM);
    });

    it('malformed HPACK (an index past the table) and a table size above ours: GOAWAY COMPRESSION_ERROR', async () => {
      for (const block of [Buffer.from([0xff, 0x10]), Buffer.from([0x3f, 0xe2, 0x1f])]) {
        const p = await peer();
        p.start();
        p.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, block));
        await p.until('GOAWAY', () => p.goAwayCode() !== undefined);
        expect(p.goAwayCode(), block.toString('hex')).toBe(ErrorCode.COMPRESSION_ERROR);
      }
    });

    it('frames that break the protocol: GOAWAY PROTOCOL_ERROR or FRAME_SIZE_ERROR', async () => {
      const cases: Array<[Buffer, number]> = [
        [h2Frame(FrameType.HEADERS, Flag.END_HEADERS, 2, REQUEST), ErrorCode.PROTOCOL_ERROR], // even stream
        [h2Frame(FrameType.DATA, 0, 7, Buffer.from('x')), ErrorCode.PROTOCOL_ERROR], // idle stream
        [h2Frame(FrameType.PING, 0, 0, Buffer.alloc(4)), ErrorCode.FRAME_SIZE_ERROR],
        [h2Frame(FrameType.DATA, 0, 1, Buffer.alloc(17_000)), ErrorCode.FRAME_SIZE_ERROR], // past our max frame size
        [h2Frame(FrameType.WINDOW_UPDATE, 0, 0, u32(0x7fffffff)), ErrorCode.FLOW_CONTROL_ERROR],
      ];
      for (const [frame, code] of cases) {
        const p = await peer();
        p.start();
        p.send(frame);
        await p.until('GOAWAY', () => p.goAwayCode() !== undefined);
        expect(p.goAwayCode(), frame.subarray(0, 9).toString('hex')).toBe(code);
      }
    });

    it('a silent connection is closed at the handshake timeout, an idle one with GOAWAY at the idle timeout', async () => {
      const silent = await peer({ handshakeTimeoutMs: 100 });
      await silent.until('close', () => silent.closed);
      const idle = await peer({ idleTimeoutMs: 150 });
      idle.start();
      idle.send(h2Frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, REQUEST));
      await idle.until('GOAWAY', () => idle.goAwayCode() !== undefined);
      expect(idle.goAwayCode()).toBe(ErrorCode.NO_ERROR);
      await idle.until('close', () => idle.closed);
    });

    it('a silent peer gets a PING after the keepalive time and is closed when it does not answer; one that answers stays', async () => {
      const mute = await peer({ keepaliveTimeMs: 100, keepaliveTimeoutMs: 150 });
      mute.start();
      await mute.until('PING', () => mute.of(FrameType.PING).some((f) => !(f.flags & Flag.ACK)));
      await mute.until('close', () => mute.closed);
      const alive = await peer({ keepaliveTimeMs: 100, keepaliveTimeoutMs: 150 });
      alive.start();
      for (let i = 0; i < 8; i++) {
        await new Promise((r) => setTimeout(r, 60));
        for (const f of alive.of(FrameType.PING).filter((f) => !(f.flags & Flag.ACK)).slice(i ? -1 : 0)) alive.send(h2Frame(FrameType.PING, Flag.ACK, 0, f.payload));
      }
      expect(alive.of(FrameType.PING).length).toBeGreaterThan(0);
      expect(alive.closed).toBe(false);
    });
  });
});
