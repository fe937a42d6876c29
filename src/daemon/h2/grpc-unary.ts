// A unary CRI call on a stream of the hand-framed transport, with the semantics of serveUnary in
// unary-fast-path.ts (grpc-js's): one length-prefixed request message (gzip/deflate, bounded),
// the grpc-timeout deadline (clamped as deadline-clamp.ts clamps it for grpc-js), cancellation
// through the method's AbortSignal when the peer resets the stream or the connection closes, and
// grpc-js's codes, messages and headers.
import { hpackEncode } from '../../protocols/http2/hpack-encoder.js';
import { callerGoneError, type GrpcStatus, type UnaryMethod } from '../cri-server.js';
import { clampTimeoutHeader, UNIT_MS } from '../deadline-clamp.js';
import type { Logger } from '../logger.js';
import {
  answerMessage, DEADLINE_REGEX, decodeRequest, RequestReader, RESPONSE_HEADERS, Status, STATUS_HEADERS,
} from '../unary-fast-path.js';
import type { H2Stream } from './stream.js';

/** Header objects (unary-fast-path.ts's) as HPACK blocks, built once. */
const asFields = (h: Record<string, string | number>): Array<[string, string]> => Object.entries(h).map(([k, v]) => [k, String(v)]);
const RESPONSE_BLOCK = hpackEncode(asFields(RESPONSE_HEADERS));
const OK_TRAILERS_BLOCK = hpackEncode([['grpc-status', String(Status.OK)], ['grpc-message', 'OK']]);
const STATUS_FIELDS = asFields(STATUS_HEADERS);

/** A trailers-only answer: the status in the one header block. */
function statusBlock(status: GrpcStatus): Buffer {
  return hpackEncode([...STATUS_FIELDS, ['grpc-status', String(status.code)], ['grpc-message', encodeURI(status.details)]]);
}

/** Whether the hand transport serves this request as a unary call: a POST of gRPC to a known unary method. */
export function unaryMethodFor(methods: ReadonlyMap<string, UnaryMethod>, stream: H2Stream): UnaryMethod | undefined {
  if (stream.header(':method') !== 'POST') return undefined;
  const type = stream.header('content-type');
  if (type !== 'application/grpc' && type !== 'application/grpc+proto') return undefined;
  return methods.get(stream.header(':path')!);
}

export function serveUnaryOnStream(stream: H2Stream, method: UnaryMethod, log: Logger): void {
  const abort = new AbortController();
  let ended = false; // status sent, or the stream gone: nothing more goes out
  let deadlineTimer: NodeJS.Timeout | undefined;
  const finish = () => {
    ended = true;
    if (deadlineTimer) clearTimeout(deadlineTimer);
  };
  const sendStatus = (status: GrpcStatus) => {
    if (ended || stream.closed) return;
    finish();
    stream.respond(statusBlock(status), true);
  };
  stream.onAbort = () => {
    const early = !ended;
    finish();
    if (early) abort.abort(callerGoneError());
  };

  const timeout = stream.header('grpc-timeout');
  if (timeout !== undefined) {
    const match = DEADLINE_REGEX.exec(clampTimeoutHeader(timeout));
    if (!match) return sendStatus({ code: Status.INTERNAL, details: `Invalid grpc-timeout value "${timeout}"` });
    deadlineTimer = setTimeout(() => {
      sendStatus({ code: Status.DEADLINE_EXCEEDED, details: 'Deadline exceeded' });
      abort.abort(callerGoneError());
    }, (Number(match[1]) * UNIT_MS[match[2]!]!) | 0);
  }

  const reader = new RequestReader(method.path);
  stream.onData = (chunk) => {
    if (ended) return;
    const error = reader.push(chunk);
    if (error) sendStatus(error);
  };
  stream.onEnd = () => {
    if (ended) return;
    const message = reader.message();
    if (!message) return sendStatus({ code: Status.UNIMPLEMENTED, details: `Received no request message for server streaming method ${method.path}` });
    void decodeRequest(message, stream.header('grpc-encoding'), method).then(async (decoded) => {
      if (ended) return;
      if ('status' in decoded) return sendStatus(decoded.status);
      const outcome = await method.call(decoded.request, abort.signal);
      if (ended || stream.closed) return;
      if (outcome.status) return sendStatus(outcome.status);
      const frame = answerMessage(method, outcome.answer as object);
      if (!Buffer.isBuffer(frame)) return sendStatus(frame);
      finish();
      stream.respondWhole(RESPONSE_BLOCK, frame, OK_TRAILERS_BLOCK);
    }).catch((err: unknown) => {
      log.error('unary call on the HTTP/2 transport failed', { path: method.path, error: err instanceof Error ? err.message : String(err) });
      sendStatus({ code: Status.INTERNAL, details: 'Internal server error' });
    });
  };
}
