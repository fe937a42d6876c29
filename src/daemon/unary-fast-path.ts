// Unary CRI calls answered on the HTTP/2 stream itself. grpc-js builds an intercepting call, a
// metadata object, a stream decoder, a message queue and a writable-stream wrapper per call; under
// --lite-mode that costs about twice what the call's own work does, and kubelet repeats its read
// calls every second. This dispatcher takes the 'stream' event of grpc-js's HTTP/2 server: a POST
// of application/grpc(+proto) to a unary CRI method is served here with the same status codes,
// messages and bytes as grpc-js would send; everything else (streaming calls, the admin service,
// unknown methods, other content types) goes to grpc-js's own listener unchanged. The call itself
// is unary-call.ts's, as on the hand-framed transport (h2/grpc-unary.ts).
import type { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type * as grpc from '@grpc/grpc-js';
import type { UnaryMethod } from './cri-server.js';
import type { Logger } from './logger.js';
import { RESPONSE_HEADERS, runUnaryCall, Status, STATUS_HEADERS } from './unary-call.js';

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
  const timeout = headers['grpc-timeout'];
  const call = runUnaryCall(method, { timeout: typeof timeout === 'string' ? timeout : undefined, encoding: headers['grpc-encoding'] }, {
    open: () => !stream.destroyed && !stream.closed,
    // Trailers-only: nothing was sent before a status.
    status: (status) => guarded(stream, () => stream.respond({ 'grpc-status': status.code, 'grpc-message': encodeURI(status.details), ...STATUS_HEADERS }, { endStream: true })),
    answer: (frame) => guarded(stream, () => {
      stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
      stream.once('wantTrailers', () => guarded(stream, () => stream.sendTrailers({ 'grpc-status': Status.OK, 'grpc-message': 'OK' })));
      stream.end(frame);
    }),
    // Whatever the client still sends is read and dropped, as grpc-js does.
    done: () => stream.resume(),
  }, log, 'unary fast path failed');
  stream.once('close', call.gone);
  stream.on('data', call.data);
  stream.once('end', call.end);
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
