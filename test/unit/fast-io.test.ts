// The fast path's own I/O: the unix connection on libuv's pipe handle (and its node:net
// stand-in), and output written with write(2), against real sockets, FIFOs and /dev/full.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAST_TRANSPORTS, useFastTransport } from '../rig/fast-transport.js';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openUnixStream } from '../../src/fast/unix-stream.js';
import { writeAllSync, WRITTEN } from '../../src/fast/write-sync.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'isfio-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.each(FAST_TRANSPORTS)('a unix connection %s', (_name, net) => {
  let server: Server | undefined;
  useFastTransport(net);
  afterEach(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = undefined;
  });

  /** A peer that reads `expect` bytes, then answers `reply` in pieces and closes (or stays open). */
  async function peer(reply: Buffer, opts: { expectBytes: number; stayOpen?: boolean }): Promise<{ sock: string; got: Promise<Buffer> }> {
    const sock = join(dir, 'p.sock');
    let gotIt!: (b: Buffer) => void;
    const got = new Promise<Buffer>((r) => (gotIt = r));
    server = createServer((c) => {
      const seen: Buffer[] = [];
      let n = 0;
      c.on('error', () => undefined);
      c.on('data', (b: Buffer) => {
        seen.push(b);
        n += b.length;
        if (n < opts.expectBytes) return;
        gotIt(Buffer.concat(seen));
        for (let i = 0; i < reply.length; i += 100_000) c.write(reply.subarray(i, i + 100_000));
        if (!opts.stayOpen) c.end();
      });
    });
    await new Promise<void>((r) => server!.listen(sock, r));
    return { sock, got };
  }

  it('sends the first bytes and a later write, takes every byte of a long answer, and ends once at EOF', async () => {
    const reply = Buffer.alloc(1_000_000);
    for (let i = 0; i < reply.length; i++) reply[i] = i % 251;
    const { sock, got } = await peer(reply, { expectBytes: 5 });
    const chunks: Buffer[] = [];
    let ends = 0;
    await new Promise<void>((resolve) => {
      const s = openUnixStream(sock, Buffer.from('abc'), {
        data: (c) => chunks.push(Buffer.from(c)),
        end: () => {
          ends++;
          resolve();
        },
      });
      s.write(Buffer.from('de'));
    });
    expect((await got).toString()).toBe('abcde');
    expect(Buffer.concat(chunks).equals(reply)).toBe(true);
    expect(ends).toBe(1);
  });

  it('sends a write larger than the socket buffers whole and in order', async () => {
    const big = Buffer.alloc(4 << 20);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(i, i);
    const { sock, got } = await peer(Buffer.from('ok'), { expectBytes: 1 + big.length });
    await new Promise<void>((resolve) => {
      const s = openUnixStream(sock, Buffer.from('a'), { data: () => undefined, end: resolve });
      s.write(big);
    });
    expect((await got).equals(Buffer.concat([Buffer.from('a'), big]))).toBe(true);
  });

  it('ends once, closed here, with the peer still open; writes after that go nowhere', async () => {
    const { sock } = await peer(Buffer.from('hello'), { expectBytes: 1, stayOpen: true });
    let ends = 0;
    await new Promise<void>((resolve) => {
      const s = openUnixStream(sock, Buffer.from('x'), {
        data: () => {
          s.close();
          s.write(Buffer.from('more'));
          s.close();
          resolve();
        },
        end: () => ends++,
      });
    });
    expect(ends).toBe(1);
  });

  it('ends at once for a socket nobody listens on and for a path that is not there', async () => {
    for (const path of [join(dir, 'absent.sock'), join(dir, 'no-dir', 'x.sock')]) {
      const ended = await new Promise<boolean>((resolve) => {
        openUnixStream(path, Buffer.from('x'), { data: () => resolve(false), end: () => resolve(true) });
      });
      expect(ended, path).toBe(true);
    }
  });
});

describe('output written with write(2)', () => {
  it('writes everything to a file', () => {
    const file = join(dir, 'out');
    const fd = openSync(file, 'w');
    try {
      expect(writeAllSync(fd, 'héllo\n'.repeat(50_000))).toBe(WRITTEN);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe('héllo\n'.repeat(50_000));
  });

  it('answers null when the reader has gone (EPIPE), and the rest when a non-blocking pipe is full', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      const text = 'x'.repeat(1_000_000); // past the 64 KiB a pipe holds
      const left = writeAllSync(writer, text);
      expect(left).not.toBeNull();
      expect(left!.length).toBeGreaterThan(0);
      expect(left!.length).toBeLessThan(text.length);
      closeSync(reader);
      expect(writeAllSync(writer, 'more')).toBeNull();
    } finally {
      closeSync(writer);
    }
  });

  it('throws what is neither, such as a full disk', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      expect(() => writeAllSync(fd, 'x')).toThrow(/ENOSPC/);
    } finally {
      closeSync(fd);
    }
  });
});
