// A transparent CRI proxy: clients connect to our listener, every call goes to
// the upstream endpoint as the same serialized bytes (identity codecs on both
// sides, so unknown fields and streaming URLs survive untouched), and each
// call, when it ends, becomes a TraceRecord. Messages are decoded only for
// that record, never re-encoded. The listener is the daemon's (listeners.ts),
// so clients that send the socket path as `:authority` work here as well.
import type * as grpcTypes from '@grpc/grpc-js';
import { cjs } from '../util/cjs.js';
import { grpcTarget } from '../client/endpoint.js';
import { preloadProtobuf } from '../api/proto.js';
import { MAX_MESSAGE_BYTES } from '../daemon/cri-server.js';
import { listenTcp, listenUnix, type Listener } from '../daemon/listeners.js';
import type { Logger } from '../daemon/logger.js';
import { callSubjects } from './call-subjects.js';
import { tracedMethods, type TracedMethod } from './method-table.js';
import type { TraceRecord } from './trace-record.js';

export interface CriProxyOptions {
  /** `unix:///path`, a plain path, or `tcp://host:port`. */
  listen: string;
  upstream: string;
  onRecord(record: TraceRecord): void;
  log: Logger;
}

export interface CriProxy {
  readonly endpoint: string;
  close(): Promise<void>;
}

const identity = (b: Buffer): Buffer => b;

/** Metadata the client's transport sets itself; forwarding them would duplicate headers. */
const TRANSPORT_KEYS = /^(user-agent|grpc-.*|content-type|te)$/;

export async function startCriProxy(opts: CriProxyOptions): Promise<CriProxy> {
  const grpc = cjs(await import('@grpc/grpc-js'));
  // The log-line decoders run synchronously and need protobufjs loaded first.
  await preloadProtobuf();
  const target = grpcTarget(opts.upstream);
  const statusName = (code: number): string => grpc.status[code] ?? String(code);
  const channelOptions = { 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES, 'grpc.max_send_message_length': MAX_MESSAGE_BYTES };
  const upstream = new grpc.Client(target, grpc.credentials.createInsecure(), channelOptions);
  const server = new grpc.Server(channelOptions);

  const forwardedMetadata = (md: grpcTypes.Metadata): grpcTypes.Metadata => {
    const out = md.clone();
    for (const key of Object.keys(out.getMap())) if (TRANSPORT_KEYS.test(key)) out.remove(key);
    return out;
  };
  // Called after the answer went back: decoding and printing never delay the client.
  const record = (m: TracedMethod, started: number, request: Buffer, response: Buffer | undefined, err: grpcTypes.ServiceError | undefined, messages?: number) => {
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    const time = new Date().toISOString();
    setImmediate(() => emit(m, time, durationMs, request, response, err, messages));
  };
  const emit = (m: TracedMethod, time: string, durationMs: number, request: Buffer, response: Buffer | undefined, err: grpcTypes.ServiceError | undefined, messages?: number) => {
    let rq: Record<string, any> | undefined;
    let rs: Record<string, any> | undefined;
    try {
      rq = m.decodeRequest(request);
      if (response) rs = m.decodeResponse(response);
    } catch {
      // A message we cannot decode still went through unchanged; the line just names less.
    }
    opts.onRecord({
      time,
      method: m.name,
      api: m.api,
      subjects: callSubjects(m.name, rq, rs),
      durationMs,
      status: statusName(err ? err.code : 0),
      ...(err ? { error: err.details } : {}),
      ...(messages !== undefined ? { messages } : {}),
    });
  };

  const unary = (m: TracedMethod) => (call: grpcTypes.ServerUnaryCall<Buffer, Buffer>, callback: grpcTypes.sendUnaryData<Buffer>) => {
    const started = performance.now();
    const up = upstream.makeUnaryRequest(m.path, identity, identity, call.request, forwardedMetadata(call.metadata), { deadline: call.getDeadline() },
      (err, res) => {
        if (err) callback(err);
        else callback(null, res);
        record(m, started, call.request, res, err ?? undefined);
      });
    up.on('metadata', (md) => call.sendMetadata(md));
    call.on('cancelled', () => up.cancel());
  };

  const serverStream = (m: TracedMethod) => (call: grpcTypes.ServerWritableStream<Buffer, Buffer>) => {
    const started = performance.now();
    let messages = 0;
    let done = false;
    const up = upstream.makeServerStreamRequest(m.path, identity, identity, call.request, forwardedMetadata(call.metadata), { deadline: call.getDeadline() });
    up.on('metadata', (md) => call.sendMetadata(md));
    up.on('data', (chunk: Buffer) => {
      messages++;
      if (!call.write(chunk)) {
        up.pause();
        call.once('drain', () => up.resume());
      }
    });
    const finish = (err?: grpcTypes.ServiceError) => {
      if (done) return;
      done = true;
      if (err) call.emit('error', err);
      else call.end();
      record(m, started, call.request, undefined, err, messages);
    };
    up.on('error', (err: grpcTypes.ServiceError) => finish(err));
    up.on('end', () => finish());
    call.on('cancelled', () => {
      up.cancel();
      finish({ code: grpc.status.CANCELLED, details: 'cancelled by the client' } as grpcTypes.ServiceError);
    });
  };

  for (const m of tracedMethods()) {
    const def = {
      [m.name]: {
        path: m.path, requestStream: false, responseStream: m.responseStream,
        requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity,
      },
    };
    server.addService(def as grpcTypes.ServiceDefinition, { [m.name]: m.responseStream ? serverStream(m) : unary(m) } as grpcTypes.UntypedServiceImplementation);
  }

  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  let listener: Listener;
  try {
    listener = opts.listen.startsWith('tcp://')
      ? await listenTcp(opts.listen.slice('tcp://'.length), injector, opts.log)
      : await listenUnix(grpcTarget(opts.listen).slice('unix://'.length), injector, opts.log);
  } catch (err) {
    injector.destroy();
    server.forceShutdown();
    upstream.close();
    throw err;
  }
  return {
    endpoint: listener.endpoint,
    async close() {
      await listener.close();
      server.forceShutdown();
      injector.destroy();
      upstream.close();
    },
  };
}
