// ttrpc server: services registered by name, each method a function from
// request payload to response payload. Errors become google.rpc.Status in the
// response: TtrpcStatusError keeps its code, anything else is UNKNOWN.
import type { Duplex } from 'node:stream';
import { FrameDecoder, encodeFrame, type Frame } from './codec.js';
import { Code, MessageType } from './constants.js';
import type { Envelopes } from './envelope.js';
import { TtrpcStatusError, statusCodeOf, type OversizedMessageError } from './errors.js';

export interface CallContext {
  service: string;
  method: string;
  /** Deadline the client asked for, in ms (0 = none). */
  timeoutMs: number;
  metadata: { key: string; value: string }[];
}

export type MethodHandler = (payload: Buffer, ctx: CallContext) => Promise<Uint8Array> | Uint8Array;
export type ServiceHandlers = Record<string, MethodHandler>;

export class TtrpcServer {
  private readonly services = new Map<string, ServiceHandlers>();
  private readonly connections = new Set<Duplex>();

  constructor(private readonly envelopes: Envelopes) {}

  register(service: string, handlers: ServiceHandlers): void {
    if (this.services.has(service)) throw new Error(`ttrpc: service ${service} already registered`);
    this.services.set(service, handlers);
  }

  /** Serves calls arriving on conn until it closes. */
  serve(conn: Duplex): void {
    this.connections.add(conn);
    const decoder = new FrameDecoder({
      frame: (f) => this.onFrame(conn, f),
      oversized: (id, type, err) => this.onOversized(conn, id, type, err),
    });
    conn.on('data', (chunk: Buffer) => decoder.push(chunk));
    conn.on('close', () => this.connections.delete(conn));
    conn.on('error', () => this.connections.delete(conn));
  }

  close(): void {
    for (const conn of this.connections) conn.destroy();
    this.connections.clear();
  }

  private onFrame(conn: Duplex, frame: Frame): void {
    if (frame.type !== MessageType.request) return; // no streaming in this server
    if (frame.streamId % 2 === 0) {
      this.reply(conn, frame.streamId, new TtrpcStatusError(Code.INVALID_ARGUMENT, 'stream ID must be odd for client-initiated streams'));
      return;
    }
    void this.dispatch(conn, frame);
  }

  private async dispatch(conn: Duplex, frame: Frame): Promise<void> {
    let result: Uint8Array | Error;
    try {
      const req = this.envelopes.decodeRequest(frame.payload);
      const service = this.services.get(req.service);
      if (!service) throw new TtrpcStatusError(Code.UNIMPLEMENTED, `service ${req.service}`);
      const handler = Object.hasOwn(service, req.method) ? service[req.method] : undefined;
      if (!handler) throw new TtrpcStatusError(Code.UNIMPLEMENTED, `method ${req.method}`);
      const timeoutMs = Number(BigInt(req.timeoutNano || '0') / 1_000_000n);
      result = await handler(req.payload, { service: req.service, method: req.method, timeoutMs, metadata: req.metadata });
    } catch (err) {
      result = err instanceof Error ? err : new Error(String(err));
    }
    this.reply(conn, frame.streamId, result);
  }

  private onOversized(conn: Duplex, streamId: number, type: number, err: OversizedMessageError): void {
    if (type === MessageType.request) this.reply(conn, streamId, err);
  }

  private reply(conn: Duplex, streamId: number, result: Uint8Array | Error): void {
    if (conn.destroyed || !conn.writable) return;
    let body: Uint8Array;
    if (result instanceof Error) {
      const message = result instanceof TtrpcStatusError ? result.details : result.message;
      body = this.envelopes.encodeResponse({ status: { code: statusCodeOf(result), message }, payload: Buffer.alloc(0) });
    } else {
      // Always carry a status (OK here), as the reference server does.
      body = this.envelopes.encodeResponse({ status: { code: Code.OK, message: '' }, payload: Buffer.from(result) });
    }
    let frame: Buffer;
    try {
      frame = encodeFrame(streamId, MessageType.response, 0, body);
    } catch (err) {
      const status = { code: Code.RESOURCE_EXHAUSTED, message: (err as Error).message };
      frame = encodeFrame(streamId, MessageType.response, 0, this.envelopes.encodeResponse({ status, payload: Buffer.alloc(0) }));
    }
    conn.write(frame);
  }
}
