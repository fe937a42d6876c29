// The CRI services as the engine implements them and every client calls them: method names are
// the CRI RPCs in camelCase, request/response types are runtime.v1 (see cri.ts): `XIn` is the
// partial input form a caller builds, `X` the fully defaulted form a callee returns (int64 as
// decimal strings, enums as their names, bytes as Buffers). Below both the engine (src/runtime)
// and the client layer (src/client), which re-exports them: the engine imports nothing above it.
import type * as cri from './cri.js';

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
