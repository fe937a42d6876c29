// Streams the hand transport does not answer itself (GetContainerEvents and the other streaming
// calls, the admin service, unknown methods, whatever is not a gRPC POST) relayed to grpc-js's
// server: one in-process HTTP/2 client session per hand-framed connection, over a duplex pair
// whose other end goes into grpc-js's connection injector. Request headers, DATA and the end go
// in; response headers, DATA and trailers come back and are framed by the hand connection. Flow
// control holds end to end: the peer's DATA gives window back only once the relay wrote it, and a
// response waits (the client stream paused) while the peer's window is shut.
import * as http2 from 'node:http2';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../../protocols/http2/frame.js';
import { hpackEncode } from '../../protocols/http2/hpack-encoder.js';
import { duplexPair } from './duplex-pair.js';
import type { H2Stream } from './stream.js';

/** Request fields the relay's own session sets (or HTTP/2 forbids passing on). */
const NOT_RELAYED = new Set([':authority', ':scheme', 'host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

export class GrpcJsRelay {
  private session?: http2.ClientHttp2Session;

  constructor(private readonly inject: (socket: Duplex) => void) {}

  relay(stream: H2Stream): void {
    const session = this.open();
    const headers: http2.OutgoingHttpHeaders = {};
    for (const [k, v] of stream.fields) {
      if (NOT_RELAYED.has(k)) continue;
      const had = headers[k];
      headers[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [String(had)]), v];
    }
    let req: http2.ClientHttp2Stream;
    try {
      req = session.request(headers);
    } catch {
      stream.reset(ErrorCode.REFUSED_STREAM);
      return;
    }
    req.on('error', () => undefined);
    stream.manualWindow = true;
    stream.onData = (chunk) => {
      req.write(chunk, () => stream.consume(chunk.length));
    };
    stream.onEnd = () => req.end();
    stream.onAbort = (code) => {
      if (!req.closed) req.close(code === ErrorCode.NO_ERROR ? ErrorCode.CANCEL : code);
    };
    stream.onDrain = () => req.resume();
    let trailers: Buffer | undefined;
    req.on('response', (h: http2.IncomingHttpHeaders, flags: number) => {
      stream.respond(encodeHeaders(h), (flags & 0x1) !== 0);
    });
    req.on('data', (chunk: Buffer) => {
      if (!stream.write(chunk)) req.pause();
    });
    req.on('trailers', (t: http2.IncomingHttpHeaders) => {
      trailers = encodeHeaders(t);
    });
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('end', () => stream.end(trailers));
    req.on('close', () => {
      if (stream.localEnded) return;
      // Node may close a stream whose trailers came without emitting 'end'.
      if (answered && req.rstCode === ErrorCode.NO_ERROR) return stream.end(trailers);
      // grpc-js reset it, or the relay's session went: the peer hears a reset.
      stream.reset(req.rstCode && req.rstCode !== ErrorCode.NO_ERROR ? req.rstCode : ErrorCode.INTERNAL_ERROR);
    });
  }

  /** Ends the relay's session (its connection closed); its streams are reset. */
  close(): void {
    this.session?.destroy();
    this.session = undefined;
  }

  private open(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const [clientEnd, serverEnd] = duplexPair();
    this.inject(serverEnd);
    const session = http2.connect('http://localhost', { createConnection: () => clientEnd });
    session.on('error', () => undefined);
    session.on('close', () => {
      if (this.session === session) this.session = undefined;
    });
    this.session = session;
    return session;
  }
}

/** Node's header object as a block: pseudo-headers first, repeated names field by field. */
function encodeHeaders(h: http2.IncomingHttpHeaders): Buffer {
  const fields: Array<[string, string]> = [];
  const regular: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const into = k.startsWith(':') ? fields : regular;
    for (const one of Array.isArray(v) ? v : [v]) into.push([k, String(one)]);
  }
  return hpackEncode([...fields, ...regular]);
}
