// The one interface every command talks to. Remote (grpc-js to any CRI socket)
// and embedded (the in-process engine) both implement it; the daemon serves the
// engine through the same shape. Method names are the CRI RPCs in camelCase,
// request/response types are runtime.v1 (see src/api/cri.ts): `XIn` is the
// partial input form a caller builds, `X` the fully defaulted form a callee
// returns (int64 as decimal strings, enums as their names, bytes as Buffers).
import type * as cri from '../api/cri.js';
import type { ImageApi, RuntimeApi, StreamIO } from '../api/cri-service.js';

export type { CallOptions, ImageApi, PullImageOptions, PullProgress, RuntimeApi, StreamIO } from '../api/cri-service.js';

export type BackendKind = 'remote' | 'embedded';

/** How a command's backend is opened: the per-call timeout and, for the embedded engine, its directories. */
export interface BackendOptions {
  timeoutMs: number;
  root?: string;
  state?: string;
  registryConfigDir?: string;
  debug?: (msg: string) => void;
}

export interface CriBackend extends RuntimeApi, ImageApi {
  readonly kind: BackendKind;
  /** Human-readable target, e.g. "unix:///run/containerd/containerd.sock" or "embedded (/var/lib/isulats)". */
  readonly target: string;
  /** The CRI API version in use after negotiation ("v1" or "v1alpha2"). */
  apiVersion(): Promise<'v1' | 'v1alpha2'>;
  /**
   * Embedded backends run exec/attach in-process instead of handing out a URL;
   * remote ones leave this undefined and the command uses the streaming client.
   */
  streamInProcess?(kind: 'exec' | 'attach', req: cri.ExecRequestIn | cri.AttachRequestIn, io: StreamIO): Promise<number>;
  /** isulats extras (served by the embedded engine and the daemon's admin service). */
  extras?: IsulatsExtras;
  close(): Promise<void>;
}

/**
 * What isulats offers beyond CRI (isula's verbs). The embedded engine has all
 * of it; the daemon serves a part through its admin service; foreign runtimes
 * have none, and commands then say "not supported by this runtime".
 */
export interface IsulatsExtras {
  nriPlugins?(): Promise<NriPluginInfo[]>;
  nriConfig?(): Promise<NriConfigInfo>;
  tagImage?(source: string, target: string): Promise<void>;
  loadImages?(tarPath: string): Promise<Array<{ id: string; tags: string[] }>>;
  saveImages?(refs: string[], tarPath: string, format: 'docker-archive' | 'oci-archive'): Promise<void>;
  importImage?(tarPath: string, ref: string): Promise<string>;
  buildImage?(dir: string, ref: string, config?: { entrypoint?: string[]; cmd?: string[]; env?: string[]; workingDir?: string; user?: string }): Promise<string>;
  /** Checks the credentials against the registry, then stores them (mode 0600). */
  login?(server: string, username: string, password: string): Promise<void>;
  /** False when nothing was stored for the server. */
  logout?(server: string): Promise<boolean>;
  killContainer?(id: string, signal: string): Promise<void>;
  waitContainer?(id: string, signal?: AbortSignal): Promise<number>;
  /** Host PIDs of the container's processes (the command reads /proc for the table). */
  topContainer?(id: string): Promise<number[]>;
  pauseContainer?(id: string): Promise<void>;
  unpauseContainer?(id: string): Promise<void>;
  restartContainer?(id: string, timeoutSec?: number): Promise<void>;
}

/** The NRI settings a runtime runs with (daemon.json's nri keys, defaults filled in). */
export interface NriConfigInfo {
  enabled: boolean;
  /** daemon: one long-lived NRI owning the socket; embedded: pre-installed plugins launched per CLI operation. */
  mode: 'daemon' | 'embedded';
  socket: string;
  /** External plugins may connect to the socket (daemon mode only). */
  externalConnections: boolean;
  pluginDir: string;
  pluginConfigDir: string;
  registrationTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface NriPluginInfo {
  name: string;
  index: string;
  events: string[];
  connectedSince?: string;
  pid?: number;
  external: boolean;
}

/**
 * An extra of the backend, as a function. A backend without it (or a remote
 * runtime that answers UNIMPLEMENTED: not an isulats daemon) gives one line
 * naming the verb: "<what> is not supported by this runtime (<target>)".
 */
export function extraOf<K extends keyof IsulatsExtras>(backend: CriBackend, name: K, what: string): NonNullable<IsulatsExtras[K]> {
  const notSupported = () =>
    new Error(`${what} is not supported by this runtime (${backend.target}): it is an isulats extra, served by the embedded engine and isulats daemon`);
  const fn = backend.extras?.[name] as ((...args: unknown[]) => Promise<unknown>) | undefined;
  if (!fn) throw notSupported();
  return (async (...args: unknown[]) => {
    try {
      return await fn.apply(backend.extras, args);
    } catch (err) {
      if ((err as { kind?: string }).kind === 'unimplemented') throw notSupported();
      throw err;
    }
  }) as NonNullable<IsulatsExtras[K]>;
}
