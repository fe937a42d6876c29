// Header block compression: one zlib context per direction for the whole connection, primed
// with the SPDY/3 dictionary, each block ending on a byte boundary (a sync flush point) so the
// peer can decode it without waiting for more.
//
// Outgoing blocks are zlib "stored" blocks, byte for byte what deflate at level 0 writes with a
// sync flush after each block, framed here by hand: header
// blocks are a few hundred bytes on a node-local connection, and a real deflate context per
// connection (about 256 KiB of state, dictionary priming, a thread-pool round trip per block)
// cost more than every byte it saved. Any inflater reads them: the zlib header names the SPDY
// dictionary as real deflaters do, and the stored data needs no dictionary.
//
// Incoming blocks are inflated in place while the connection is young (see HeaderDecompressor),
// then through Node's inflate stream, which is asynchronous, so they run one at a time through a
// promise chain: callers must also keep frames in the order their blocks were handed in (the
// connection's queues do).
import zlib from 'node:zlib';
import { SPDY3_DICTIONARY } from './dictionary.js';
import { decodeHeaderBlock, encodeHeaderBlock, type SpdyHeaders } from './header-block.js';
import { SpdyProtocolError } from './frames.js';

/**
 * The most a header block may inflate to. spdystream (kubelet's SPDY) sets none; this is Go
 * net/http's DefaultMaxHeaderBytes, the cap kubelet's server puts on the upgrade request's headers.
 * A remotecommand or port-forward block is a few hundred bytes.
 */
export const MAX_HEADER_BLOCK_BYTES = 1 << 20;

/**
 * Feeds blocks through one long-lived zlib stream, returning each block's flushed output. The
 * output is taken as it comes (zlib would otherwise stop at its buffer's end and never call the
 * flush back), and an input inflating past its `maxOutput` fails the stream, and with it the
 * connection: its shared context can no longer be trusted.
 */
class SharedZlib {
  private chain: Promise<unknown> = Promise.resolve();
  private failed: Error | undefined;
  private current: { resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  private out: Buffer[] = [];
  private outBytes = 0;
  private maxOutput = Infinity;

  constructor(private readonly z: zlib.Deflate | zlib.Inflate) {
    z.on('error', (err: Error) => this.fail(err));
    z.on('readable', () => this.drain());
  }

  /** `maxOutput`: what this input may produce at most. */
  process(input: Buffer, maxOutput = Infinity): Promise<Buffer> {
    const run = (): Promise<Buffer> => new Promise<Buffer>((resolve, reject) => {
      if (this.failed) {
        reject(this.failed);
        return;
      }
      this.current = { resolve, reject };
      this.out = [];
      this.outBytes = 0;
      this.maxOutput = maxOutput;
      this.z.write(input);
      this.z.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        this.drain();
        const current = this.current;
        this.current = undefined;
        if (!current) return; // already failed
        if (this.failed) current.reject(this.failed);
        else current.resolve(this.out.length === 1 ? this.out[0]! : Buffer.concat(this.out));
      });
    });
    const result = this.chain.then(run);
    this.chain = result.catch(() => {});
    return result;
  }

  private drain(): void {
    for (let c = this.z.read() as Buffer | null; c !== null; c = this.z.read() as Buffer | null) {
      this.out.push(c);
      this.outBytes += c.length;
      if (this.outBytes > this.maxOutput) {
        this.fail(new Error(`header block inflates past ${this.maxOutput} bytes`));
        return;
      }
    }
  }

  private fail(err: Error): void {
    this.failed ??= err;
    this.out = [];
    const current = this.current;
    this.current = undefined;
    current?.reject(this.failed);
    // A destroyed stream never calls a pending flush back: the waiter was answered above.
    this.z.destroy();
  }

  close(): void {
    this.z.close();
  }
}

// A large readable buffer keeps zlib from pausing mid-block waiting for a reader.
const STREAM_OPTS = { dictionary: SPDY3_DICTIONARY, highWaterMark: 1 << 20 } as const;

/** zlib header as zlib writes it at level 0: deflate, 32 KiB window, FDICT set, then the dictionary's Adler-32. */
const STREAM_HEADER = Buffer.concat([Buffer.from([0x78, 0x3f]), adler32(SPDY3_DICTIONARY)]);
const MAX_STORED = 0xffff;
const SYNC_FLUSH = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);

export class HeaderCompressor {
  private started = false;

  compress(headers: SpdyHeaders): Promise<Buffer> {
    return Promise.resolve(this.compressSync(headers));
  }

  compressSync(headers: SpdyHeaders): Buffer {
    const raw = encodeHeaderBlock(headers);
    const parts: Buffer[] = [];
    if (!this.started) {
      this.started = true;
      parts.push(STREAM_HEADER);
    }
    // Non-final stored blocks: BFINAL 0, BTYPE 00, padded to the byte; LEN and its complement, little-endian.
    // (A header block is never empty: it starts with its entry count.)
    for (let off = 0; off < raw.length; off += MAX_STORED) {
      const len = Math.min(MAX_STORED, raw.length - off);
      const head = Buffer.alloc(5);
      head.writeUInt16LE(len, 1);
      head.writeUInt16LE(~len & 0xffff, 3);
      parts.push(head, raw.subarray(off, off + len));
    }
    // The sync flush marker, an empty stored block: Go's inflater hands out a block's data only
    // when it reaches the next block, so without it the last bytes would wait for the next frame.
    parts.push(SYNC_FLUSH);
    return Buffer.concat(parts);
  }

  close(): void {}
}

function adler32(data: Buffer): Buffer {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const out = Buffer.alloc(4);
  out.writeUInt32BE(((b << 16) | a) >>> 0);
  return out;
}

/** Compressed bytes a connection's first blocks may add up to while they are inflated in place. */
const SYNC_PREFIX_MAX = 4096;

/**
 * A session's first few header blocks (an exec's four or five streams, each a round trip the client
 * waits for) are inflated synchronously: the whole stream so far goes through inflateSync, and the
 * new block's output is what follows the previous one's. That costs a few kilobytes of inflating
 * per block, so past SYNC_PREFIX_MAX the connection moves to one long-lived inflate stream, fed
 * the prefix first to reach the same state.
 */
export class HeaderDecompressor {
  private prefix: Buffer[] | undefined = [];
  private prefixBytes = 0;
  private produced = 0;
  private z: SharedZlib | undefined;

  constructor(private readonly maxBlockBytes = MAX_HEADER_BLOCK_BYTES) {}

  async decompress(block: Buffer): Promise<SpdyHeaders> {
    let raw: Buffer;
    try {
      raw = this.prefix && this.prefixBytes + block.length <= SYNC_PREFIX_MAX ? this.inflateInPlace(this.prefix, block) : await this.inflateStream(block);
    } catch (err) {
      throw new SpdyProtocolError(`header block decompression failed: ${(err as Error).message}`);
    }
    return decodeHeaderBlock(raw);
  }

  private inflateInPlace(prefix: Buffer[], block: Buffer): Buffer {
    prefix.push(block);
    this.prefixBytes += block.length;
    // Bounded: a few kilobytes of deflate can expand a thousandfold.
    let all: Buffer;
    try {
      all = zlib.inflateSync(Buffer.concat(prefix), {
        dictionary: SPDY3_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: this.produced + this.maxBlockBytes,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new Error(`header block inflates past ${this.maxBlockBytes} bytes`);
      throw err;
    }
    const raw = all.subarray(this.produced);
    this.produced = all.length;
    return raw;
  }

  private inflateStream(block: Buffer): Promise<Buffer> {
    if (!this.z) {
      // Set up before any await: blocks that follow queue behind the prefix on the stream's chain.
      this.z = new SharedZlib(zlib.createInflate(STREAM_OPTS));
      const prefix = Buffer.concat(this.prefix ?? []);
      this.prefix = undefined;
      // Its blocks were each within the bound already.
      if (prefix.length > 0) this.z.process(prefix).catch(() => undefined); // its failure fails the block below too
    }
    return this.z.process(block, this.maxBlockBytes);
  }

  close(): void {
    this.z?.close();
  }
}
