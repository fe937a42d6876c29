// NRI in the engine: owns the Adaptation and turns the engine's lifecycle
// points into NRI events. Daemon mode starts one long-lived Adaptation with
// the engine (socket for external plugins, pre-installed plugins launched
// once). Embedded mode (a CLI process) has no socket: the pre-installed
// plugins are launched and synchronised on the first event of the process
// and sent Shutdown when the engine closes, at the end of the CLI operation.
// Plugin failures on events other than CreateContainer and StartContainer
// are logged, never fatal: a plugin must not break pods.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as cri from '../../api/cri.js';
import type * as nri from '../../api/nri.js';
import {
  Adaptation, AdjustmentError, applyAdjustment, discoverPlugins, PluginError,
  DEFAULT_PLUGIN_CONFIG_PATH, DEFAULT_PLUGIN_PATH, DEFAULT_SOCKET_PATH,
  type OciSpec, type PluginInfo, type SyncState,
} from '../../nri/adaptation/index.js';
import type { NriEngineOptions } from '../config/engine-config.js';
import { failedPrecondition } from '../errors.js';
import { clampOomScoreAdj } from '../oci/oom-score.js';
import { peerCredentials } from '../native.js';
import type { SandboxRecord } from '../sandbox/sandbox-record.js';
import type { ContainerRecord } from '../container/container-record.js';
import type { StateStore } from '../store/state-store.js';
import type { LinuxResourcesUpdate } from '../oci/cgroups.js';
import { injectCdiDevices } from '../cdi/inject.js';
import type { CdiRegistry } from '../cdi/spec-registry.js';
import { containerView, nriResourcesFromCri, oneLine, podStub, podView, runtimeUpdateFromNri } from './views.js';

/**
 * The part of the engine's context NRI reads. Declared here, not imported, so
 * the context can hold the hooks without the two modules importing each other.
 */
export interface EngineNriContext {
  sandboxes: StateStore<SandboxRecord>;
  containers: StateStore<ContainerRecord>;
  host: { oomScoreFloor: number };
  /** CDI devices plugins ask for are resolved here. */
  cdi: CdiRegistry;
  warn: (message: string) => void;
  info?: (message: string) => void;
}

export interface EngineNriDeps {
  /** Stops a container through the engine (evictions). */
  stopContainer(id: string): Promise<void>;
  /** Applies a plugin-requested resource update to a created or running container. */
  updateResources(record: ContainerRecord, update: LinuxResourcesUpdate): Promise<void>;
  runtimeVersion: string;
}

export class EngineNri {
  private adaptation: Adaptation | undefined;
  private starting: Promise<Adaptation | undefined> | undefined;
  private readonly evictions = new Set<Promise<void>>();
  private closed = false;
  /** A pod whose RunPodSandbox is being delivered: left out of a first Synchronize. */
  private unsynced: string | undefined;

  constructor(
    private readonly ctx: EngineNriContext,
    private readonly opts: NriEngineOptions,
    private readonly deps: EngineNriDeps,
  ) {}

  get mode(): 'daemon' | 'embedded' {
    return this.opts.mode ?? 'embedded';
  }

  /** Daemon mode: starts the Adaptation now. Embedded mode starts lazily, on the first event. */
  async start(): Promise<void> {
    if (this.mode === 'daemon') await this.ready();
  }

  /** Sends Shutdown to every plugin (killing launched ones) once pending evictions are done. */
  async stop(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.evictions]);
    const a = this.adaptation ?? (await this.starting?.catch(() => undefined));
    this.adaptation = undefined;
    await a?.stop();
  }

  plugins(): PluginInfo[] {
    return this.adaptation?.plugins() ?? [];
  }

  /** Failed plugin requests since start, by plugin (the daemon's metrics). */
  pluginFailures(): Array<{ plugin: string; errors: number; timeouts: number }> {
    return this.adaptation?.pluginFailures() ?? [];
  }

  // ---- pod events ----

  async runPodSandbox(id: string): Promise<void> {
    // Plugins launched by this very event must not also see the pod in Synchronize.
    if (this.mode === 'embedded') this.unsynced = id;
    await this.event('RunPodSandbox', async (a) => a.runPodSandbox(await this.pod(id)));
    this.unsynced = undefined;
  }
  async stopPodSandbox(id: string): Promise<void> {
    await this.event('StopPodSandbox', async (a) => a.stopPodSandbox(await this.pod(id)));
  }
  /** The record is already gone. A pod removed while ready was stopped by the removal: plugins hear both. */
  async removePodSandbox(record: SandboxRecord): Promise<void> {
    if (record.state === 'SANDBOX_READY') await this.event('StopPodSandbox', (a) => a.stopPodSandbox(podView(record)));
    await this.event('RemovePodSandbox', (a) => a.removePodSandbox(podView(record)));
  }

  /** A pod's new resources, before they are applied (the newest API only: older plugins lack the event). */
  async updatePodSandbox(id: string, overhead: cri.LinuxContainerResourcesIn | null | undefined, resources: cri.LinuxContainerResourcesIn | null | undefined): Promise<void> {
    await this.event('UpdatePodSandbox', async (a) =>
      a.updatePodSandbox({
        pod: await this.pod(id),
        overheadLinuxResources: overhead ? nriResourcesFromCri(overhead) : undefined,
        linuxResources: resources ? nriResourcesFromCri(resources) : undefined,
      }),
    );
  }
  async postUpdatePodSandbox(id: string): Promise<void> {
    await this.event('PostUpdatePodSandbox', async (a) => a.postUpdatePodSandbox(await this.pod(id)));
  }

  // ---- container events ----

  /**
   * Collects the plugins' adjustments and applies them to the spec before
   * the bundle is written. Conflicts, validation failures and plugin errors
   * fail the create with a one-line error. May set record.cgroupsPath.
   */
  async createContainer<T extends object>(sandbox: SandboxRecord, record: ContainerRecord, spec: T): Promise<T> {
    const a = await this.active();
    if (!a) return spec;
    const oci = spec as OciSpec;
    let result;
    try {
      result = await a.createContainer(podView(sandbox), containerView(record, oci, 'CONTAINER_UNKNOWN'));
    } catch (err) {
      if (err instanceof AdjustmentError || err instanceof PluginError) throw failedPrecondition(oneLine(err.message));
      throw err;
    }
    let applied;
    try {
      applied = applyAdjustment(oci, result.adjust);
    } catch (err) {
      throw failedPrecondition(oneLine(`NRI: cannot apply the adjustment of container ${record.config.metadata?.name ?? record.id}: ${(err as Error).message}`));
    }
    // Resolved as the pod's own requests are (containerd injects them after the adjustment too).
    if (applied.cdiDevices.length) await injectCdiDevices(this.ctx.cdi, applied.spec as OciSpec, applied.cdiDevices);
    if (applied.blockioClass) this.ctx.warn(`NRI: block I/O class ${applied.blockioClass} for container ${record.id} ignored (no classes configured)`);
    const out = applied.spec as OciSpec;
    // The sandbox may lack CAP_SYS_RESOURCE: a plugin cannot lower the score below what the host allows.
    if (out.process?.oomScoreAdj !== undefined) out.process.oomScoreAdj = clampOomScoreAdj(out.process.oomScoreAdj, this.ctx.host.oomScoreFloor);
    if (out.linux?.cgroupsPath) record.cgroupsPath = out.linux.cgroupsPath;
    if (result.update.length) {
      const failed = await this.applyUpdates(result.update);
      if (failed.length) this.ctx.warn(`NRI: ${failed.length} update(s) of other containers requested at create of ${record.id} failed`);
    }
    if (result.evict.length) this.evict(result.evict);
    return out as T;
  }

  async postCreateContainer(id: string): Promise<void> {
    await this.containerEvent('PostCreateContainer', id, (a, p, c) => a.postCreateContainer(p, c));
  }
  /**
   * Sent as containerd 1.7 sends it: after `runc create` (the container's process `pid` and its
   * cgroup exist) and before `runc start`. A plugin's error fails the start with one line naming
   * the plugin; the caller then deletes the created container.
   */
  async startContainer(id: string, pid: number): Promise<void> {
    try {
      await this.containerEvent('StartContainer', id, (a, p, c) => a.startContainer(p, c), { pid }, true);
    } catch (err) {
      if (err instanceof PluginError) throw failedPrecondition(oneLine(`NRI container start failed: ${err.message}`));
      this.ctx.warn(`NRI: StartContainer: ${oneLine((err as Error).message)}`);
    }
  }
  async postStartContainer(id: string): Promise<void> {
    await this.containerEvent('PostStartContainer', id, (a, p, c) => a.postStartContainer(p, c));
  }

  /** Tells plugins about a requested resource update; applies what they ask for other containers. */
  async updateContainer(id: string, resources: cri.LinuxContainerResourcesIn): Promise<void> {
    await this.containerEvent('UpdateContainer', id, async (a, p, c) => {
      const r = await a.updateContainer(p, c, nriResourcesFromCri(resources));
      if (r.update.length) await this.applyUpdates(r.update);
      if (r.evict.length) this.evict(r.evict);
    });
  }
  async postUpdateContainer(id: string): Promise<void> {
    await this.containerEvent('PostUpdateContainer', id, (a, p, c) => a.postUpdateContainer(p, c));
  }
  async stopContainer(id: string): Promise<void> {
    await this.containerEvent('StopContainer', id, async (a, p, c) => {
      const r = await a.stopContainer(p, c);
      if (r.update.length) await this.applyUpdates(r.update);
    });
  }
  /** The record is already gone: the view is built from the last one. */
  async removeContainer(record: ContainerRecord): Promise<void> {
    await this.event('RemoveContainer', async (a) => {
      const sandbox = await this.ctx.sandboxes.get(record.sandboxId);
      await a.removeContainer(sandbox ? podView(sandbox) : podStub(record.sandboxId), containerView({ ...record, state: 'CONTAINER_EXITED' }));
    });
  }

  // ---- internals ----

  /** The running Adaptation when it has plugins; starts it on first use. */
  private async active(): Promise<Adaptation | undefined> {
    const a = await this.ready();
    return a && a.plugins().length > 0 ? a : undefined;
  }

  private ready(): Promise<Adaptation | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    this.starting ??= this.open().then((a) => (this.adaptation = a));
    return this.starting;
  }

  private async open(): Promise<Adaptation | undefined> {
    const daemon = this.mode === 'daemon';
    const pluginDir = this.opts.pluginDir ?? DEFAULT_PLUGIN_PATH;
    // A CLI process pays for NRI only when there are plugins to launch.
    if (!daemon && (await discoverPlugins(pluginDir, undefined, () => undefined).catch(() => [])).length === 0) return undefined;
    const a = new Adaptation({
      runtimeName: 'isulats',
      runtimeVersion: this.deps.runtimeVersion,
      socketPath: this.opts.socketPath ?? DEFAULT_SOCKET_PATH,
      enableExternalConnections: daemon && this.opts.enableExternalConnections !== false,
      pluginDir,
      pluginConfigDir: this.opts.pluginConfigDir ?? DEFAULT_PLUGIN_CONFIG_PATH,
      registrationTimeoutMs: this.opts.registrationTimeoutMs,
      requestTimeoutMs: this.opts.requestTimeoutMs,
      syncFn: () => this.syncState(),
      updateFn: (updates) => this.applyUpdates(updates),
      evictFn: async (evictions) => this.evict(evictions),
      peerPid: (sock) => peerCredentials(sock)?.pid,
      defaultValidator: this.opts.validator?.enable ? this.opts.validator : undefined,
      allowedPlugins: this.opts.validator?.enable ? this.opts.validator.allowedPlugins : undefined,
      log: (level, msg) => {
        if (level === 'warn' || level === 'error') this.ctx.warn(msg);
        else if (level === 'info') this.ctx.info?.(msg);
      },
    });
    await a.start();
    return a;
  }

  /** Delivers an event; a failure is logged, or thrown when `rethrow`. */
  private async event(what: string, fn: (a: Adaptation) => Promise<unknown>, rethrow = false): Promise<void> {
    try {
      const a = await this.active();
      if (a) await fn(a);
    } catch (err) {
      if (rethrow) throw err;
      this.ctx.warn(`NRI: ${what}: ${oneLine((err as Error).message)}`);
    }
  }

  /** `live` overrides what the stored record does not know yet (the pid of a created container). */
  private async containerEvent(
    what: string,
    id: string,
    fn: (a: Adaptation, pod: nri.PodSandboxIn, ctr: nri.ContainerIn) => Promise<unknown>,
    live: Partial<ContainerRecord> = {},
    rethrow = false,
  ): Promise<void> {
    await this.event(what, async (a) => {
      const stored = await this.ctx.containers.get(id);
      if (!stored) return;
      const record = { ...stored, ...live };
      const sandbox = await this.ctx.sandboxes.get(record.sandboxId);
      const pod = sandbox ? podView(sandbox) : podStub(record.sandboxId);
      await fn(a, pod, containerView(record, await readSpec(record)));
    }, rethrow);
  }

  private async pod(id: string): Promise<nri.PodSandboxIn> {
    const record = await this.ctx.sandboxes.get(id);
    return record ? podView(record) : podStub(id);
  }

  /** Existing pods and containers (creations in progress left out: their events follow). */
  private async syncState(): Promise<SyncState> {
    const pods = (await this.ctx.sandboxes.list()).filter((s) => !s.creating && s.id !== this.unsynced).map(podView);
    const containers: nri.ContainerIn[] = [];
    for (const c of await this.ctx.containers.list()) {
      if (!c.creating) containers.push(containerView(c, await readSpec(c)));
    }
    return { pods, containers };
  }

  /** Plugin-requested updates applied through the engine (cgroups, or a created container's spec); returns the failed ones. */
  private async applyUpdates(updates: nri.ContainerUpdate[]): Promise<nri.ContainerUpdate[]> {
    const failed: nri.ContainerUpdate[] = [];
    for (const u of updates) {
      try {
        const record = await this.ctx.containers.get(u.containerId);
        if (!record) throw new Error(`container ${u.containerId} not found`);
        if (record.state !== 'CONTAINER_RUNNING' && record.state !== 'CONTAINER_CREATED') throw new Error(`container ${u.containerId} is ${record.state}`);
        await this.deps.updateResources(record, runtimeUpdateFromNri(u.linux?.resources));
      } catch (err) {
        if (!u.ignoreFailure) {
          failed.push(u);
          this.ctx.warn(`NRI: update of container ${u.containerId} failed: ${oneLine((err as Error).message)}`);
        }
      }
    }
    return failed;
  }

  /**
   * Stops evicted containers in the background: the request may come while
   * an event is being delivered, and stopping sends NRI events of its own.
   */
  private evict(evictions: nri.ContainerEviction[]): void {
    for (const e of evictions) {
      this.ctx.warn(`NRI: evicting container ${e.containerId}${e.reason ? `: ${e.reason}` : ''}`);
      const p: Promise<void> = this.deps
        .stopContainer(e.containerId)
        .catch((err: Error) => this.ctx.warn(`NRI: eviction of ${e.containerId} failed: ${oneLine(err.message)}`))
        .finally(() => this.evictions.delete(p));
      this.evictions.add(p);
    }
  }
}

async function readSpec(record: ContainerRecord): Promise<OciSpec> {
  try {
    return JSON.parse(await readFile(join(record.bundle, 'config.json'), 'utf8')) as OciSpec;
  } catch {
    return {};
  }
}
