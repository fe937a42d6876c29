// The isulats admin service on the CRI socket (/isulats.admin.v1.Admin/*,
// JSON messages: see src/client/admin-client.ts for the wire format and why).
// Info reports the daemon's configuration and the runtime's conditions; the
// other methods serve the backend's isulats extras, each one UNIMPLEMENTED
// when the backend lacks it (e.g. a daemon proxying a foreign runtime).
import type * as grpc from '@grpc/grpc-js';
import type { CriBackend, IsulatsExtras } from '../client/backend.js';
import {
  ADMIN_EXTRA_METHODS, ADMIN_SERVICE, adminPath, decodeJson, encodeJson, type AdminInfo,
} from '../client/admin-client.js';
import { invalidArgument, IsulatsError } from '../runtime/errors.js';
import type { DaemonConfig } from '../runtime/config/daemon-config.js';
import { toGrpcStatus } from './cri-server.js';
import type { Logger } from './logger.js';

export interface AdminServiceOptions {
  backend: CriBackend;
  config: DaemonConfig;
  log: Logger;
  /** Read at call time: the daemon knows these only once it listens. */
  state: () => { endpoints: string[]; apiVersions: string[]; streamingUrl?: string };
}

type Handler = (args: unknown[], signal: AbortSignal) => Promise<unknown>;

export function addAdminService(server: grpc.Server, opts: AdminServiceOptions): void {
  const handlers: Record<string, Handler> = { Info: () => info(opts) };
  for (const [extra, method] of Object.entries(ADMIN_EXTRA_METHODS) as Array<[keyof IsulatsExtras, string]>) {
    handlers[method] = async (args, signal) => {
      const fn = opts.backend.extras?.[extra] as ((...a: unknown[]) => Promise<unknown>) | undefined;
      if (typeof fn !== 'function') throw new IsulatsError('unimplemented', `${method} is not supported by the runtime behind this daemon (${opts.backend.target})`);
      if (!Array.isArray(args)) throw invalidArgument('args must be an array');
      // waitContainer takes the call's cancellation as its signal.
      return fn.apply(opts.backend.extras, extra === 'waitContainer' ? [args[0], signal] : args);
    };
  }
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [method, handler] of Object.entries(handlers)) {
    definition[method] = {
      path: adminPath(method),
      requestStream: false,
      responseStream: false,
      requestSerialize: encodeJson,
      requestDeserialize: decodeJson,
      responseSerialize: encodeJson,
      responseDeserialize: decodeJson,
    };
    impl[method] = ((call: grpc.ServerUnaryCall<{ args?: unknown[] }, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const abort = new AbortController();
      call.on('cancelled', () => abort.abort());
      handler(call.request?.args ?? [], abort.signal).then(
        (result) => callback(null, { result: result ?? null }),
        (err: unknown) => {
          const status = toGrpcStatus(err);
          opts.log.debug('admin request failed', { method: `${ADMIN_SERVICE}/${method}`, code: status.code, error: status.details });
          callback(status as grpc.ServiceError, null);
        },
      );
    }) as grpc.handleUnaryCall<unknown, unknown>;
  }
  server.addService(definition as grpc.ServiceDefinition, impl);
}

async function info(opts: AdminServiceOptions): Promise<AdminInfo> {
  const status = await opts.backend.status({ verbose: false }).catch(() => undefined);
  const state = opts.state();
  // Lazy: a daemon proxying another runtime need not load the engine for a version string.
  const { ENGINE_VERSION } = await import('../runtime/engine.js');
  return {
    version: ENGINE_VERSION,
    pid: process.pid,
    endpoints: state.endpoints,
    apiVersions: state.apiVersions,
    backend: opts.backend.target,
    ...(state.streamingUrl ? { streamingUrl: state.streamingUrl } : {}),
    config: { ...opts.config },
    conditions: (status?.status?.conditions ?? []).map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message })),
  };
}
