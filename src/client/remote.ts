// The remote backend: grpc-js to any CRI socket. runtime.v1 first; when the
// server answers UNIMPLEMENTED for the v1 service, runtime.v1alpha2 for the rest
// of the process, converted at this edge so callers only ever see v1 shapes.
import type * as cri from '../api/cri.js';
import type { CallOptions, CriBackend, IsulatsExtras, PullImageOptions } from './backend.js';
import { adminExtras } from './admin-client.js';
import { fromGrpcError } from './grpc-errors.js';
import { grpcTarget } from './endpoint.js';
import { rpcDeadline } from '../util/timer-delay.js';
import { debugJson } from './debug-json.js';

type ApiVersion = 'v1' | 'v1alpha2';
type ServiceName = 'RuntimeService' | 'ImageService';

export interface RemoteOptions {
  runtimeEndpoint: string;
  imageEndpoint?: string;
  timeoutMs: number;
  /** Force an API version (tests of the v1alpha2 path); default: negotiate. */
  apiVersion?: ApiVersion;
  debug?: (msg: string) => void;
}

interface Channel {
  endpoint: string;
  version?: ApiVersion;
  clients: Partial<Record<ApiVersion, any>>;
}

export class RemoteBackend implements CriBackend {
  readonly kind = 'remote' as const;
  readonly target: string;
  /** isulats' extras, served by an isulats daemon's admin service; a foreign runtime answers "not supported". */
  readonly extras: IsulatsExtras | undefined;
  private readonly channels: Record<ServiceName, Channel>;

  constructor(private readonly opts: RemoteOptions) {
    this.target = opts.runtimeEndpoint;
    this.extras = adminExtras(opts.runtimeEndpoint, opts.timeoutMs);
    const image = opts.imageEndpoint || opts.runtimeEndpoint;
    this.channels = {
      RuntimeService: { endpoint: opts.runtimeEndpoint, version: opts.apiVersion, clients: {} },
      ImageService: { endpoint: image, version: opts.apiVersion, clients: {} },
    };
  }

  async apiVersion(): Promise<ApiVersion> {
    const ch = this.channels.RuntimeService;
    if (!ch.version) await this.version({});
    return ch.version ?? 'v1';
  }

  private async client(service: ServiceName, version: ApiVersion): Promise<any> {
    const ch = this.channels[service];
    if (!ch.clients[version]) {
      const { loadCriServices, cjs } = await import('../api/proto.js');
      const grpc = cjs(await import('@grpc/grpc-js'));
      const services = (await loadCriServices(version)) as unknown as Record<ServiceName, any>;
      // Share one connection between the two services when they use one endpoint.
      const other = this.channels[service === 'RuntimeService' ? 'ImageService' : 'RuntimeService'];
      const existing = other.endpoint === ch.endpoint ? (Object.values(other.clients)[0] as any) : undefined;
      const options = existing ? { channelOverride: existing.getChannel() } : { 'grpc.max_receive_message_length': 16 * 1024 * 1024 };
      ch.clients[version] = new services[service](grpcTarget(ch.endpoint), grpc.credentials.createInsecure(), options);
    }
    return ch.clients[version];
  }

  /**
   * One unary call with the negotiated API version and the per-call deadline. `signal` aborting
   * cancels it (the runtime's work for it stops too) and rejects with the signal's reason.
   */
  private async call(service: ServiceName, method: string, req: object, signal?: AbortSignal, timeoutMs = this.opts.timeoutMs): Promise<any> {
    const ch = this.channels[service];
    const versions: ApiVersion[] = ch.version ? [ch.version] : ['v1', 'v1alpha2'];
    let lastErr: unknown;
    for (const version of versions) {
      const client = await this.client(service, version);
      if (typeof client[method] !== 'function') throw fromGrpcError({ code: 12, details: `${method} is not part of CRI ${version}` }, ch.endpoint);
      const body = version === 'v1' ? req : await convert('to', client, method, req);
      // As crictl -D: each request and response, as JSON of the message.
      this.opts.debug?.(`${method}Request: ${debugJson(body)}`);
      try {
        signal?.throwIfAborted();
        const res = await new Promise<any>((resolve, reject) => {
          const deadline = new Date(rpcDeadline(timeoutMs));
          const onAbort = () => call.cancel();
          const call = client[method](body, { deadline }, (err: any, out: any) => {
            signal?.removeEventListener('abort', onAbort);
            if (err && signal?.aborted) reject(signal.reason);
            else if (err) reject(err);
            else resolve(out);
          });
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        this.opts.debug?.(`${method}Response: ${debugJson(res)}`);
        if (!ch.version) this.opts.debug?.(`using CRI ${version} for ${service} at ${ch.endpoint}`);
        ch.version = version;
        return version === 'v1' ? res : await convert('from', client, method, res);
      } catch (err: any) {
        lastErr = err;
        // Only an unknown service means "try the older API"; an unknown method on v1 is final.
        if (!ch.version && version === 'v1' && err?.code === 12 && /unknown service|runtime\.v1\./i.test(String(err.details ?? err.message))) continue;
        throw fromGrpcError(err, ch.endpoint);
      }
    }
    throw fromGrpcError(lastErr as any, ch.endpoint);
  }

  version(req: cri.VersionRequestIn) { return this.call('RuntimeService', 'Version', req); }
  // Twice the connection timeout, as crictl's and kubelet's CRI client give a sandbox's start
  // (network set-up, the infra container): 4 s at the default 2 s.
  runPodSandbox(req: cri.RunPodSandboxRequestIn) { return this.call('RuntimeService', 'RunPodSandbox', req, undefined, 2 * this.opts.timeoutMs); }
  stopPodSandbox(req: cri.StopPodSandboxRequestIn) { return this.call('RuntimeService', 'StopPodSandbox', req); }
  removePodSandbox(req: cri.RemovePodSandboxRequestIn) { return this.call('RuntimeService', 'RemovePodSandbox', req); }
  podSandboxStatus(req: cri.PodSandboxStatusRequestIn) { return this.call('RuntimeService', 'PodSandboxStatus', req); }
  listPodSandbox(req: cri.ListPodSandboxRequestIn) { return this.call('RuntimeService', 'ListPodSandbox', req); }
  createContainer(req: cri.CreateContainerRequestIn) { return this.call('RuntimeService', 'CreateContainer', utf8Envs(req)); }
  startContainer(req: cri.StartContainerRequestIn) { return this.call('RuntimeService', 'StartContainer', req); }
  stopContainer(req: cri.StopContainerRequestIn) { return this.call('RuntimeService', 'StopContainer', req); }
  removeContainer(req: cri.RemoveContainerRequestIn) { return this.call('RuntimeService', 'RemoveContainer', req); }
  listContainers(req: cri.ListContainersRequestIn) { return this.call('RuntimeService', 'ListContainers', req); }
  containerStatus(req: cri.ContainerStatusRequestIn) { return this.call('RuntimeService', 'ContainerStatus', req); }
  updateContainerResources(req: cri.UpdateContainerResourcesRequestIn) { return this.call('RuntimeService', 'UpdateContainerResources', req); }
  updatePodSandboxResources(req: cri.UpdatePodSandboxResourcesRequestIn) { return this.call('RuntimeService', 'UpdatePodSandboxResources', req); }
  reopenContainerLog(req: cri.ReopenContainerLogRequestIn) { return this.call('RuntimeService', 'ReopenContainerLog', req); }
  execSync(req: cri.ExecSyncRequestIn, call?: CallOptions) { return this.callWithTimeout('ExecSync', req, Number(req.timeout ?? 0), 'RuntimeService', call?.signal); }
  exec(req: cri.ExecRequestIn) { return this.call('RuntimeService', 'Exec', req); }
  attach(req: cri.AttachRequestIn) { return this.call('RuntimeService', 'Attach', req); }
  portForward(req: cri.PortForwardRequestIn) { return this.call('RuntimeService', 'PortForward', req); }
  containerStats(req: cri.ContainerStatsRequestIn) { return this.call('RuntimeService', 'ContainerStats', req); }
  listContainerStats(req: cri.ListContainerStatsRequestIn) { return this.call('RuntimeService', 'ListContainerStats', req); }
  podSandboxStats(req: cri.PodSandboxStatsRequestIn) { return this.call('RuntimeService', 'PodSandboxStats', req); }
  listPodSandboxStats(req: cri.ListPodSandboxStatsRequestIn) { return this.call('RuntimeService', 'ListPodSandboxStats', req); }
  listMetricDescriptors(req: cri.ListMetricDescriptorsRequestIn) { return this.call('RuntimeService', 'ListMetricDescriptors', req); }
  listPodSandboxMetrics(req: cri.ListPodSandboxMetricsRequestIn) { return this.call('RuntimeService', 'ListPodSandboxMetrics', req); }
  checkpointContainer(req: cri.CheckpointContainerRequestIn) { return this.call('RuntimeService', 'CheckpointContainer', req); }
  checkpointPod(req: cri.CheckpointPodRequestIn) { return this.call('RuntimeService', 'CheckpointPod', req); }
  restorePod(req: cri.RestorePodRequestIn) { return this.call('RuntimeService', 'RestorePod', req); }
  updateRuntimeConfig(req: cri.UpdateRuntimeConfigRequestIn) { return this.call('RuntimeService', 'UpdateRuntimeConfig', req); }
  status(req: cri.StatusRequestIn) { return this.call('RuntimeService', 'Status', req); }
  runtimeConfig(req: cri.RuntimeConfigRequestIn) { return this.call('RuntimeService', 'RuntimeConfig', req); }
  listImages(req: cri.ListImagesRequestIn) { return this.call('ImageService', 'ListImages', req); }
  imageStatus(req: cri.ImageStatusRequestIn) { return this.call('ImageService', 'ImageStatus', req); }
  // Pulls take as long as they take: crictl uses no deadline for them either.
  pullImage(req: cri.PullImageRequestIn, opts?: PullImageOptions) { return this.callWithTimeout('PullImage', req, 0, 'ImageService', opts?.signal); }
  removeImage(req: cri.RemoveImageRequestIn) { return this.call('ImageService', 'RemoveImage', req); }
  imageFsInfo(req: cri.ImageFsInfoRequestIn) { return this.call('ImageService', 'ImageFsInfo', req); }

  /** Calls whose own timeout (seconds; 0 = none) replaces the connection timeout, plus a grace. */
  private callWithTimeout(method: string, req: object, seconds: number, service: ServiceName = 'RuntimeService', signal?: AbortSignal) {
    return this.call(service, method, req, signal, seconds > 0 ? seconds * 1000 + this.opts.timeoutMs : 24 * 3600 * 1000);
  }

  async *getContainerEvents(req: cri.GetEventsRequestIn, signal: AbortSignal): AsyncIterable<cri.ContainerEventResponse> {
    await this.version({});
    const ch = this.channels.RuntimeService;
    const client = await this.client('RuntimeService', ch.version ?? 'v1');
    if (typeof client.GetContainerEvents !== 'function') {
      throw fromGrpcError({ code: 12, details: 'container events are not supported by this runtime (CRI v1alpha2)' }, ch.endpoint);
    }
    const call = client.GetContainerEvents(req);
    const onAbort = () => call.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const ev of call) yield ev;
    } catch (err: any) {
      if (err?.code === 1 && signal.aborted) return;
      if (err?.code === 12) throw fromGrpcError({ code: 12, details: 'container events are not supported by this runtime (GetContainerEvents is unimplemented)' }, ch.endpoint);
      throw fromGrpcError(err, ch.endpoint);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  async close(): Promise<void> {
    for (const ch of Object.values(this.channels)) for (const c of Object.values(ch.clients)) c?.close?.();
  }
}

/**
 * KeyValue.value is bytes in runtime.v1 and the loader would read a string given there as base64
 * (`FOO=bar` arriving as "m\xef\xbf\xbd"): a caller's string is its UTF-8 bytes, as on the wire.
 */
function utf8Envs(req: cri.CreateContainerRequestIn): cri.CreateContainerRequestIn {
  const envs = req.config?.envs;
  if (!envs?.some((kv) => typeof kv.value === 'string')) return req;
  const fixed = envs.map((kv) => (typeof kv.value === 'string' ? { ...kv, value: Buffer.from(kv.value, 'utf8') } : kv));
  return { ...req, config: { ...req.config, envs: fixed } };
}

async function convert(direction: 'to' | 'from', client: any, method: string, obj: any): Promise<any> {
  const { toV1alpha2, fromV1alpha2 } = await import('../api/convert.js');
  const def = client.constructor.service?.[method];
  const typeName: string | undefined = direction === 'to' ? def?.requestType?.type?.name : def?.responseType?.type?.name;
  if (!typeName) return obj;
  return direction === 'to' ? toV1alpha2(typeName, obj) : fromV1alpha2(typeName, obj);
}
