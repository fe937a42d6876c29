// Frame encoder and a stream-state-machine decoder for ttrpc messages. The
// decoder takes arbitrary chunks (one byte at a time works) and never holds
// more than one message; an oversized message is skipped byte by byte and
// reported, so the connection survives it as in the reference implementation.
import { HEADER_LENGTH, MESSAGE_LENGTH_MAX } from './constants.js';
import { OversizedMessageError } from './errors.js';

export interface Frame {
  streamId: number;
  type: number;
  flags: number;
  payload: Buffer;
}

export function encodeFrame(streamId: number, type: number, flags: number, payload: Uint8Array): Buffer {
  if (payload.length > MESSAGE_LENGTH_MAX) throw new OversizedMessageError(payload.length);
  const out = Buffer.allocUnsafe(HEADER_LENGTH + payload.length);
  out.writeUInt32BE(payload.length, 0);
  out.writeUInt32BE(streamId >>> 0, 4);
  out.writeUInt8(type, 8);
  out.writeUInt8(flags, 9);
  out.set(payload, HEADER_LENGTH);
  return out;
}

export interface FrameSink {
  frame(frame: Frame): void;
  /** A message over the limit was discarded; its header is still meaningful. */
  oversized(streamId: number, type: number, error: OversizedMessageError): void;
}

type State = 'header' | 'payload' | 'discard';

export class FrameDecoder {
  private state: State = 'header';
  private header = Buffer.alloc(HEADER_LENGTH);
  private headerFill = 0;
  private payload: Buffer = Buffer.alloc(0);
  private payloadFill = 0;
  private discardLeft = 0;
  private current = { streamId: 0, type: 0, flags: 0, length: 0 };

  constructor(
    private readonly sink: FrameSink,
    private readonly maxLength = MESSAGE_LENGTH_MAX,
  ) {}

  push(chunk: Buffer): void {
    let off = 0;
    while (off < chunk.length) {
      if (this.state === 'header') {
        const n = Math.min(HEADER_LENGTH - this.headerFill, chunk.length - off);
        chunk.copy(this.header, this.headerFill, off, off + n);
        this.headerFill += n;
        off += n;
        if (this.headerFill === HEADER_LENGTH) this.headerDone();
      } else if (this.state === 'payload') {
        const n = Math.min(this.current.length - this.payloadFill, chunk.length - off);
        chunk.copy(this.payload, this.payloadFill, off, off + n);
        this.payloadFill += n;
        off += n;
        if (this.payloadFill === this.current.length) this.payloadDone();
      } else {
        const n = Math.min(this.discardLeft, chunk.length - off);
        this.discardLeft -= n;
        off += n;
        if (this.discardLeft === 0) this.state = 'header';
      }
    }
  }

  /** True when no partial message is buffered (a clean place for the stream to end). */
  get idle(): boolean {
    return this.state === 'header' && this.headerFill === 0;
  }

  private headerDone(): void {
    this.headerFill = 0;
    const length = this.header.readUInt32BE(0);
    this.current = {
      length,
      streamId: this.header.readUInt32BE(4),
      type: this.header.readUInt8(8),
      flags: this.header.readUInt8(9),
    };
    if (length > this.maxLength) {
      this.discardLeft = length;
      this.state = 'discard';
      this.sink.oversized(this.current.streamId, this.current.type, new OversizedMessageError(length, this.maxLength));
      if (length === 0) this.state = 'header';
      return;
    }
    if (length === 0) {
      this.payload = Buffer.alloc(0);
      this.payloadDone();
      return;
    }
    this.payload = Buffer.allocUnsafe(length);
    this.payloadFill = 0;
    this.state = 'payload';
  }

  private payloadDone(): void {
    this.state = 'header';
    const { streamId, type, flags } = this.current;
    const payload = this.payload;
    this.payload = Buffer.alloc(0);
    this.sink.frame({ streamId, type, flags, payload });
  }
}
