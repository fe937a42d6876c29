// Header block compression: zlib primed with the SPDY/3 dictionary, one
// context per direction for the whole connection, each block ended with a
// Z_SYNC_FLUSH so the peer can decode it without waiting for more.
//
// Node's zlib streams are asynchronous, so each direction runs its blocks
// one at a time through a promise chain: callers must also keep frames in
// the order their blocks were handed in (the connection's queues do).
import zlib from 'node:zlib';
import { SPDY3_DICTIONARY } from './dictionary.js';
import { decodeHeaderBlock, encodeHeaderBlock, type SpdyHeaders } from './header-block.js';
import { SpdyProtocolError } from './frames.js';

/** Feeds blocks through one long-lived zlib stream, returning each block's flushed output. */
class SharedZlib {
  private chain: Promise<unknown> = Promise.resolve();
  private failed: Error | undefined;

  constructor(private readonly z: zlib.Deflate | zlib.Inflate) {
    z.on('error', (err: Error) => { this.failed ??= err; });
  }

  process(input: Buffer): Promise<Buffer> {
    const run = (): Promise<Buffer> => new Promise<Buffer>((resolve, reject) => {
      if (this.failed) {
        reject(this.failed);
        return;
      }
      const onError = (err: Error): void => reject(err);
      this.z.once('error', onError);
      this.z.write(input);
      this.z.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        this.z.off('error', onError);
        if (this.failed) {
          reject(this.failed);
          return;
        }
        const parts: Buffer[] = [];
        for (let c = this.z.read() as Buffer | null; c !== null; c = this.z.read() as Buffer | null) parts.push(c);
        resolve(Buffer.concat(parts));
      });
    });
    const result = this.chain.then(run);
    this.chain = result.catch(() => {});
    return result;
  }

  close(): void {
    this.z.close();
  }
}

// A large readable buffer keeps zlib from pausing mid-block waiting for a reader.
const STREAM_OPTS = { dictionary: SPDY3_DICTIONARY, highWaterMark: 1 << 20 } as const;

export class HeaderCompressor {
  private readonly z = new SharedZlib(zlib.createDeflate(STREAM_OPTS));

  compress(headers: SpdyHeaders): Promise<Buffer> {
    return this.z.process(encodeHeaderBlock(headers));
  }

  close(): void {
    this.z.close();
  }
}

export class HeaderDecompressor {
  private readonly z = new SharedZlib(zlib.createInflate(STREAM_OPTS));

  async decompress(block: Buffer): Promise<SpdyHeaders> {
    let raw: Buffer;
    try {
      raw = await this.z.process(block);
    } catch (err) {
      throw new SpdyProtocolError(`header block decompression failed: ${(err as Error).message}`);
    }
    return decodeHeaderBlock(raw);
  }

  close(): void {
    this.z.close();
  }
}
