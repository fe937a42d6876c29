// One unary gRPC call over a unix socket, HTTP/2 framed by hand (on libuv's pipe handle, see
// unix-stream.ts).
// Loading node:http2 alone costs a CLI call about 12 ms of CPU and 5 MB of RSS
// (15% and 12% of a bare Node start); a unary call needs only a few frames.
// This answers the plain success case: one uncompressed message, then
// trailers with grpc-status 0; and an error status, as a GrpcStatus (header
// blocks are decoded whole: HPACK's tables and Huffman code). Anything else (a refused connection, a
// GOAWAY, the deadline, a malformed answer) resolves undefined and the caller
// hands the whole command to the full CLI, which reports it.
import { openUnixStream } from './unix-stream.js';
import { CLIENT_PREFACE as PREFACE, h2Frame as frame } from '../protocols/http2/frame.js';
import { HpackDecoder } from '../protocols/http2/hpack-decoder.js';
import { hpackLiteral as literal } from '../protocols/http2/hpack-encoder.js';

const DATA = 0x0, HEADERS = 0x1, RST_STREAM = 0x3, SETTINGS = 0x4, PING = 0x6, GOAWAY = 0x7, CONTINUATION = 0x9;
const END_STREAM = 0x1, ACK = 0x1, END_HEADERS = 0x4, PADDED = 0x8, PRIORITY = 0x20;
/** Our receive window: large enough that a long list never waits for a WINDOW_UPDATE. */
const WINDOW = 0x7fffffff;

/**
 * The header fields of a connection's header blocks, block by block, decoded in full (RFC 7541:
 * the static and dynamic tables, Huffman-coded strings); undefined if malformed.
 */
export function hpackDecode(blocks: Buffer[]): [string, string][][] | undefined {
  const decoder = new HpackDecoder();
  try {
    return blocks.map((b) => decoder.decode(b));
  } catch {
    return undefined;
  }
}

/** A call that ended with a gRPC status other than OK: its code and its message as grpc-js gives it (details). */
export class GrpcStatus {
  constructor(readonly code: number, readonly details: string) {}
}

/** The status the trailers (or a trailers-only answer's one block) name, or undefined when they name none plainly. */
function statusOf(fields: [string, string][]): GrpcStatus | undefined {
  const status = fields.filter(([k]) => k === 'grpc-status');
  if (status.length !== 1 || !/^\d+$/.test(status[0][1])) return undefined;
  const message = fields.find(([k]) => k === 'grpc-message')?.[1] ?? '';
  let details = message;
  try {
    details = decodeURI(message); // as grpc-js does
  } catch {
    // kept as sent, as grpc-js keeps it
  }
  return new GrpcStatus(Number(status[0][1]), details);
}

export interface UnaryCall {
  /** Absolute unix socket path. */
  socket: string;
  /** `/runtime.v1.RuntimeService/Version` */
  path: string;
  /** The encoded request message. */
  message: Buffer;
  timeoutMs: number;
}

/** The response message, the status of an error answer, or undefined for anything else (see the header). */
export function unaryCall(call: UnaryCall): Promise<Buffer | GrpcStatus | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Buffer | GrpcStatus | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.close();
      resolve(r);
    };
    const timer = setTimeout(() => finish(undefined), call.timeoutMs);

    const headers = Buffer.concat([
      literal(':method', 'POST'), literal(':scheme', 'http'), literal(':path', call.path), literal(':authority', 'localhost'),
      literal('content-type', 'application/grpc'), literal('te', 'trailers'), literal('grpc-timeout', grpcTimeout(call.timeoutMs)),
    ]);
    const body = Buffer.alloc(5 + call.message.length);
    body.writeUInt32BE(call.message.length, 1);
    call.message.copy(body, 5);
    const settings = Buffer.alloc(6);
    settings.writeUInt16BE(0x4, 0); // SETTINGS_INITIAL_WINDOW_SIZE
    settings.writeUInt32BE(WINDOW, 2);
    const connWindow = Buffer.alloc(4);
    connWindow.writeUInt32BE(WINDOW - 65535, 0);
    const request = Buffer.concat([
      PREFACE, frame(SETTINGS, 0, 0, settings), frame(0x8, 0, 0, connWindow),
      frame(HEADERS, END_HEADERS, 1, headers), frame(DATA, END_STREAM, 1, body),
    ]);

    let buf: Buffer = Buffer.alloc(0);
    const data: Buffer[] = [];
    let block: Buffer[] = [];
    /** The connection's one decoder: HPACK's dynamic table spans the blocks, each decoded once. */
    const decoder = new HpackDecoder();
    let blocks = 0;
    let blockEndsStream = false;
    const blockDone = () => {
      let fields: [string, string][];
      try {
        fields = decoder.decode(Buffer.concat(block));
      } catch {
        return finish(undefined);
      }
      block = [];
      blocks++;
      if (!blockEndsStream) return; // the response headers (:status, content-type)
      // Trailers: a success is grpc-status 0 (with an empty or "OK" grpc-message: grpc-go sends "",
      // grpc-js "OK") after the headers; a trailers-only answer (the first block) is an error.
      const status = statusOf(fields);
      if (blocks >= 2 && status?.code === 0 && (status.details === '' || status.details === 'OK')) return finish(grpcMessage(Buffer.concat(data)));
      finish(status && status.code !== 0 ? status : undefined);
    };
    const onData = (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      while (buf.length >= 9) {
        const len = buf.readUIntBE(0, 3);
        if (buf.length < 9 + len) break;
        const type = buf[3];
        const flags = buf[4];
        const stream = buf.readUInt32BE(5) & 0x7fffffff;
        let payload = buf.subarray(9, 9 + len);
        buf = buf.subarray(9 + len);
        if (type === SETTINGS && !(flags & ACK)) sock.write(frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
        else if (type === PING && !(flags & ACK)) sock.write(frame(PING, ACK, 0, payload));
        else if (type === GOAWAY || (type === RST_STREAM && stream === 1)) return finish(undefined);
        else if (stream === 1 && (type === DATA || type === HEADERS)) {
          if (flags & PADDED) payload = payload.subarray(1, payload.length - payload[0]);
          if (type === DATA) {
            data.push(payload);
            if (flags & END_STREAM) return finish(undefined); // a stream must end on trailers
          } else {
            if (flags & PRIORITY) payload = payload.subarray(5);
            block.push(payload);
            blockEndsStream = (flags & END_STREAM) !== 0;
            if (flags & END_HEADERS) blockDone();
          }
        } else if (stream === 1 && type === CONTINUATION) {
          block.push(payload);
          if (flags & END_HEADERS) blockDone();
        }
        if (done) return;
      }
    };
    const sock = openUnixStream(call.socket, request, { data: onData, end: () => finish(undefined) });
  });
}

/** The one uncompressed length-prefixed message of a unary answer. */
function grpcMessage(body: Buffer): Buffer | undefined {
  if (body.length < 5 || body[0] !== 0) return undefined;
  const len = body.readUInt32BE(1);
  return body.length === 5 + len ? body.subarray(5) : undefined;
}

/** The grpc-timeout header: at most 8 digits (the gRPC spec), so whole seconds past 99,999,999 ms. */
export function grpcTimeout(ms: number): string {
  const m = Math.max(1, Math.ceil(ms));
  return m <= 99_999_999 ? `${m}m` : `${Math.ceil(m / 1000)}S`;
}
