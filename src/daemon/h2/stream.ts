// One HTTP/2 stream of a hand-framed connection, as its handler sees it: the request's header
// fields, its DATA as it arrives, the end or a reset; and the answer going out (HEADERS, DATA
// under the peer's flow-control windows, trailers). The connection (connection.ts) owns the
// framing and the windows; a stream only queues.
import type { HeaderField } from '../../protocols/http2/hpack-decoder.js';

/** What a stream needs from its connection. */
export interface StreamOwner {
  sendHeaders(stream: H2Stream, block: Buffer, endStream: boolean): void;
  /** Headers, DATA and trailers as one write if the windows allow it now; false (nothing sent) if not. */
  sendWhole(stream: H2Stream, headers: Buffer, body: Buffer, trailers: Buffer): boolean;
  /** Queues DATA on `stream` (counted against the connection's bound) and lets it go out as the windows allow. */
  enqueue(stream: H2Stream, data: Buffer): void;
  /** Data (and then trailers) queued on `stream` may go out. */
  schedule(stream: H2Stream): void;
  sendReset(stream: H2Stream, code: number): void;
  /** The handler read `bytes` of DATA: the peer may send that much more on this stream. */
  consumed(stream: H2Stream, bytes: number): void;
}

export class H2Stream {
  /** The request's header fields as sent (pseudo-headers first). */
  readonly fields: HeaderField[];

  /** DATA as it arrives (padding removed). */
  onData?: (chunk: Buffer) => void;
  /** The peer ended its side (END_STREAM). */
  onEnd?: () => void;
  /** The stream went away before its answer ended: the peer reset it (its code) or the connection closed. */
  onAbort?: (code: number) => void;
  /** Queued data fell below the low-water mark (a relay may read more). */
  onDrain?: () => void;

  /** Our window on the peer: how much DATA it accepts on this stream now. */
  sendWindow: number;
  /** How much DATA the peer may still send before we say it may send more. */
  receiveWindow: number;
  /** DATA read since our last WINDOW_UPDATE for this stream. */
  unacked = 0;
  remoteEnded = false;
  /** Our side is done (END_STREAM sent or queued), or the stream was reset. */
  localEnded = false;
  closed = false;
  headersSent = false;

  /** DATA waiting for window, then trailers to send after it. */
  readonly queue: Buffer[] = [];
  queuedBytes = 0;
  trailers?: Buffer;
  /** Ended with DATA alone (no trailers): END_STREAM on the last DATA frame. */
  endAfterData = false;

  constructor(
    readonly id: number,
    fields: HeaderField[],
    private readonly owner: StreamOwner,
    sendWindow: number,
    receiveWindow: number,
  ) {
    this.fields = fields;
    this.sendWindow = sendWindow;
    this.receiveWindow = receiveWindow;
  }

  /** The last value of header `name` (a scan: a request has a dozen fields, and most calls read five). */
  header(name: string): string | undefined {
    const f = this.fields;
    for (let i = f.length - 1; i >= 0; i--) if (f[i]![0] === name) return f[i]![1];
    return undefined;
  }

  /**
   * A whole answer at once: headers, one DATA payload, trailers (HPACK blocks). Goes out as one
   * buffer when the windows take the body now (a unary answer, most of the time); queued otherwise.
   */
  respondWhole(headers: Buffer, body: Buffer, trailers: Buffer): void {
    if (this.localEnded || this.headersSent) return;
    if (this.owner.sendWhole(this, headers, body, trailers)) return;
    this.respond(headers);
    this.write(body);
    this.end(trailers);
  }

  /** Response headers (an HPACK block); `endStream` makes it a trailers-only answer. */
  respond(block: Buffer, endStream = false): void {
    if (this.localEnded || this.headersSent) return;
    this.headersSent = true;
    if (endStream) this.localEnded = true;
    this.owner.sendHeaders(this, block, endStream);
  }

  /** Queues DATA; false when the queue is past the low-water mark (wait for onDrain). */
  write(data: Buffer): boolean {
    if (this.localEnded || data.length === 0) return !this.localEnded;
    this.owner.enqueue(this, data);
    return this.queuedBytes < STREAM_LOW_WATER;
  }

  /** Ends our side: trailers (an HPACK block) after the queued DATA, or END_STREAM on the last DATA. */
  end(trailers?: Buffer): void {
    if (this.localEnded) return;
    this.localEnded = true;
    if (trailers) this.trailers = trailers;
    else this.endAfterData = true;
    this.owner.schedule(this);
  }

  /** RST_STREAM with `code`; the handler hears no more of it. */
  reset(code: number): void {
    if (this.closed) return;
    this.owner.sendReset(this, code);
  }

  /** Gives `bytes` of window back to the peer (streams whose handler reads at its own pace). */
  consume(bytes: number): void {
    if (!this.closed) this.owner.consumed(this, bytes);
  }

  /** Whether this stream returns window itself (consume) rather than on arrival. */
  manualWindow = false;
}

/** A stream with this much DATA queued says "wait" to its writer. */
export const STREAM_LOW_WATER = 64 * 1024;
