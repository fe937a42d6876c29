// Two in-process Duplex ends joined back to back: what one writes, the other reads. The hand
// transport's relay talks HTTP/2 to grpc-js's server over such a pair (grpc-js takes the server
// end through its connection injector). Node 20 has no stream.duplexPair.
import { Duplex } from 'node:stream';

/** The end grpc-js's HTTP/2 server takes as a socket: what Node's server calls on one. */
export class PairEnd extends Duplex {
  other!: PairEnd;
  private waiting?: () => void;
  readonly remoteAddress = 'isulats-h2-relay';

  constructor() {
    super({ allowHalfOpen: false });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.other.destroyed) return cb();
    // The reader's buffer full: wait until it reads (its _read), which keeps both HTTP/2 stacks' flow control honest.
    if (this.other.push(chunk)) cb();
    else this.other.waiting = () => cb();
  }

  override _read(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.other.push(null);
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.waiting = undefined;
    if (!this.other.destroyed) this.other.destroy();
    cb(err);
  }

  setTimeout(_ms: number, _cb?: () => void): this {
    return this;
  }

  setNoDelay(_noDelay?: boolean): this {
    return this;
  }

  setKeepAlive(_enable?: boolean, _delay?: number): this {
    return this;
  }
}

export function duplexPair(): [PairEnd, PairEnd] {
  const a = new PairEnd();
  const b = new PairEnd();
  a.other = b;
  b.other = a;
  return [a, b];
}
