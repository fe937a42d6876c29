// ttrpc client over any Duplex (a net.Socket or a multiplexed connection).
// Each call takes the next odd stream ID, sends one request message and waits
// for the response on the same stream, bounded by its timeout.
import type { Duplex } from 'node:stream';
import { FrameDecoder, encodeFrame, type Frame } from './codec.js';
import { Code, MessageType } from './constants.js';
import type { Envelopes } from './envelope.js';
import { TtrpcClosedError, TtrpcProtocolError, TtrpcStatusError, type OversizedMessageError } from './errors.js';

export interface CallOptions {
  /** Give up (DEADLINE_EXCEEDED) after this many ms; also sent to the server as timeout_nano. */
  timeoutMs?: number;
  metadata?: { key: string; value: string }[];
}

interface Pending {
  resolve(payload: Buffer): void;
  reject(err: Error): void;
  timer?: NodeJS.Timeout;
}

export class TtrpcClient {
  private nextStreamId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly decoder: FrameDecoder;
  private closedError: Error | undefined;
  private readonly closeListeners: ((err: Error) => void)[] = [];

  constructor(
    private readonly conn: Duplex,
    private readonly envelopes: Envelopes,
  ) {
    this.decoder = new FrameDecoder({
      frame: (f) => this.onFrame(f),
      oversized: (id, _type, err) => this.onOversized(id, err),
    });
    conn.on('data', (chunk: Buffer) => this.decoder.push(chunk));
    conn.on('end', () => this.fail(new TtrpcClosedError('ttrpc: connection closed by peer')));
    conn.on('close', () => this.fail(new TtrpcClosedError()));
    conn.on('error', (err) => this.fail(new TtrpcClosedError(`ttrpc: connection closed (${err.message})`)));
  }

  get closed(): boolean {
    return this.closedError !== undefined;
  }

  /** Called once when the connection goes away, with the reason. */
  onClose(listener: (err: Error) => void): void {
    if (this.closedError) listener(this.closedError);
    else this.closeListeners.push(listener);
  }

  call(service: string, method: string, payload: Uint8Array, opts: CallOptions = {}): Promise<Buffer> {
    if (this.closedError) return Promise.reject(this.closedError);
    const streamId = this.nextStreamId;
    this.nextStreamId += 2;
    if (this.nextStreamId > 0xffffffff) this.nextStreamId = 1;
    const timeoutMs = opts.timeoutMs ?? 0;
    const request = this.envelopes.encodeRequest({
      service,
      method,
      payload: Buffer.from(payload),
      timeoutNano: timeoutMs > 0 ? String(BigInt(Math.round(timeoutMs)) * 1_000_000n) : '0',
      metadata: opts.metadata ?? [],
    });
    let frame: Buffer;
    try {
      frame = encodeFrame(streamId, MessageType.request, 0, request);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<Buffer>((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      if (timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.pending.delete(streamId);
          reject(new TtrpcStatusError(Code.DEADLINE_EXCEEDED, `${service}/${method}: no response within ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.pending.set(streamId, entry);
      this.conn.write(frame);
    });
  }

  close(): void {
    this.fail(new TtrpcClosedError());
    this.conn.destroy();
  }

  private settle(streamId: number): Pending | undefined {
    const entry = this.pending.get(streamId);
    if (!entry) return undefined;
    this.pending.delete(streamId);
    if (entry.timer) clearTimeout(entry.timer);
    return entry;
  }

  private onFrame(frame: Frame): void {
    if (frame.type !== MessageType.response) {
      // Streams are unused by NRI; a data message for a unary call is a broken peer.
      if (frame.type === MessageType.data) return;
      this.fail(new TtrpcProtocolError(`unexpected message type ${frame.type} on stream ${frame.streamId}`));
      this.conn.destroy();
      return;
    }
    const entry = this.settle(frame.streamId);
    if (!entry) return; // late answer to a call that already timed out
    let response;
    try {
      response = this.envelopes.decodeResponse(frame.payload);
    } catch (err) {
      entry.reject(new TtrpcProtocolError(`undecodable response: ${(err as Error).message}`));
      return;
    }
    if (response.status && response.status.code !== Code.OK) {
      entry.reject(new TtrpcStatusError(response.status.code, response.status.message));
      return;
    }
    entry.resolve(response.payload);
  }

  private onOversized(streamId: number, err: OversizedMessageError): void {
    this.settle(streamId)?.reject(err);
  }

  private fail(err: Error): void {
    if (this.closedError) return;
    this.closedError = err;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err);
    for (const l of this.closeListeners.splice(0)) l(err);
  }
}
