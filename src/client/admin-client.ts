// Client of the isulats admin service, which the daemon serves on its CRI
// socket next to RuntimeService and ImageService: isulats' extras (isula's
// verbs, NRI plugin listing, daemon info) for a remote backend.
//
// Wire format: gRPC unary calls on /isulats.admin.v1.Admin/<Method> whose
// messages are UTF-8 JSON rather than protobuf. The extras pass paths, lists
// and small records; JSON needs no schema build step and no descriptor
// loading at CLI start-up, and a foreign runtime answers UNIMPLEMENTED for
// the unknown method whatever the payload, which becomes "not supported by
// this runtime". Requests are {"args": [...]} (the extra's arguments in
// order), answers {"result": ...}.
import type { IsulatsExtras, NriConfigInfo, NriPluginInfo } from './backend.js';
import { grpcTarget } from './endpoint.js';
import { fromGrpcError } from './grpc-errors.js';
import { IsulatsError } from '../runtime/errors.js';
import { rpcDeadline } from '../util/timer-delay.js';

export const ADMIN_SERVICE = 'isulats.admin.v1.Admin';

/** Extra name → admin method name. */
export const ADMIN_EXTRA_METHODS = {
  nriPlugins: 'ListNriPlugins',
  nriConfig: 'NriConfig',
  tagImage: 'TagImage',
  loadImages: 'LoadImages',
  saveImages: 'SaveImages',
  importImage: 'ImportImage',
  buildImage: 'BuildImage',
  login: 'Login',
  logout: 'Logout',
  killContainer: 'KillContainer',
  waitContainer: 'WaitContainer',
  topContainer: 'TopContainer',
  pauseContainer: 'PauseContainer',
  unpauseContainer: 'UnpauseContainer',
  restartContainer: 'RestartContainer',
} as const satisfies Record<keyof IsulatsExtras, string>;

/** Calls that may legitimately run long (waiting on a container, moving image archives): no deadline. */
export const ADMIN_UNBOUNDED: ReadonlySet<string> = new Set(['WaitContainer', 'LoadImages', 'SaveImages', 'ImportImage', 'BuildImage']);

export const adminPath = (method: string): string => `/${ADMIN_SERVICE}/${method}`;
export const encodeJson = (value: unknown): Buffer => Buffer.from(JSON.stringify(value ?? {}));
export const decodeJson = (bytes: Buffer): any => (bytes.length === 0 ? {} : JSON.parse(bytes.toString('utf8')));

/** What `Info` answers: the daemon's configuration and the runtime's conditions. */
export interface AdminInfo {
  version: string;
  pid: number;
  endpoints: string[];
  apiVersions: string[];
  backend: string;
  /** Base URL of the streaming server, when the daemon runs one. */
  streamingUrl?: string;
  config: Record<string, unknown>;
  conditions: Array<{ type: string; status: boolean; reason: string; message: string }>;
}

const GRPC_UNIMPLEMENTED = 12;

/** One admin call; UNIMPLEMENTED (a foreign runtime) becomes the "not supported" error. */
export async function callAdmin<T>(
  endpoint: string, method: string, args: unknown[], opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const { cjs } = await import('../api/proto.js');
  const grpc = cjs(await import('@grpc/grpc-js'));
  const client = new grpc.Client(grpcTarget(endpoint), grpc.credentials.createInsecure());
  try {
    return await new Promise<T>((resolve, reject) => {
      const deadline = opts.timeoutMs && !ADMIN_UNBOUNDED.has(method) ? rpcDeadline(opts.timeoutMs) : Infinity;
      const call = client.makeUnaryRequest(adminPath(method), encodeJson, decodeJson, { args }, new grpc.Metadata(), { deadline },
        (err: import('@grpc/grpc-js').ServiceError | null, res?: { result?: T }) => {
          opts.signal?.removeEventListener('abort', onAbort);
          if (!err) resolve(res?.result as T);
          else if (err.code === GRPC_UNIMPLEMENTED) reject(notSupported(method, endpoint, err.details));
          else reject(fromGrpcError(err, endpoint));
        });
      const onAbort = (): void => call.cancel();
      if (opts.signal?.aborted) call.cancel();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  } finally {
    client.close();
  }
}

function notSupported(method: string, endpoint: string, details: string): IsulatsError {
  const why = /unimplemented|unknown service|not implemented/i.test(details) ? '' : `: ${details}`;
  return new IsulatsError('unimplemented', `${method} is not supported by this runtime (${endpoint}): it is an isulats extra, served by isulats daemon${why}`);
}

/** The daemon's Info (config and conditions); rejects with "not supported" on a foreign runtime. */
export function adminInfo(endpoint: string, timeoutMs: number): Promise<AdminInfo> {
  return callAdmin<AdminInfo>(endpoint, 'Info', [], { timeoutMs });
}

/**
 * The extras of the daemon at `endpoint`, for RemoteBackend. Synchronous and
 * lazy: nothing is dialled until an extra is used, and on a foreign runtime
 * each extra rejects with "<Method> is not supported by this runtime". Use
 * `probeAdminExtras` to learn up front whether the runtime is an isulats daemon.
 * Undefined for an endpoint that is not a gRPC endpoint.
 */
export function adminExtras(endpoint: string, timeoutMs: number): IsulatsExtras | undefined {
  try {
    grpcTarget(endpoint);
  } catch {
    return undefined;
  }
  const call = <T>(method: string, args: unknown[], signal?: AbortSignal) => callAdmin<T>(endpoint, method, args, { timeoutMs, signal });
  const m = ADMIN_EXTRA_METHODS;
  return {
    nriPlugins: () => call<NriPluginInfo[]>(m.nriPlugins, []),
    nriConfig: () => call<NriConfigInfo>(m.nriConfig, []),
    tagImage: (source, target) => call<void>(m.tagImage, [source, target]),
    loadImages: (tarPath) => call<Array<{ id: string; tags: string[] }>>(m.loadImages, [tarPath]),
    saveImages: (refs, tarPath, format) => call<void>(m.saveImages, [refs, tarPath, format]),
    importImage: (tarPath, ref) => call<string>(m.importImage, [tarPath, ref]),
    buildImage: (dir, ref, config) => call<string>(m.buildImage, [dir, ref, config]),
    login: (server, username, password) => call<void>(m.login, [server, username, password]),
    logout: (server) => call<boolean>(m.logout, [server]),
    killContainer: (id, signal) => call<void>(m.killContainer, [id, signal]),
    waitContainer: (id, signal) => call<number>(m.waitContainer, [id], signal),
    topContainer: (id) => call<number[]>(m.topContainer, [id]),
    pauseContainer: (id) => call<void>(m.pauseContainer, [id]),
    unpauseContainer: (id) => call<void>(m.unpauseContainer, [id]),
    restartContainer: (id, timeoutSec) => call<void>(m.restartContainer, [id, timeoutSec]),
  };
}

/** The extras when `endpoint` is an isulats daemon (its Info answers), else undefined. */
export async function probeAdminExtras(endpoint: string, timeoutMs: number): Promise<IsulatsExtras | undefined> {
  try {
    await adminInfo(endpoint, timeoutMs);
  } catch (err) {
    if (err instanceof IsulatsError && err.kind === 'unimplemented') return undefined;
    throw err;
  }
  return adminExtras(endpoint, timeoutMs);
}
