// One unary CRI call's life, whichever HTTP/2 layer carries it (unary-fast-path.ts on node:http2,
// h2/grpc-unary.ts on the hand-framed transport), with grpc-js's semantics: one length-prefixed
// request message (gzip/deflate, bounded), the grpc-timeout deadline (clamped as
// deadline-clamp.ts clamps it for grpc-js), cancellation through the method's AbortSignal when the
// stream goes, and grpc-js's codes and messages. The layer says how an answer goes out.
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import { callerGoneError, MAX_MESSAGE_BYTES, type GrpcStatus, type UnaryMethod } from './cri-server.js';
import { clampTimeoutHeader, UNIT_MS } from './deadline-clamp.js';
import type { Logger } from './logger.js';

export const Status = { OK: 0, DEADLINE_EXCEEDED: 4, RESOURCE_EXHAUSTED: 8, UNIMPLEMENTED: 12, INTERNAL: 13 } as const;

// grpc-js's own parser (server-interceptors.js), unanchored as there, so a header means the same to both.
export const DEADLINE_REGEX = /(\d{1,8})\s*([HMSmun])/;

// A trailers-only response carries only these; one with a message also the encodings.
export const STATUS_HEADERS = { ':status': 200, 'content-type': 'application/grpc+proto' };
export const RESPONSE_HEADERS = { ...STATUS_HEADERS, 'grpc-accept-encoding': 'identity,deflate,gzip', 'grpc-encoding': 'identity' };

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);


/** How one HTTP/2 layer answers on the call's stream. */
export interface UnaryStreamIo {
  /** Whether the stream can still take an answer. */
  open(): boolean;
  /** A trailers-only answer: the status alone. */
  status(status: GrpcStatus): void;
  /** Headers, the one length-prefixed message, then the OK trailers. */
  answer(frame: Buffer): void;
  /** Nothing more goes out (answered, or the stream gone): what the client still sends is dropped. */
  done?(): void;
}

/** What the layer tells the call about its stream. */
export interface UnaryCallInput {
  data(chunk: Buffer): void;
  end(): void;
  /** The stream closed or was reset. */
  gone(): void;
}

export function runUnaryCall(
  method: UnaryMethod, headers: { timeout?: string; encoding?: string | string[] }, io: UnaryStreamIo, log: Logger, what: string,
): UnaryCallInput {
  const abort = new AbortController();
  let ended = false; // status sent, or the stream gone: nothing more goes out
  let deadlineTimer: NodeJS.Timeout | undefined;
  const finish = () => {
    ended = true;
    if (deadlineTimer) clearTimeout(deadlineTimer);
    io.done?.();
  };
  const sendStatus = (status: GrpcStatus) => {
    if (ended || !io.open()) return;
    finish();
    io.status(status);
  };

  if (headers.timeout !== undefined) {
    const match = DEADLINE_REGEX.exec(clampTimeoutHeader(headers.timeout));
    if (!match) {
      sendStatus({ code: Status.INTERNAL, details: `Invalid grpc-timeout value "${headers.timeout}"` });
    } else {
      deadlineTimer = setTimeout(() => {
        sendStatus({ code: Status.DEADLINE_EXCEEDED, details: 'Deadline exceeded' });
        abort.abort(callerGoneError());
      }, (Number(match[1]) * UNIT_MS[match[2]!]!) | 0);
    }
  }

  const reader = new RequestReader(method.path);
  return {
    data(chunk) {
      if (ended) return;
      const error = reader.push(chunk);
      if (error) sendStatus(error);
    },
    end() {
      if (ended) return;
      const message = reader.message();
      if (!message) return sendStatus({ code: Status.UNIMPLEMENTED, details: `Received no request message for server streaming method ${method.path}` });
      void decodeRequest(message, headers.encoding, method).then(async (decoded) => {
        if (ended) return;
        if ('status' in decoded) return sendStatus(decoded.status);
        const outcome = await method.call(decoded.request, abort.signal);
        if (ended || !io.open()) return;
        if (outcome.status) return sendStatus(outcome.status);
        const frame = answerMessage(method, outcome.answer as object);
        if (!Buffer.isBuffer(frame)) return sendStatus(frame);
        finish();
        io.answer(frame);
      }).catch((err: unknown) => {
        log.error(what, { path: method.path, error: err instanceof Error ? err.message : String(err) });
        sendStatus({ code: Status.INTERNAL, details: 'Internal server error' });
      });
    },
    gone() {
      const early = !ended;
      finish();
      if (early) abort.abort(callerGoneError());
    },
  };
}

/** The answer as one length-prefixed message, or the status grpc-js gives when it cannot be sent. */
export function answerMessage(method: UnaryMethod, answer: object): Buffer | GrpcStatus {
  let message: Buffer;
  try {
    message = method.responseSerialize(answer);
  } catch {
    return { code: Status.INTERNAL, details: 'Error serializing response' };
  }
  if (message.length > MAX_MESSAGE_BYTES) {
    // grpc-js's wording, its first number counting the 5-byte prefix.
    return { code: Status.RESOURCE_EXHAUSTED, details: `Sent message larger than max (${message.length + 5} vs. ${MAX_MESSAGE_BYTES})` };
  }
  const frame = Buffer.allocUnsafe(message.length + 5);
  frame.writeUInt8(0, 0);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}

/**
 * The request's one message out of its DATA frames: 5-byte prefix (compressed flag, length) and
 * the message, its declared length checked before any of it is kept. Bytes are kept as they
 * arrive, never allocated ahead from a declared length (streams declaring 16 MiB each and sending
 * nothing must cost nothing).
 */
export class RequestReader {
  private readonly prefix = Buffer.allocUnsafe(5);
  private prefixRead = 0;
  private parts: Buffer[] = [];
  private missing = 0; // bytes of the current message still to come
  private complete: Buffer | undefined; // prefix + message, as grpc-js's decoder yields it

  constructor(private readonly path: string) {}

  /** Takes a chunk; a status if the request is refused. */
  push(chunk: Buffer): GrpcStatus | undefined {
    let at = 0;
    while (at < chunk.length) {
      if (this.prefixRead === 0 && !this.complete && chunk.length - at >= 5) {
        // The usual case: prefix and message in this chunk; kept as a view of it, nothing copied.
        const length = chunk.readUInt32BE(at + 1);
        if (length <= MAX_MESSAGE_BYTES && chunk.length - at - 5 >= length) {
          this.complete = chunk.subarray(at, at + 5 + length);
          at += 5 + length;
          continue;
        }
      }
      if (this.prefixRead < 5) {
        const n = Math.min(5 - this.prefixRead, chunk.length - at);
        chunk.copy(this.prefix, this.prefixRead, at, at + n);
        this.prefixRead += n;
        at += n;
        if (this.prefixRead < 5) break;
        this.missing = this.prefix.readUInt32BE(1);
        if (this.missing > MAX_MESSAGE_BYTES) {
          return { code: Status.RESOURCE_EXHAUSTED, details: `Received message larger than max (${this.missing} vs ${MAX_MESSAGE_BYTES})` };
        }
        this.parts = [Buffer.from(this.prefix)];
      }
      const n = Math.min(this.missing, chunk.length - at);
      if (n > 0) this.parts.push(chunk.subarray(at, at + n));
      this.missing -= n;
      at += n;
      if (this.missing > 0) break;
      if (this.complete) {
        return { code: Status.UNIMPLEMENTED, details: `Received a second request message for server streaming method ${this.path}` };
      }
      this.complete = Buffer.concat(this.parts);
      this.parts = [];
      this.prefixRead = 0;
    }
    return undefined;
  }

  /** The complete message (prefix included), if one came; a partial one after it is ignored as grpc-js does. */
  message(): Buffer | undefined {
    return this.complete;
  }
}

/** Decompresses (gzip, deflate; bounded) and decodes a request message as grpc-js does. */
export async function decodeRequest(
  framed: Buffer, encodingHeader: string | string[] | undefined, method: UnaryMethod,
): Promise<{ request: unknown } | { status: GrpcStatus }> {
  let bytes = framed.subarray(5);
  const encoding = framed.readUInt8(0) === 1 && typeof encodingHeader === 'string' ? encodingHeader : 'identity';
  if (encoding === 'gzip' || encoding === 'deflate') {
    try {
      bytes = await (encoding === 'gzip' ? gunzipAsync : inflateAsync)(bytes, { maxOutputLength: MAX_MESSAGE_BYTES });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return { status: { code: Status.RESOURCE_EXHAUSTED, details: `Received message that decompresses to a size larger than ${MAX_MESSAGE_BYTES}` } };
      }
      return { status: { code: Status.INTERNAL, details: 'Failed to decompress message' } };
    }
  } else if (encoding !== 'identity') {
    return { status: { code: Status.UNIMPLEMENTED, details: `Received message compressed with unsupported encoding "${encoding}"` } };
  }
  try {
    return { request: method.requestDecode ? await method.requestDecode(bytes) : method.requestDeserialize(bytes) };
  } catch {
    return { status: { code: Status.INTERNAL, details: 'Error deserializing request' } };
  }
}
