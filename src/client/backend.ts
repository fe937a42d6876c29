// The one interface every command talks to. Remote (grpc-js to any CRI socket)
// and embedded (the in-process engine) both implement it; the daemon serves the
// engine through the same shape. Method names are the CRI RPCs in camelCase,
// request/response types are runtime.v1 (see src/api/cri.ts): `XIn` is the
// partial input form a caller builds, `X` the fully defaulted form a callee
// returns (int64 as decimal strings, enums as their names, bytes as Buffers).
import type * as cri from '../api/cri.js';

export interface RuntimeApi {
  version(req: cri.VersionRequestIn): Promise<cri.VersionResponse>;
  runPodSandbox(req: cri.RunPodSandboxRequestIn): Promise<cri.RunPodSandboxResponse>;
  stopPodSandbox(req: cri.StopPodSandboxRequestIn): Promise<cri.StopPodSandboxResponse>;
  removePodSandbox(req: cri.RemovePodSandboxRequestIn): Promise<cri.RemovePodSandboxResponse>;
  podSandboxStatus(req: cri.PodSandboxStatusRequestIn): Promise<cri.PodSandboxStatusResponse>;
  listPodSandbox(req: cri.ListPodSandboxRequestIn): Promise<cri.ListPodSandboxResponse>;
  createContainer(req: cri.CreateContainerRequestIn): Promise<cri.CreateContainerResponse>;
  startContainer(req: cri.StartContainerRequestIn): Promise<cri.StartContainerResponse>;
  stopContainer(req: cri.StopContainerRequestIn): Promise<cri.StopContainerResponse>;
  removeContainer(req: cri.RemoveContainerRequestIn): Promise<cri.RemoveContainerResponse>;
  listContainers(req: cri.ListContainersRequestIn): Promise<cri.ListContainersResponse>;
  containerStatus(req: cri.ContainerStatusRequestIn): Promise<cri.ContainerStatusResponse>;
  updateContainerResources(req: cri.UpdateContainerResourcesRequestIn): Promise<cri.UpdateContainerResourcesResponse>;
  /** runtime.v1 only: a v1alpha2 runtime answers unimplemented. */
  updatePodSandboxResources(req: cri.UpdatePodSandboxResourcesRequestIn): Promise<cri.UpdatePodSandboxResourcesResponse>;
  reopenContainerLog(req: cri.ReopenContainerLogRequestIn): Promise<cri.ReopenContainerLogResponse>;
  /** `call.signal` aborting ends the exec'd process (the caller has gone). */
  execSync(req: cri.ExecSyncRequestIn, call?: CallOptions): Promise<cri.ExecSyncResponse>;
  exec(req: cri.ExecRequestIn): Promise<cri.ExecResponse>;
  attach(req: cri.AttachRequestIn): Promise<cri.AttachResponse>;
  portForward(req: cri.PortForwardRequestIn): Promise<cri.PortForwardResponse>;
  containerStats(req: cri.ContainerStatsRequestIn): Promise<cri.ContainerStatsResponse>;
  listContainerStats(req: cri.ListContainerStatsRequestIn): Promise<cri.ListContainerStatsResponse>;
  podSandboxStats(req: cri.PodSandboxStatsRequestIn): Promise<cri.PodSandboxStatsResponse>;
  listPodSandboxStats(req: cri.ListPodSandboxStatsRequestIn): Promise<cri.ListPodSandboxStatsResponse>;
  /** runtime.v1 only, as the two below. */
  listMetricDescriptors(req: cri.ListMetricDescriptorsRequestIn): Promise<cri.ListMetricDescriptorsResponse>;
  listPodSandboxMetrics(req: cri.ListPodSandboxMetricsRequestIn): Promise<cri.ListPodSandboxMetricsResponse>;
  /** runtime.v1 only, as the two below; the embedded engine answers unimplemented (no CRIU support). */
  checkpointContainer(req: cri.CheckpointContainerRequestIn): Promise<cri.CheckpointContainerResponse>;
  checkpointPod(req: cri.CheckpointPodRequestIn): Promise<cri.CheckpointPodResponse>;
  restorePod(req: cri.RestorePodRequestIn): Promise<cri.RestorePodResponse>;
  updateRuntimeConfig(req: cri.UpdateRuntimeConfigRequestIn): Promise<cri.UpdateRuntimeConfigResponse>;
  status(req: cri.StatusRequestIn): Promise<cri.StatusResponse>;
  runtimeConfig(req: cri.RuntimeConfigRequestIn): Promise<cri.RuntimeConfigResponse>;
  /** Server stream; ends when `signal` aborts or the server closes it. */
  getContainerEvents(req: cri.GetEventsRequestIn, signal: AbortSignal): AsyncIterable<cri.ContainerEventResponse>;
}

export interface ImageApi {
  listImages(req: cri.ListImagesRequestIn): Promise<cri.ListImagesResponse>;
  imageStatus(req: cri.ImageStatusRequestIn): Promise<cri.ImageStatusResponse>;
  /** `opts.signal` aborting stops the pull: its downloads, lock waits and unpacking. */
  pullImage(req: cri.PullImageRequestIn, opts?: PullImageOptions): Promise<cri.PullImageResponse>;
  removeImage(req: cri.RemoveImageRequestIn): Promise<cri.RemoveImageResponse>;
  imageFsInfo(req: cri.ImageFsInfoRequestIn): Promise<cri.ImageFsInfoResponse>;
}

/**
 * What the caller of a CRI method gives besides its request (the daemon gives every call one).
 * `signal` aborts when the caller has gone (its RPC was cancelled or passed its deadline): the
 * work the call started stops, and it holds no lock for it.
 */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface PullImageOptions extends CallOptions {
  progress?: PullProgress;
}

/** Per-layer pull progress; only the embedded backend reports it (CRI has no progress). */
export interface PullProgress {
  (event: { layer: string; total: number; done: number; state: 'waiting' | 'downloading' | 'extracting' | 'done' | 'exists' }): void;
}

/** Where an in-process exec/attach/port-forward sends and takes its bytes (embedded mode: no streaming URL). */
export interface StreamIO {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  tty: boolean;
  /** Terminal size changes; the first value is the initial size. */
  resize?: AsyncIterable<{ width: number; height: number }>;
  /**
   * Set when the session starts before the client has opened its streams (a TTY exec's monitor
   * boots meanwhile): settles once they are open and the members above are set, rejects when
   * they never will be. Nothing may be read, written or run before it settles.
   */
  opened?: Promise<void>;
  /**
   * Settles when the client has gone away (its connection closed) rather than ended its stdin: a
   * TTY exec then hangs up its terminal, as a dropped ssh session does.
   */
  gone?: Promise<void>;
  /**
   * Set by the session that reports an exec's exit code (the streaming server's): the runtime calls
   * it as soon as the code is known and all of the process's output went to the streams above,
   * before its own cleanup (session files, sockets), so the client hears the exit without waiting
   * for that cleanup. The runtime's promise still settles only after it.
   */
  exited?: (code: number) => void;
}

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
