// RuntimeService and ImageService of runtime.v1 and runtime.v1alpha2 from one
// set of handlers over a CriBackend. Inside everything is runtime.v1; a
// v1alpha2 request is converted up on the way in and its answer down on the
// way out (src/api/convert.ts). Engine error kinds become gRPC codes here,
// once. Handlers are async and independent, so calls run concurrently: a
// slow pull never holds up a list.
import type * as grpc from '@grpc/grpc-js';
import type { CallOptions, CriBackend } from '../client/backend.js';
import { KIND_TO_CODE } from '../client/grpc-errors.js';
import { invalidArgument, IsulatsError } from '../runtime/errors.js';
import { loadCriServices, type CriVersion } from '../api/proto.js';
import { chunkedCreateDecoder } from './chunked-create-decode.js';
import { fromV1alpha2, toV1alpha2 } from '../api/convert.js';
import type { Logger } from './logger.js';
import { findUnknownEnum } from './enum-check.js';
import { validateRequest } from './validate.js';
import { logCall, type CallRecord } from './call-log.js';
import { cachingEncoder, type CachingEncoder } from './response-encoder.js';
import type { Type } from 'protobufjs';

/** containerd's limit; grpc-js's own default (4 MiB) is too small for big ListContainers answers. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const GRPC_INTERNAL = 13;
const GRPC_UNAVAILABLE = 14;

export interface GrpcStatus {
  code: number;
  details: string;
}

/** The one mapping from engine errors to gRPC status. */
export function toGrpcStatus(err: unknown): GrpcStatus {
  if (err instanceof IsulatsError) return { code: KIND_TO_CODE[err.kind] ?? GRPC_INTERNAL, details: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { code: GRPC_INTERNAL, details: message || 'internal error' };
}

export interface CriServiceOptions {
  backend: CriBackend;
  /** false: serve only runtime.v1alpha2 (iSulad's enable-cri-v1 = false). */
  enableCriV1: boolean;
  log: Logger;
  /** Told of every finished call (the daemon's metrics): its service (e.g. runtime.v1.RuntimeService), method, gRPC code and seconds. */
  onCall?: (service: string, rpc: string, code: number, seconds: number, streamed: boolean) => void;
}

/** Logs a finished call and tells `onCall`. */
function finished(opts: CriServiceOptions, service: string, streamed: boolean, call: CallRecord): void {
  logCall(opts.log, call);
  opts.onCall?.(service, call.rpc, call.code, Number(process.hrtime.bigint() - call.started) / 1e9, streamed);
}

type ServiceName = 'RuntimeService' | 'ImageService';

interface MethodDef {
  path: string;
  requestDeserialize: (bytes: Buffer) => unknown;
  requestStream: boolean;
  responseStream: boolean;
  originalName?: string;
  requestType?: { type?: { name?: string } };
  responseType?: { type?: { name?: string } };
  responseSerialize: (obj: object) => Buffer;
  responseMessageType?: () => Type;
}

/** Unary RPCs the backend serves, by proto name; anything else answers UNIMPLEMENTED. */
const UNARY: Record<ServiceName, string[]> = {
  RuntimeService: [
    'Version', 'RunPodSandbox', 'StopPodSandbox', 'RemovePodSandbox', 'PodSandboxStatus', 'ListPodSandbox',
    'CreateContainer', 'StartContainer', 'StopContainer', 'RemoveContainer', 'ListContainers', 'ContainerStatus',
    'UpdateContainerResources', 'UpdatePodSandboxResources', 'ReopenContainerLog', 'ExecSync', 'Exec', 'Attach', 'PortForward', 'ContainerStats',
    'ListContainerStats', 'PodSandboxStats', 'ListPodSandboxStats', 'ListMetricDescriptors', 'ListPodSandboxMetrics',
    'CheckpointContainer', 'CheckpointPod', 'RestorePod', 'UpdateRuntimeConfig', 'Status', 'RuntimeConfig',
  ],
  ImageService: ['ListImages', 'ImageStatus', 'PullImage', 'RemoveImage', 'ImageFsInfo'],
};

/**
 * runtime.v1's server-streaming list variants (pod metrics included): the
 * same items as the list call with the request's filter (if it has one),
 * sent in batches (each response carries a repeated field), then the end.
 * `list` is the backend method, `from` its response's repeated field, `to`
 * the stream response's.
 */
const STREAMED_LISTS: Record<string, { list: string; from: string; to: string }> = {
  StreamPodSandboxes: { list: 'listPodSandbox', from: 'items', to: 'podSandboxes' },
  StreamContainers: { list: 'listContainers', from: 'containers', to: 'containers' },
  StreamContainerStats: { list: 'listContainerStats', from: 'stats', to: 'containerStats' },
  StreamPodSandboxStats: { list: 'listPodSandboxStats', from: 'stats', to: 'podSandboxStats' },
  StreamImages: { list: 'listImages', from: 'images', to: 'images' },
  StreamPodSandboxMetrics: { list: 'listPodSandboxMetrics', from: 'podMetrics', to: 'podSandboxMetrics' },
};

/** Items per stream response: far below the message limit even for big images or stats. */
export const STREAM_BATCH = 100;

const camel = (rpc: string) => rpc.charAt(0).toLowerCase() + rpc.slice(1);

export interface CriServices {
  /** CRI versions served. */
  versions: CriVersion[];
  /**
   * Ends open event streams with UNAVAILABLE so clients reconnect elsewhere;
   * called on shutdown, since a kubelet's stream would otherwise hold the
   * graceful drain open until its bound.
   */
  endStreams(): void;
  /** The unary methods served, by path: what the HTTP/2 fast path serves without grpc-js. */
  unary: ReadonlyMap<string, UnaryMethod>;
}

/** Adds both CRI services of the enabled versions to `server`. */
export async function addCriServices(server: grpc.Server, opts: CriServiceOptions): Promise<CriServices> {
  const versions: CriVersion[] = opts.enableCriV1 ? ['v1', 'v1alpha2'] : ['v1alpha2'];
  const streams = new Set<() => void>();
  const unary = new Map<string, UnaryMethod>();
  for (const version of versions) {
    const services = await loadCriServices(version);
    for (const name of ['RuntimeService', 'ImageService'] as const) {
      // Both servers encode with these, so an answer's bytes do not depend on which one served it.
      const definition = withCachedEncoders(services[name].service as unknown as Record<string, MethodDef>);
      server.addService(definition as grpc.ServiceDefinition, handlersFor(name, version, definition, opts, streams, unary));
    }
  }
  return {
    versions,
    unary,
    endStreams: () => {
      for (const end of [...streams]) end();
    },
  };
}

/** The read RPCs kubelet repeats (PLEG relist, probes, image checks): answers from cachingEncoder. */
const REPEATED_READS = new Set(['Version', 'Status', 'ListPodSandbox', 'ListContainers', 'PodSandboxStatus', 'ContainerStatus', 'ImageStatus', 'ListImages']);

function withCachedEncoders(definition: Record<string, MethodDef>): Record<string, MethodDef> {
  const out: Record<string, MethodDef> = { ...definition };
  for (const rpc of REPEATED_READS) {
    const def = definition[rpc];
    if (!def?.responseMessageType || def.responseStream) continue;
    let encode: CachingEncoder | undefined;
    out[rpc] = { ...def, responseSerialize: (obj: object) => (encode ??= cachingEncoder(def.responseMessageType!()))(obj) };
  }
  return out;
}

function handlersFor(
  service: ServiceName, version: CriVersion, definition: Record<string, MethodDef>, opts: CriServiceOptions, streams: Set<() => void>,
  unary: Map<string, UnaryMethod>,
): grpc.UntypedServiceImplementation {
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [rpc, def] of Object.entries(definition)) {
    if (UNARY[service].includes(rpc) && !def.requestStream && !def.responseStream) {
      const call = unaryCall(rpc, version, def, opts, `runtime.${version}.${service}`);
      // A 2 MB config (100k env vars) must not hold every other client for its whole decode.
      const requestDecode = rpc === 'CreateContainer' && version === 'v1' ? chunkedCreateDecoder(def.requestDeserialize) : undefined;
      unary.set(def.path, { path: def.path, requestDeserialize: def.requestDeserialize, requestDecode, responseSerialize: def.responseSerialize, call });
      impl[rpc] = unaryHandler(call);
    } else if (STREAMED_LISTS[rpc] && def.responseStream && version === 'v1') {
      impl[rpc] = streamedListHandler(rpc, def, opts, `runtime.${version}.${service}`);
    } else if (service === 'RuntimeService' && rpc === 'GetContainerEvents' && version === 'v1') {
      impl[rpc] = eventsHandler(opts, streams);
    }
    // Not listed: grpc-js answers UNIMPLEMENTED with the method name.
  }
  return impl;
}

/** One unary call's outcome: the answer to send, or the status to end it with. */
export type UnaryOutcome = { answer: unknown; status?: undefined } | { answer?: undefined; status: GrpcStatus };

/**
 * A unary CRI method as both servers use it: grpc-js's handler (registered on the Server) and the
 * HTTP/2 fast path (unary-fast-path.ts). `call` runs the whole call (checks, conversion, backend,
 * log line, metrics) on a decoded request and never rejects.
 */
export interface UnaryMethod {
  /** e.g. /runtime.v1.RuntimeService/Version */
  path: string;
  requestDeserialize: (bytes: Buffer) => unknown;
  /** The fast path's decoder where it differs from requestDeserialize: yields the event loop on a large request. */
  requestDecode?: (bytes: Buffer) => Promise<unknown>;
  responseSerialize: (obj: object) => Buffer;
  call: (request: unknown, signal: AbortSignal) => Promise<UnaryOutcome>;
}

function unaryCall(rpc: string, version: CriVersion, def: MethodDef, opts: CriServiceOptions, service: string): UnaryMethod['call'] {
  const { backend } = opts;
  const method = camel(rpc);
  const requestType = def.requestType?.type?.name ?? `${rpc}Request`;
  const responseType = def.responseType?.type?.name ?? `${rpc}Response`;
  return async (request, signal) => {
    const started = process.hrtime.bigint();
    // The request as the engine saw it (v1), for the log line.
    let req: any = request;
    let res: any;
    let answer: unknown;
    try {
      const unknownEnum = findUnknownEnum(version === 'v1' ? 'cri-v1' : 'cri-v1alpha2', requestType, request);
      if (unknownEnum) throw invalidArgument(`unknown enum value: ${unknownEnum}`);
      if (version !== 'v1') req = fromV1alpha2(requestType, request);
      validateRequest(rpc, req);
      const fn = (backend as unknown as Record<string, ((r: unknown, call: CallOptions) => Promise<unknown>) | undefined>)[method];
      if (typeof fn !== 'function') throw new IsulatsError('unimplemented', `${rpc} is not implemented by this runtime`);
      res = await fn.call(backend, req, { signal });
      // The API version a client sees is the one it speaks to, whatever the engine behind says.
      if (rpc === 'Version' && res) res = { ...(res as object), runtimeApiVersion: version };
      answer = version === 'v1' ? res : toV1alpha2(responseType, res);
    } catch (err) {
      const status = toGrpcStatus(err);
      finished(opts, service, false, { rpc, api: version, started, code: status.code, details: status.details, err, req });
      return { status };
    }
    // Outside the try: a throwing log or metrics hook must not count an answered call again as failed.
    finished(opts, service, false, { rpc, api: version, started, code: 0, req, res });
    return { answer };
  };
}

/** grpc-js's handler for a unary method: used when the fast path is off or passes a call on. */
function unaryHandler(call: UnaryMethod['call']): grpc.handleUnaryCall<any, any> {
  return (serverCall, callback) => {
    const gone = callerGone(serverCall);
    void call(serverCall.request, gone.signal).then((outcome) => {
      gone.done();
      if (outcome.status) callback(outcome.status as grpc.ServiceError, null);
      else callback(null, outcome.answer);
    });
  };
}

/**
 * A signal that aborts when the client has gone: it cancelled the call, or the call's deadline
 * passed (grpc-js answers DEADLINE_EXCEEDED itself and then reports the call cancelled). The
 * engine stops the call's work on it. `done` detaches it once the call has been answered.
 */
function callerGone(call: grpc.ServerUnaryCall<unknown, unknown>): { signal: AbortSignal; done: () => void } {
  const abort = new AbortController();
  const onCancel = () => abort.abort(callerGoneError());
  call.on('cancelled', onCancel);
  return { signal: abort.signal, done: () => void call.off('cancelled', onCancel) };
}

/** The reason a call's signal aborts with when its caller has gone. */
export function callerGoneError(): IsulatsError {
  return new IsulatsError('deadline-exceeded', 'the caller cancelled the call or its deadline passed');
}

function streamedListHandler(rpc: string, def: MethodDef, opts: CriServiceOptions, service: string): grpc.handleServerStreamingCall<any, any> {
  const { backend } = opts;
  const { list, from, to } = STREAMED_LISTS[rpc]!;
  const requestType = def.requestType?.type?.name ?? `${rpc}Request`;
  return (call) => {
    const started = process.hrtime.bigint();
    let cancelled = false;
    call.on('cancelled', () => (cancelled = true));
    void (async () => {
      const unknownEnum = findUnknownEnum('cri-v1', requestType, call.request);
      if (unknownEnum) throw invalidArgument(`unknown enum value: ${unknownEnum}`);
      const fn = (backend as unknown as Record<string, ((r: unknown) => Promise<Record<string, unknown[]>>) | undefined>)[list];
      if (typeof fn !== 'function') throw new IsulatsError('unimplemented', `${rpc} is not implemented by this runtime`);
      const items = (await fn.call(backend, call.request?.filter ? { filter: call.request.filter } : {}))[from] ?? [];
      for (let i = 0; i < items.length && !cancelled; i += STREAM_BATCH) {
        // Respect backpressure: a slow reader must not make the daemon buffer everything.
        if (!call.write({ [to]: items.slice(i, i + STREAM_BATCH) })) {
          await new Promise<void>((resolve) => {
            const done = () => {
              call.off('drain', done);
              call.off('cancelled', done);
              resolve();
            };
            call.once('drain', done);
            call.once('cancelled', done);
          });
        }
      }
    })().then(
      () => {
        finished(opts, service, true, { rpc, api: 'v1', started, code: 0 });
        if (!cancelled) call.end();
      },
      (err: unknown) => {
        const status = toGrpcStatus(err);
        finished(opts, service, true, { rpc, api: 'v1', started, code: status.code, details: status.details, err });
        if (!cancelled) call.emit('error', status);
      },
    );
  };
}

function eventsHandler(opts: CriServiceOptions, streams: Set<() => void>): grpc.handleServerStreamingCall<any, any> {
  const { backend, log } = opts;
  return (call) => {
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    const end = () => {
      if (abort.signal.aborted) return;
      abort.abort();
      call.emit('error', { code: GRPC_UNAVAILABLE, details: 'the daemon is shutting down' });
    };
    streams.add(end);
    void (async () => {
      try {
        for await (const ev of backend.getContainerEvents(call.request, abort.signal)) {
          if (abort.signal.aborted) break;
          call.write(ev);
        }
        if (!abort.signal.aborted) call.end();
      } catch (err) {
        if (abort.signal.aborted) return;
        const status = toGrpcStatus(err);
        log.debug('GetContainerEvents ended with an error', { code: status.code, error: status.details });
        call.emit('error', status);
      } finally {
        streams.delete(end);
      }
    })();
  };
}
