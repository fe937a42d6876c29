import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import {
  encodeFrame, FLAG_FIN, FrameParser, HeaderCompressor, HeaderDecompressor, SPDY3_DICTIONARY, SpdyProtocolError,
  type SpdyFrame, type SpdyHeaders, decodeHeaderBlock, encodeHeaderBlock,
} from '../../src/protocols/spdy/index.js';
import { MAX_CONTROL_FRAME_LENGTH } from '../../src/protocols/spdy/frames.js';
import { MAX_HEADER_BLOCK_BYTES } from '../../src/protocols/spdy/header-compression.js';

const frames: SpdyFrame[] = [
  { type: 'data', streamId: 5, flags: FLAG_FIN, data: Buffer.from('hello') },
  { type: 'data', streamId: 0x7fffffff, flags: 0, data: Buffer.alloc(0) },
  { type: 'syn_stream', streamId: 3, associatedId: 1, priority: 7, slot: 2, flags: 2, headerBlock: Buffer.from([1, 2, 3]) },
  { type: 'syn_reply', streamId: 3, flags: FLAG_FIN, headerBlock: Buffer.from([9]) },
  { type: 'headers', streamId: 9, flags: 0, headerBlock: Buffer.from([4, 5]) },
  { type: 'rst_stream', streamId: 7, status: 5 },
  { type: 'settings', flags: 1, settings: [{ id: 7, value: 1 << 20, flags: 1 }, { id: 4, value: 100, flags: 0 }] },
  { type: 'ping', id: 0xfffffffe },
  { type: 'goaway', lastGoodStreamId: 11, status: 2 },
  { type: 'window_update', streamId: 1, delta: 0x7fffffff },
];

describe('SPDY frame codec', () => {
  it.each(frames.map((f) => [f.type, f] as const))('round-trips a %s frame', (_name, frame) => {
    const parsed = new FrameParser().push(encodeFrame(frame));
    expect(parsed).toEqual([frame]);
  });

  it('lays out a control frame header as version 3, type, flags and 24-bit length', () => {
    const bytes = encodeFrame({ type: 'ping', id: 1 });
    expect([...bytes]).toEqual([0x80, 0x03, 0x00, 0x06, 0x00, 0x00, 0x00, 0x04, 0, 0, 0, 1]);
  });

  it('lays out a data frame as stream id, flags and length', () => {
    const bytes = encodeFrame({ type: 'data', streamId: 1, flags: FLAG_FIN, data: Buffer.from('a') });
    expect([...bytes]).toEqual([0, 0, 0, 1, 0x01, 0, 0, 1, 0x61]);
  });

  it('parses frames fed one byte at a time', () => {
    const all = Buffer.concat(frames.map(encodeFrame));
    const parser = new FrameParser();
    const out: SpdyFrame[] = [];
    for (const byte of all) out.push(...parser.push(Buffer.from([byte])));
    expect(out).toEqual(frames);
  });

  it('parses several frames from one chunk and keeps a partial tail for later', () => {
    const all = Buffer.concat(frames.map(encodeFrame));
    const parser = new FrameParser();
    const first = parser.push(all.subarray(0, all.length - 3));
    expect(first).toEqual(frames.slice(0, -1));
    expect(parser.push(all.subarray(all.length - 3))).toEqual(frames.slice(-1));
  });

  it('rejects a control frame of another SPDY version', () => {
    const bytes = encodeFrame({ type: 'ping', id: 1 });
    bytes[1] = 2;
    expect(() => new FrameParser().push(bytes)).toThrow(SpdyProtocolError);
  });

  it('rejects a frame longer than the configured limit', () => {
    const bytes = encodeFrame({ type: 'data', streamId: 1, flags: 0, data: Buffer.alloc(100) });
    expect(() => new FrameParser(50).push(bytes)).toThrow(/exceeds limit/);
  });

  it('rejects a truncated RST_STREAM', () => {
    const bytes = Buffer.from([0x80, 0x03, 0x00, 0x03, 0, 0, 0, 4, 0, 0, 0, 1]);
    expect(() => new FrameParser().push(bytes)).toThrow(/too short/);
  });
});

describe('SPDY header blocks', () => {
  it('builds the 1423-byte SPDY/3 dictionary', () => {
    expect(SPDY3_DICTIONARY.length).toBe(1423);
    expect(SPDY3_DICTIONARY.subarray(0, 11)).toEqual(Buffer.from('\0\0\0\x07options', 'latin1'));
    expect(SPDY3_DICTIONARY.subarray(-6).toString()).toBe('enq=0.');
  });

  it('encodes lowercase names with 32-bit lengths and joins repeated values with NUL', () => {
    const raw = encodeHeaderBlock({ StreamType: 'stdout' });
    expect(raw).toEqual(Buffer.concat([
      Buffer.from([0, 0, 0, 1, 0, 0, 0, 10]), Buffer.from('streamtype'), Buffer.from([0, 0, 0, 6]), Buffer.from('stdout'),
    ]));
    const withDup = Buffer.concat([
      Buffer.from([0, 0, 0, 2]),
      Buffer.from([0, 0, 0, 1]), Buffer.from('a'), Buffer.from([0, 0, 0, 1]), Buffer.from('x'),
      Buffer.from([0, 0, 0, 1]), Buffer.from('A'), Buffer.from([0, 0, 0, 1]), Buffer.from('y'),
    ]);
    expect(decodeHeaderBlock(withDup)).toEqual({ a: 'x\0y' });
  });

  it('rejects a header block whose lengths run past its end', () => {
    expect(() => decodeHeaderBlock(Buffer.from([0, 0, 0, 1, 0, 0, 0, 9, 0x61]))).toThrow(SpdyProtocolError);
  });

  it('decodes blocks a peer compressed one after another with one shared context', async () => {
    const rx = new HeaderDecompressor();
    const blocks: Record<string, string>[] = [
      { streamtype: 'error' },
      { streamtype: 'stdin', port: '8080' },
      { streamtype: 'stdout', requestid: '1' },
      { streamtype: 'stdout', requestid: '1' },
    ];
    const peer = peerDeflater();
    const compressed: Buffer[] = [];
    for (const h of blocks) compressed.push(await peer.compress(encodeHeaderBlock(h)));
    // The shared context makes a repeated block much smaller than the first time.
    expect(compressed[3]!.length).toBeLessThan(compressed[2]!.length);
    expect(await Promise.all(compressed.map((c) => rx.decompress(c)))).toEqual(blocks);
    peer.close();
    rx.close();
  });

  it('decodes a long connection\'s blocks in order, past the point where it moves to an inflate stream', async () => {
    // A port-forward connection opens two streams per forwarded connection: hundreds of blocks,
    // well past the first 4 KiB that are inflated in place. Handed in all at once, as frames arrive.
    const rx = new HeaderDecompressor();
    const peer = peerDeflater();
    const blocks: SpdyHeaders[] = Array.from({ length: 400 }, (_, i) => ({ streamtype: i % 2 ? 'data' : 'error', port: '8080', requestid: String(i) }));
    const compressed: Buffer[] = [];
    for (const h of blocks) compressed.push(await peer.compress(encodeHeaderBlock(h)));
    expect(compressed.reduce((n, c) => n + c.length, 0)).toBeGreaterThan(4096);
    expect(await Promise.all(compressed.map((c) => rx.decompress(c)))).toEqual(blocks);
    // And one at a time.
    const rx2 = new HeaderDecompressor();
    for (let i = 0; i < blocks.length; i++) expect(await rx2.decompress(compressed[i]!)).toEqual(blocks[i]);
    peer.close();
    rx.close();
    rx2.close();
  });

  it('writes blocks that one long-lived peer inflater decodes one by one, each complete on its own', async () => {
    const tx = new HeaderCompressor();
    const peer = peerInflater();
    const blocks: SpdyHeaders[] = [{ streamtype: 'error' }, { streamtype: 'stdout' }, { streamtype: 'stderr', port: '1' }, { big: 'v'.repeat(70_000) }];
    for (const h of blocks) expect(decodeHeaderBlock(await peer.inflate(await tx.compress(h)))).toEqual(h);
    peer.close();
  });

  it('writes what zlib writes at level 0 with a sync flush after each block, byte for byte', async () => {
    const tx = new HeaderCompressor();
    const level0 = peerDeflater(0);
    // (Blocks past 64 KiB split into stored blocks where zlib's buffers decide: the round trip above covers them.)
    const blocks: SpdyHeaders[] = [{ streamtype: 'error' }, { streamtype: 'stdout', port: '80' }, { v: 'x'.repeat(4000) }, {}];
    for (const h of blocks) {
      const ours = await tx.compress(h);
      expect(ours.equals(await level0.compress(encodeHeaderBlock(h)))).toBe(true);
      // Ends on the sync flush marker (Go's inflater hands out a block's data only when it sees the next block).
      expect([...ours.subarray(-4)]).toEqual([0x00, 0x00, 0xff, 0xff]);
    }
    level0.close();
  });

  it('names the SPDY dictionary in its zlib header as zlib does at its default level', async () => {
    const ours = await new HeaderCompressor().compress({ a: 'b' });
    const peer = peerDeflater();
    const zlibs = await peer.compress(encodeHeaderBlock({ a: 'b' }));
    peer.close();
    // Same method and dictionary ID; the level bits differ (informational only).
    expect(ours[0]).toBe(zlibs[0]);
    expect(ours.subarray(2, 6)).toEqual(zlibs.subarray(2, 6));
  });

  it('cannot decode a later block with a fresh context, proving the context is shared', async () => {
    const tx = new HeaderCompressor();
    await tx.compress({ streamtype: 'error' });
    const second = await tx.compress({ streamtype: 'error' });
    await expect(new HeaderDecompressor().decompress(second)).rejects.toThrow(SpdyProtocolError);
  });

  it('decodes a block split from its neighbours exactly at frame boundaries', async () => {
    const tx = new HeaderCompressor();
    const rx = new HeaderDecompressor();
    const headers = Array.from({ length: 5 }, (_, i) => ({ streamtype: 'data', port: String(8000 + i), requestid: String(i) }));
    const wire = Buffer.concat(await Promise.all(headers.map(async (h, i) =>
      encodeFrame({ type: 'syn_stream', streamId: 2 * i + 1, associatedId: 0, priority: 0, slot: 0, flags: 0, headerBlock: await tx.compress(h) }))));
    const parser = new FrameParser();
    const got: unknown[] = [];
    for (let off = 0; off < wire.length; off += 7) {
      for (const f of parser.push(wire.subarray(off, off + 7))) {
        if (f.type === 'syn_stream') got.push(await rx.decompress(f.headerBlock));
      }
    }
    expect(got).toEqual(headers);
  });

  it('produces zlib data primed with the SPDY dictionary that plain zlib can inflate', async () => {
    const block = await new HeaderCompressor().compress({ ':method': 'GET' });
    const inflated = zlib.inflateSync(block, { dictionary: SPDY3_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    expect(decodeHeaderBlock(inflated)).toEqual({ ':method': 'GET' });
  });

});

/** A peer's zlib context for one direction of a connection, as Go's SPDY framer keeps one. */
describe('SPDY limits', () => {
  /** A header block of one header whose value makes the block `size` bytes raw. */
  const blockOf = (size: number): Buffer => encodeHeaderBlock({ x: 'a'.repeat(size - 4 - 4 - 1 - 4) });

  it('refuses a control frame past the limit from its header alone, before buffering it', () => {
    const head = Buffer.from([0x80, 0x03, 0x00, 0x01, 0, 0, 0, 0]);
    head.writeUIntBE(MAX_CONTROL_FRAME_LENGTH + 1, 5, 3);
    expect(() => new FrameParser().push(head)).toThrow(/control frame of \d+ bytes exceeds limit/);
  });

  it('still takes DATA frames up to the protocol\'s 16 MiB', () => {
    const data = Buffer.alloc(2 << 20, 1);
    const [frame] = new FrameParser().push(encodeFrame({ type: 'data', streamId: 1, flags: 0, data }));
    expect(frame).toMatchObject({ type: 'data', streamId: 1 });
  });

  it('decodes a block of exactly the limit, inflated in place and through the inflate stream', async () => {
    expect(blockOf(MAX_HEADER_BLOCK_BYTES).length).toBe(MAX_HEADER_BLOCK_BYTES);
    const first = zlib.deflateSync(blockOf(MAX_HEADER_BLOCK_BYTES), { dictionary: SPDY3_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    expect((await new HeaderDecompressor().decompress(first)).x!.length).toBe(MAX_HEADER_BLOCK_BYTES - 13);
    const { rx, peer } = await pastTheInPlacePrefix();
    expect((await rx.decompress(await peer.compress(blockOf(MAX_HEADER_BLOCK_BYTES)))).x!.length).toBe(MAX_HEADER_BLOCK_BYTES - 13);
    peer.close();
    rx.close();
  });

  it('refuses a first block that inflates past the limit (a few KiB of deflate)', async () => {
    const bomb = zlib.deflateSync(blockOf(8 << 20), { dictionary: SPDY3_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    expect(bomb.length).toBeLessThan(16_384);
    await expect(new HeaderDecompressor().decompress(bomb)).rejects.toThrow(/inflates past 1048576 bytes/);
  });

  it('refuses a later block that inflates past the limit, and fails the blocks queued behind it (it never waits for good)', async () => {
    const { rx, peer } = await pastTheInPlacePrefix();
    const bomb = await peer.compress(blockOf(8 << 20));
    const next = await peer.compress(encodeHeaderBlock({ streamtype: 'error' }));
    const results = await Promise.allSettled([rx.decompress(bomb), rx.decompress(next)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/inflates past 1048576 bytes/);
    peer.close();
    rx.close();
  });
});

/** A decompressor past its first 4 KiB (which it inflates in place), and the peer's deflater in step with it. */
async function pastTheInPlacePrefix(): Promise<{ rx: HeaderDecompressor; peer: ReturnType<typeof peerDeflater> }> {
  const rx = new HeaderDecompressor();
  const peer = peerDeflater();
  let sent = 0;
  for (let i = 0; sent <= 4096; i++) {
    const block = await peer.compress(encodeHeaderBlock({ streamtype: 'data', requestid: String(i) }));
    sent += block.length;
    await rx.decompress(block);
  }
  return { rx, peer };
}

function peerDeflater(level?: number): { compress: (raw: Buffer) => Promise<Buffer>; close: () => void } {
  const z = zlib.createDeflate({ dictionary: SPDY3_DICTIONARY, level, highWaterMark: 1 << 20 } as zlib.ZlibOptions);
  return {
    compress: (raw) => new Promise((resolve) => {
      z.write(raw);
      z.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        const parts: Buffer[] = [];
        for (let c = z.read() as Buffer | null; c; c = z.read() as Buffer | null) parts.push(c);
        resolve(Buffer.concat(parts));
      });
    }),
    close: () => z.close(),
  };
}

function peerInflater(): { inflate: (block: Buffer) => Promise<Buffer>; close: () => void } {
  const z = zlib.createInflate({ dictionary: SPDY3_DICTIONARY, highWaterMark: 1 << 20 } as zlib.ZlibOptions);
  return {
    inflate: (block) => new Promise((resolve) => {
      z.write(block);
      z.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        const parts: Buffer[] = [];
        for (let c = z.read() as Buffer | null; c; c = z.read() as Buffer | null) parts.push(c);
        resolve(Buffer.concat(parts));
      });
    }),
    close: () => z.close(),
  };
}
