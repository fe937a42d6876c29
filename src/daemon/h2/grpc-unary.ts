// A unary CRI call on a stream of the hand-framed transport: the call itself is unary-call.ts's (as
// on node:http2), answered here with grpc-js's headers as HPACK blocks built once; the peer's reset
// or the connection's close cancels it.
import { hpackEncode } from '../../protocols/http2/hpack-encoder.js';
import type { GrpcStatus, UnaryMethod } from '../cri-server.js';
import type { Logger } from '../logger.js';
import { RESPONSE_HEADERS, runUnaryCall, Status, STATUS_HEADERS } from '../unary-call.js';
import type { H2Stream } from './stream.js';

/** Header objects (unary-call.ts's) as HPACK blocks, built once. */
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
  const call = runUnaryCall(method, { timeout: stream.header('grpc-timeout'), encoding: stream.header('grpc-encoding') }, {
    open: () => !stream.closed,
    status: (status) => stream.respond(statusBlock(status), true),
    answer: (frame) => stream.respondWhole(RESPONSE_BLOCK, frame, OK_TRAILERS_BLOCK),
  }, log, 'unary call on the HTTP/2 transport failed');
  stream.onAbort = call.gone;
  stream.onData = call.data;
  stream.onEnd = call.end;
}
