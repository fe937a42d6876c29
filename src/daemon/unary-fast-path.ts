// Unary CRI calls answered on the HTTP/2 stream itself. grpc-js builds an intercepting call, a
// metadata object, a stream decoder, a message queue and a writable-stream wrapper per call; under
// --lite-mode that costs about twice what the call's own work does, and kubelet repeats its read
// calls every second. This dispatcher takes the 'stream' event of grpc-js's HTTP/2 server: a POST
// of application/grpc(+proto) to a unary CRI method is served here with the same status codes,
// messages and bytes as grpc-js would send; everything else (streaming calls, the admin service,
// unknown methods, other content types) goes to grpc-js's own listener unchanged. The hand-framed
// transport (h2/grpc-unary.ts) serves the same calls with the request reader, decoder, codes and
// headers exported here.
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import type { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type * as grpc from '@grpc/grpc-js';
import { callerGoneError, MAX_MESSAGE_BYTES, type GrpcStatus, type UnaryMethod } from './cri-server.js';
import type { Logger } from './logger.js';
import { UNIT_MS } from './deadline-clamp.js';

export const Status = { OK: 0, DEADLINE_EXCEEDED: 4, RESOURCE_EXHAUSTED: 8, UNIMPLEMENTED: 12, INTERNAL: 13 } as const;

// grpc-js's own parser (server-interceptors.js), unanchored as there, so a header means the same to both.
export const DEADLINE_REGEX = /(\d{1,8})\s*([HMSmun])/;

// A trailers-only response carries only these; one with a message also the encodings.
export const STATUS_HEADERS = { ':status': 200, 'content-type': 'application/grpc+proto' };
export const RESPONSE_HEADERS = { ...STATUS_HEADERS, 'grpc-accept-encoding': 'identity,deflate,gzip', 'grpc-encoding': 'identity' };

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

type StreamListener = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, ...rest: unknown[]) => void;

export interface FastPath {
  /** Unary calls served here so far (tests read it to know which path served). */
  served(): number;
}

/** grpc-js's Server, as far as the fast path uses its private parts. */
interface ServerInternals {
  onStreamOpened?: (stream: ServerHttp2Stream) => void;
}

/**
 * Puts the dispatcher in place of grpc-js's 'stream' listeners on `http2Server` (the HTTP/2 server
 * grpc-js made for a connection injector). Throws if grpc-js's private layout is not what it uses.
 */
export function installUnaryFastPath(
  server: grpc.Server, http2Server: EventEmitter, methods: ReadonlyMap<string, UnaryMethod>, log: Logger,
): FastPath {
  const internals = server as unknown as ServerInternals;
  if (typeof internals.onStreamOpened !== 'function') {
    throw new Error('grpc-js changed: Server.onStreamOpened is gone (needed by the unary fast path)');
  }
  const grpcListeners = http2Server.listeners('stream') as StreamListener[];
  if (grpcListeners.length === 0) throw new Error('grpc-js changed: its HTTP/2 server has no stream listener (needed by the unary fast path)');
  for (const l of grpcListeners) http2Server.off('stream', l);
  const onStreamOpened = internals.onStreamOpened.bind(server);
  let served = 0;
  http2Server.on('stream', function dispatch(this: EventEmitter, stream: ServerHttp2Stream, headers: IncomingHttpHeaders, ...rest: unknown[]) {
    const method = fastPathMethod(methods, headers);
    if (!method) {
      for (const l of grpcListeners) l.call(this, stream, headers, ...rest);
      return;
    }
    served++;
    try {
      serveUnary(stream, headers, method, onStreamOpened, log);
    } catch (err) {
      // A bug here must not take the daemon down; the client sees the call fail.
      log.error('unary fast path failed', { path: method.path, error: err instanceof Error ? err.message : String(err) });
      if (!stream.destroyed && !stream.closed) stream.close(2 /* NGHTTP2_INTERNAL_ERROR */);
    }
  });
  return { served: () => served };
}

function fastPathMethod(methods: ReadonlyMap<string, UnaryMethod>, headers: IncomingHttpHeaders): UnaryMethod | undefined {
  if (headers[':method'] !== 'POST') return undefined;
  const type = headers['content-type'];
  if (type !== 'application/grpc' && type !== 'application/grpc+proto') return undefined;
  const path = headers[':path'];
  return typeof path === 'string' ? methods.get(path) : undefined;
}

/** One unary call, as grpc-js's BaseServerInterceptingCall and handleUnary serve it. */
function serveUnary(
  stream: ServerHttp2Stream, headers: IncomingHttpHeaders, method: UnaryMethod,
  onStreamOpened: (stream: ServerHttp2Stream) => void, log: Logger,
): void {
  // An error event always comes with a close event, which the call handles.
  stream.on('error', () => {});
  // grpc-js's idle-connection accounting: a connection with a call open is not idle.
  onStreamOpened(stream);

  const abort = new AbortController();
  let ended = false; // status sent, or the stream gone: nothing more goes out
  let deadlineTimer: NodeJS.Timeout | undefined;

  const finish = () => {
    ended = true;
    if (deadlineTimer) clearTimeout(deadlineTimer);
    // Whatever the client still sends is read and dropped, as grpc-js does.
    stream.resume();
  };
  const sendStatus = (status: GrpcStatus) => {
    if (ended || stream.destroyed || stream.closed) return;
    finish();
    // Trailers-only: nothing was sent before a status.
    guarded(stream, () => stream.respond({ 'grpc-status': status.code, 'grpc-message': encodeURI(status.details), ...STATUS_HEADERS }, { endStream: true }));
  };
  stream.once('close', () => {
    const early = !ended;
    finish();
    if (early) abort.abort(callerGoneError());
  });

  const timeout = headers['grpc-timeout'];
  if (typeof timeout === 'string') {
    const match = DEADLINE_REGEX.exec(timeout);
    if (!match) {
      sendStatus({ code: Status.INTERNAL, details: `Invalid grpc-timeout value "${timeout}"` });
      return;
    }
    deadlineTimer = setTimeout(() => {
      sendStatus({ code: Status.DEADLINE_EXCEEDED, details: 'Deadline exceeded' });
      abort.abort(callerGoneError());
    }, (Number(match[1]) * UNIT_MS[match[2]!]!) | 0);
  }

  const reader = new RequestReader(method.path);
  stream.on('data', (chunk: Buffer) => {
    if (ended) return;
    const error = reader.push(chunk);
    if (error) sendStatus(error);
  });
  stream.once('end', () => {
    if (ended) return;
    const message = reader.message();
    if (!message) {
      sendStatus({ code: Status.UNIMPLEMENTED, details: `Received no request message for server streaming method ${method.path}` });
      return;
    }
    void decodeRequest(message, headers['grpc-encoding'], method).then(async (decoded) => {
      if (ended) return;
      if ('status' in decoded) return sendStatus(decoded.status);
      const outcome = await method.call(decoded.request, abort.signal);
      if (ended || stream.destroyed || stream.closed) return;
      if (outcome.status) return sendStatus(outcome.status);
      sendAnswer(stream, method, outcome.answer as object, sendStatus, finish);
    }).catch((err: unknown) => {
      log.error('unary fast path failed', { path: method.path, error: err instanceof Error ? err.message : String(err) });
      sendStatus({ code: Status.INTERNAL, details: 'Internal server error' });
    });
  });
}

function sendAnswer(
  stream: ServerHttp2Stream, method: UnaryMethod, answer: object, sendStatus: (s: GrpcStatus) => void, finish: () => void,
): void {
  const frame = answerMessage(method, answer);
  if (!Buffer.isBuffer(frame)) return sendStatus(frame);
  finish();
  guarded(stream, () => {
    stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
    stream.once('wantTrailers', () => guarded(stream, () => stream.sendTrailers({ 'grpc-status': Status.OK, 'grpc-message': 'OK' })));
    stream.end(frame);
  });
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
 * Runs a write on `stream`; one that throws (the session went away in between: Node throws for a
 * stream it has just destroyed) resets the stream instead of escaping into a timer or event.
 */
function guarded(stream: ServerHttp2Stream, write: () => void): void {
  try {
    write();
  } catch {
    if (!stream.destroyed) stream.destroy();
  }
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
