// gRPC requests written by hand over node:http2, for tests that send what a gRPC library would not
// (odd frames, oversized lengths, compressed messages) and compare answers byte for byte.
import * as http2 from 'node:http2';
import * as net from 'node:net';

/** What came back: response headers (no date), the body as hex, trailers, and how it ended. */
export interface RawAnswer {
  headers: Record<string, unknown>;
  data: string;
  trailers?: Record<string, unknown>;
  /** The stream's RST_STREAM code, when `onRequest` was given. */
  rstCode?: number;
  /** The stream's error message, with `keepError`. */
  error?: string;
}

/** An HTTP/2 session to a unix socket; session errors are the requests' to report. */
export function connectUnix(socket: string): http2.ClientHttp2Session {
  const session = http2.connect('http://localhost', { createConnection: () => net.connect(socket) });
  session.on('error', () => undefined);
  return session;
}

/** A gRPC message with its 5-byte prefix (compressed flag, length). */
export function grpcFrame(message: Buffer, compressed = 0): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt8(compressed, 0);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

/** One POST of `body` to `path` on `session`, resolved when its stream closes. */
export function rawGrpcCall(
  session: http2.ClientHttp2Session, path: string, body: Buffer,
  opts: { headers?: Record<string, string>; keepError?: boolean; onRequest?: (req: http2.ClientHttp2Stream) => void } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const req = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...opts.headers });
    const out: RawAnswer = { headers: {}, data: '' };
    const chunks: Buffer[] = [];
    req.on('response', (h) => {
      const { date: _date, ...rest } = h;
      out.headers = { ...rest };
    });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('trailers', (t) => (out.trailers = { ...t }));
    req.on('error', (err) => {
      if (opts.keepError) out.error = err.message;
    });
    req.on('close', () => {
      out.data = Buffer.concat(chunks).toString('hex');
      if (opts.onRequest) out.rstCode = req.rstCode;
      resolve(out);
    });
    req.end(body);
    opts.onRequest?.(req);
  });
}
