// Composition root of the embedded engine: options -> paths -> stores ->
// OCI runtime, CNI, images, snapshots -> sandbox and container services.
// Implements the CRI RuntimeService (and delegates the ImageService) so the
// embedded backend and the daemon can serve it as is.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type * as cri from '../api/cri.js';
import type { CallOptions, ImageApi, PullImageOptions, RuntimeApi, StreamIO } from '../api/cri-service.js';
import { failedPrecondition, unimplemented } from './errors.js';
import { DEFAULT_PAUSE_IMAGE, enginePaths, type EngineOptions } from './config/engine-config.js';
import type { EngineContext } from './engine-context.js';
import { ImageService } from './image/image-service.js';
import { OverlaySnapshotter } from './snapshot/overlay-snapshotter.js';
import { swapControllerAvailable } from './oci/swap-controller.js';
import { ProcessRunner } from './oci/process-runner.js';
import { openRuntimeHandlers, supportsUserNamespaces } from './oci/runtime-handlers.js';
import { hostOomScoreFloor } from './oci/oom-score.js';
import { probeHugepageSizes } from './oci/hugetlb.js';
import { CniManager } from './network/cni.js';
import { ID_PATTERN, StateStore } from './store/state-store.js';
import { mkdirPrivate, tightenEngineTree, TOP_DIR_MODE } from './store/private-dirs.js';
import { placeChildTreesApart } from './store/top-directory.js';
import { removeNetns } from './network/netns.js';
import { connectTcp, relayInNetns } from './network/pod-port.js';
import { NameRegistry } from './store/id-registry.js';
import { readJson, writeJsonAtomic } from './store/atomic-file.js';
import type { SandboxRecord } from './sandbox/sandbox-record.js';
import type { ContainerRecord } from './container/container-record.js';
import { EventLog } from './container/event-log.js';
import { containerStatusOf } from './container/container-status.js';
import { applyResourceUpdate } from './container/resource-update.js';
import { parseCapabilityBound } from './container/spec.js';
import { SandboxService } from './sandbox/sandbox-service.js';
import { ContainerService } from './container/container-service.js';
import { tryWatchExitFiles, type ExitWatch } from './container/exit-watch.js';
import { CdiRegistry, DEFAULT_CDI_SPEC_DIRS } from './cdi/spec-registry.js';
import type { PluginInfo } from '../nri/adaptation/index.js';
import { reconcileCreatedContainers } from './recovery/reconcile-containers.js';
import { resumeAbandonedCheckpoints } from './recovery/abandoned-checkpoints.js';
import { reclaimOrphanNames } from './recovery/reclaim-names.js';
import { creatorAlive, type Creator } from './recovery/creator.js';
import { removeStaleTempFiles } from './recovery/stale-temp-files.js';
import { releaseOrphanPins } from './recovery/orphan-pins.js';
import { removeDeadExecScratch, removeDeadExecSessions } from './recovery/exec-sessions.js';
import { joinPath } from './store/path-join.js';
import { drainTrash, emptyTrash } from './store/trash.js';
import { collectPodMetrics, METRIC_DESCRIPTORS } from './metrics/pod-metrics.js';
import { checkpointReason, checkpointUnavailable } from './oci/criu.js';
import { removeOrphanRestores } from './checkpoint/open-restore.js';

export const ENGINE_VERSION = '0.1.0';

export class Engine implements RuntimeApi, ImageApi {
  readonly sandbox: SandboxService;
  readonly container: ContainerService;
  private exitWatch?: ExitWatch;

  private constructor(readonly ctx: EngineContext) {
    this.container = new ContainerService(ctx);
    this.sandbox = new SandboxService(ctx, this.container);
  }

  static async open(given: EngineOptions, runner = new ProcessRunner()): Promise<Engine> {
    for (const dir of [given.root, given.state]) {
      await mkdir(dir, { recursive: true, mode: TOP_DIR_MODE });
      // Before its subdirs are made: each (locks, names, exits...) a tree placed apart by ext4.
      placeChildTreesApart(dir);
    }
    // Every path the engine hands out is a real one: runc refuses a rootfs reached through a link
    // (the default state /var/run/isulats, with /var/run a link to /run), and mountinfo lists pins
    // and rootfs mounts by their real paths.
    const options: EngineOptions = { ...given, root: realpathSync(given.root), state: realpathSync(given.state) };
    const paths = enginePaths(options);
    // Before anything reads the trees: a root made by an older version has listable, traversable dirs.
    await tightenEngineTree([paths.root, paths.state], [paths.usernsShareDir]);
    for (const dir of [paths.runcRoot, paths.exitDir, paths.socketDir, paths.netnsDir, paths.ipcnsDir, paths.utsnsDir, paths.usernsDir]) await mkdirPrivate(dir);
    placeChildTreesApart(paths.runcRoot); // runc's state dir per container (on tmpfs in most setups: no flag there)
    const images = await ImageService.open({
      root: options.root,
      state: options.state,
      registryConfigDir: options.registryConfigDir,
      registryMirrors: options.registryMirrors,
      insecureRegistries: options.insecureRegistries,
      authFile: options.authFile,
      pinnedImages: [options.pauseImage ?? DEFAULT_PAUSE_IMAGE],
      warn: (m) => (options.warn ?? ((w: string) => process.emitWarning(w, { code: 'ISULATS_ENGINE' })))(m),
    });
    const snapshots = await OverlaySnapshotter.open({ root: options.root, state: options.state, images });
    const sandboxes = new StateStore<SandboxRecord>(options.root, 'sandboxes');
    const containers = new StateStore<ContainerRecord>(options.root, 'containers');
    const sandboxNames = new NameRegistry(options.root, 'sandboxes');
    const containerNames = new NameRegistry(options.root, 'containers');
    await Promise.all([sandboxes.init(), containers.init(), sandboxNames.init(), containerNames.init()]);
    const cgroupManager = options.cgroupManager ?? 'cgroupfs';
    const warn = options.warn ?? ((m: string) => process.emitWarning(m, { code: 'ISULATS_ENGINE' }));
    const runtimes = await openRuntimeHandlers(options, paths, runner, cgroupManager);
    const ctx: EngineContext = {
      options,
      paths,
      runner,
      oci: runtimes.get(''),
      runtimes,
      cni: new CniManager({ runner, confDir: options.cniConfDir, binDirs: options.cniBinDirs, cacheDir: paths.cniCacheDir }),
      images,
      snapshots,
      sandboxes,
      containers,
      sandboxNames,
      containerNames,
      events: new EventLog(paths.eventsFile),
      host: {
        oomScoreFloor: hostOomScoreFloor(),
        apparmor: hostHasApparmor(),
        selinux: existsSync('/sys/fs/selinux/enforce'),
        capabilityBound: parseCapabilityBound(readFileSync('/proc/self/status', 'utf8')),
        hugepageSizes: probeHugepageSizes(),
        swapControl: swapControllerAvailable(),
      },
      pauseImage: options.pauseImage ?? DEFAULT_PAUSE_IMAGE,
      cdi: new CdiRegistry(options.cdiSpecDirs ?? DEFAULT_CDI_SPEC_DIRS),
      cgroupManager,
      warn,
      info: options.info,
    };
    const engine = new Engine(ctx);
    await engine.recover();
    if (options.watchExits) await engine.watchExits();
    if (options.nri?.enabled) {
      // Loaded only when NRI is on: a daemon without it never runs the adaptation, ttrpc or mux code.
      const { EngineNri } = await import('./nri/engine-nri.js');
      ctx.nri = new EngineNri(ctx, options.nri, {
        runtimeVersion: ENGINE_VERSION,
        stopContainer: async (id) => void (await engine.stopContainer({ containerId: id, timeout: 0 })),
        // Under the record's lock, as UpdateContainerResources applies its own (a start may be reading the spec).
        updateResources: (record, update) => ctx.containers.withLock(record.id, async () => applyResourceUpdate(ctx, await ctx.containers.mustGet(record.id), update)),
      });
      // Daemon mode opens the socket and launches plugins now; a failure must not leave the engine half open.
      await ctx.nri.start().catch(async (err: unknown) => {
        await engine.close().catch(() => undefined);
        throw err;
      });
    }
    return engine;
  }

  /** Undoes creations whose process died midway and drops name reservations nobody owns. */
  private async recover(): Promise<void> {
    const abandoned = async (r: { creating?: Creator }) => !!r.creating && !(await creatorAlive(r.creating));
    for (const c of await this.ctx.containers.list()) {
      if (await abandoned(c)) await this.container.cleanupAbandoned(c).catch((e) => this.ctx.warn(`recovery of container ${c.id}: ${(e as Error).message}`));
    }
    for (const s of await this.ctx.sandboxes.list()) {
      if (await abandoned(s)) await this.sandbox.cleanupAbandoned(s).catch((e) => this.ctx.warn(`recovery of pod ${s.id}: ${(e as Error).message}`));
    }
    await this.ctx.sandboxNames.reclaim(async (id) => !!(await this.ctx.sandboxes.get(id)));
    await this.ctx.containerNames.reclaim(async (id) => !!(await this.ctx.containers.get(id)));
    await this.removeLeftovers().catch((e) => this.ctx.warn(`recovery: ${(e as Error).message}`));
    await reconcileCreatedContainers(this.ctx).catch((e) => this.ctx.warn(`recovery of created containers: ${(e as Error).message}`));
    await resumeAbandonedCheckpoints(this.ctx).catch((e) => this.ctx.warn(`recovery of checkpoints: ${(e as Error).message}`));
    await reclaimOrphanNames(this.ctx).catch((e) => this.ctx.warn(`recovery of names: ${(e as Error).message}`));
    await removeStaleTempFiles(this.ctx).catch((e) => this.ctx.warn(`recovery of temp files: ${(e as Error).message}`));
    // Where the runtime keeps its exec sessions (RuncConmon's sessionsDir).
    await removeDeadExecSessions(joinPath(this.ctx.paths.exitDir, '..', 'exec'), this.ctx.paths.socketDir).catch((e) => this.ctx.warn(`recovery of exec sessions: ${(e as Error).message}`));
    // Exec spec files a process killed during an exec on a full disk left on /dev/shm (exec/exec-scratch.ts).
    await removeDeadExecScratch().catch((e) => this.ctx.warn(`recovery of exec scratch dirs: ${(e as Error).message}`));
    await emptyTrash(join(this.ctx.options.root, 'trash'));
  }

  /**
   * Namespace pins, CNI attachments, runc containers and exit files whose owner has no
   * record (a process died after removing the record, or before its undo ran).
   * Safe against concurrent creators: every flow writes its record before it
   * acquires any of these.
   */
  private async removeLeftovers(): Promise<void> {
    const known = async (id: string) => !!(await this.ctx.sandboxes.get(id)) || !!(await this.ctx.containers.get(id));
    for (const id of await readdir(this.ctx.paths.netnsDir).catch(() => [] as string[])) {
      if (!ID_PATTERN.test(id) || (await known(id))) continue;
      const path = join(this.ctx.paths.netnsDir, id);
      await this.ctx.cni.del(id, path, {}).catch(() => undefined);
      await removeNetns(path);
    }
    await releaseOrphanPins(this.ctx, known);
    // conmon writes a container's exit file only while its record exists; removal deletes the file in the background.
    for (const id of await readdir(this.ctx.paths.exitDir).catch(() => [] as string[])) {
      if (ID_PATTERN.test(id) && !(await known(id))) await rm(join(this.ctx.paths.exitDir, id), { force: true });
    }
    for (const file of await readdir(this.ctx.paths.cniCacheDir).catch(() => [] as string[])) {
      const id = /-([0-9a-f]{64})-[^-]+\.json$/.exec(file)?.[1];
      if (id && !(await known(id))) await this.ctx.cni.del(id, '', {}).catch(() => undefined);
    }
    // runc (and crun) keep one directory per container under their root: reading it is what
    // `runc list` does, without spawning the runtime on every CLI call.
    for (const handler of this.ctx.runtimes.all()) {
      for (const id of await readdir(handler.root).catch(() => [] as string[])) {
        if (ID_PATTERN.test(id) && !(await known(id))) await handler.runtime.delete(id, true).catch(() => undefined);
      }
    }
    await this.ctx.oci.sweep();
    await removeOrphanRestores(this.ctx.paths.root, known);
  }

  /**
   * Releases each container as its init exits (daemon mode; see exit-watch.ts), and first those
   * that exited while no daemon ran, or whose release a killed daemon left unfinished.
   */
  private async watchExits(): Promise<void> {
    const onExit = async (id: string) => {
      // An init that exits at once is seen while StartContainer still holds the container's lock
      // (its record says CREATED until then): read the record once the lock is free.
      await this.ctx.containers.withLockIfPresent(id, async () => undefined);
      const record = await this.ctx.containers.get(id);
      if (record?.state === 'CONTAINER_RUNNING') await this.container.refresh(record);
    };
    this.exitWatch = tryWatchExitFiles(this.ctx.paths.exitDir, onExit, (id, e) => this.ctx.warn(`container ${id}: release after its exit: ${e.message}`), this.ctx.warn);
    for (const r of await this.ctx.containers.list()) {
      if (r.creating) continue;
      const settled = r.state === 'CONTAINER_RUNNING' ? this.container.refresh(r) : r.state === 'CONTAINER_EXITED' ? this.container.releaseLeftover(r.id) : undefined;
      await settled?.catch((e: Error) => this.ctx.warn(`container ${r.id}: release after its exit: ${e.message}`));
    }
  }

  async close(): Promise<void> {
    this.exitWatch?.close();
    await this.ctx.nri?.stop();
    await this.ctx.images.close();
    await drainTrash();
  }

  // ---- RuntimeService ----

  async version(_req: cri.VersionRequestIn): Promise<cri.VersionResponse> {
    return { version: '0.1.0', runtimeName: 'isulats', runtimeVersion: ENGINE_VERSION, runtimeApiVersion: 'v1' };
  }

  runPodSandbox(req: cri.RunPodSandboxRequestIn) {
    return this.sandbox.run(req);
  }
  stopPodSandbox(req: cri.StopPodSandboxRequestIn) {
    return this.sandbox.stop(req);
  }
  removePodSandbox(req: cri.RemovePodSandboxRequestIn) {
    return this.sandbox.remove(req);
  }
  podSandboxStatus(req: cri.PodSandboxStatusRequestIn) {
    return this.sandbox.status(req);
  }
  listPodSandbox(req: cri.ListPodSandboxRequestIn) {
    return this.sandbox.list(req);
  }
  createContainer(req: cri.CreateContainerRequestIn) {
    return this.container.create(req);
  }
  startContainer(req: cri.StartContainerRequestIn) {
    return this.container.start(req);
  }
  stopContainer(req: cri.StopContainerRequestIn) {
    return this.container.stop(req);
  }
  removeContainer(req: cri.RemoveContainerRequestIn) {
    return this.container.remove(req);
  }
  listContainers(req: cri.ListContainersRequestIn) {
    return this.container.list(req);
  }
  containerStatus(req: cri.ContainerStatusRequestIn) {
    return this.container.status(req);
  }
  updateContainerResources(req: cri.UpdateContainerResourcesRequestIn) {
    return this.container.updateResources(req);
  }
  updatePodSandboxResources(req: cri.UpdatePodSandboxResourcesRequestIn) {
    return this.sandbox.updateResources(req);
  }
  reopenContainerLog(req: cri.ReopenContainerLogRequestIn) {
    return this.container.reopenLog(req);
  }
  execSync(req: cri.ExecSyncRequestIn, call?: CallOptions) {
    return this.container.execSync(req, call);
  }
  async exec(_req: cri.ExecRequestIn): Promise<cri.ExecResponse> {
    throw unimplemented('the embedded engine has no streaming server: exec runs in-process (streamInProcess)');
  }
  async attach(_req: cri.AttachRequestIn): Promise<cri.AttachResponse> {
    throw unimplemented('the embedded engine has no streaming server: attach runs in-process (streamInProcess)');
  }
  async portForward(_req: cri.PortForwardRequestIn): Promise<cri.PortForwardResponse> {
    throw unimplemented('port-forward is not supported by the embedded engine');
  }

  /**
   * A connection to `port` inside the pod's network namespace, for the
   * daemon's port-forward sessions. Node cannot setns, so: host-network pods
   * are reached on 127.0.0.1, pods with an IP (CNI bridge) by connecting from
   * the host to that IP (no process per connection), and any other pod through
   * a relay process (`nsenter --net=<netns> busybox nc 127.0.0.1 <port>`).
   * A refused connection to the pod IP also falls back to the relay, which
   * reaches services bound only to the pod's loopback (as kubelet's would).
   */
  async portForwardInProcess(podSandboxId: string, port: number): Promise<Duplex> {
    const id = await this.ctx.sandboxes.resolve(podSandboxId);
    const record = await this.ctx.sandboxes.mustGet(id ?? podSandboxId);
    if (record.state !== 'SANDBOX_READY') throw failedPrecondition(`pod sandbox ${record.id} is not ready`);
    if (record.namespaces.network === 'NODE') return connectTcp('127.0.0.1', port);
    if (record.ips[0]) {
      const direct = await connectTcp(record.ips[0], port).catch((err: Error) => err);
      if (!(direct instanceof Error)) return direct;
      const refused = (direct.cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';
      if (!refused || !record.netnsPath) throw direct;
    }
    if (!record.netnsPath) throw failedPrecondition(`pod sandbox ${record.id} has neither an IP nor a network namespace`);
    return relayInNetns(this.ctx.runner, record.netnsPath, port);
  }

  /** In-process exec/attach for the embedded CLI; resolves with the exit code. */
  streamInProcess(kind: 'exec' | 'attach', req: cri.ExecRequestIn | cri.AttachRequestIn, io: StreamIO): Promise<number> {
    return kind === 'exec' ? this.container.execStream(req as cri.ExecRequestIn, io) : this.container.attachStream(req as cri.AttachRequestIn, io);
  }

  containerStats(req: cri.ContainerStatsRequestIn) {
    return this.container.stats(req);
  }
  listContainerStats(req: cri.ListContainerStatsRequestIn) {
    return this.container.listStats(req);
  }
  async podSandboxStats(req: cri.PodSandboxStatsRequestIn): Promise<cri.PodSandboxStatsResponse> {
    const id = await this.ctx.sandboxes.resolve(req.podSandboxId ?? '');
    const record = await this.ctx.sandboxes.mustGet(id ?? req.podSandboxId ?? '');
    return { stats: await this.container.podStats(record) };
  }
  async listPodSandboxStats(req: cri.ListPodSandboxStatsRequestIn): Promise<cri.ListPodSandboxStatsResponse> {
    const { items } = await this.sandbox.list({ filter: { id: req.filter?.id, labelSelector: req.filter?.labelSelector } });
    const stats: cri.PodSandboxStats[] = [];
    for (const item of items) {
      const record = await this.ctx.sandboxes.get(item.id);
      if (record) stats.push(await this.container.podStats(record));
    }
    return { stats };
  }

  async listMetricDescriptors(_req: cri.ListMetricDescriptorsRequestIn): Promise<cri.ListMetricDescriptorsResponse> {
    return { descriptors: METRIC_DESCRIPTORS };
  }
  /** Ready pods only: a stopped pod has no processes, so no cgroups or network to measure. */
  async listPodSandboxMetrics(_req: cri.ListPodSandboxMetricsRequestIn): Promise<cri.ListPodSandboxMetricsResponse> {
    const pods: SandboxRecord[] = [];
    for (const record of await this.ctx.sandboxes.list()) {
      if ((await this.sandbox.liveState(record)) === 'SANDBOX_READY') pods.push(record);
    }
    // Exits are noticed here, so an exited container's leftover cgroup is not reported as running.
    const containers = await Promise.all((await this.ctx.containers.list()).map((r) => this.container.refresh(r)));
    const running = (podId: string) => containers.filter((r) => r.sandboxId === podId && r.state === 'CONTAINER_RUNNING');
    return { podMetrics: await Promise.all(pods.map((p) => collectPodMetrics(this.ctx, p, running(p.id)))) };
  }

  /** The archive kubelet's checkpoint API asks for; the container keeps running. */
  async checkpointContainer(req: cri.CheckpointContainerRequestIn): Promise<cri.CheckpointContainerResponse> {
    const unavailable = await checkpointUnavailable(this.ctx.runner, 'CheckpointContainer');
    if (unavailable) throw unavailable;
    await this.container.checkpoint(req);
    return {};
  }
  async checkpointPod(_req: cri.CheckpointPodRequestIn): Promise<cri.CheckpointPodResponse> {
    throw (await checkpointUnavailable(this.ctx.runner, 'CheckpointPod')) ?? unimplemented('CheckpointPod: isulats checkpoints single containers (CheckpointContainer), not pods');
  }
  async restorePod(_req: cri.RestorePodRequestIn): Promise<cri.RestorePodResponse> {
    throw (await checkpointUnavailable(this.ctx.runner, 'RestorePod')) ?? unimplemented('RestorePod: isulats restores single containers (CreateContainer from a checkpoint archive), not pods');
  }

  async updateRuntimeConfig(req: cri.UpdateRuntimeConfigRequestIn): Promise<cri.UpdateRuntimeConfigResponse> {
    const podCidr = req.runtimeConfig?.networkConfig?.podCidr ?? '';
    const current = await readJson<Record<string, unknown>>(this.ctx.paths.runtimeConfigFile, {});
    await writeJsonAtomic(this.ctx.paths.runtimeConfigFile, { ...current, podCidr });
    return {};
  }

  async status(req: cri.StatusRequestIn): Promise<cri.StatusResponse> {
    const { config, reason } = await this.ctx.cni.loadConfig();
    const info: Record<string, string> = {};
    if (req.verbose) {
      info.config = JSON.stringify({ root: this.ctx.paths.root, state: this.ctx.paths.state, cniConfDir: this.ctx.cni.confDir, pauseImage: this.ctx.pauseImage, network: config?.name ?? null, dropInfraContainer: this.ctx.options.dropInfraContainer !== false });
      info.runtimes = JSON.stringify({
        default: this.ctx.runtimes.defaultName,
        handlers: Object.fromEntries(this.ctx.runtimes.all().map((h) => [h.name, { path: h.path, runtimeArgs: h.runtimeArgs, root: h.root }])),
      });
      // As containerd's config shows enableCDI and cdiSpecDirs; plus what the dirs hold now.
      const cdi = await this.ctx.cdi.snapshot();
      info.cdi = JSON.stringify({ enabled: true, specDirs: this.ctx.cdi.dirs, specs: cdi.specs.length, devices: [...cdi.devices.keys()], errors: Object.fromEntries(cdi.errors) });
      // The node features of Kubernetes 1.31+ and whether this host has them (doctor prints it).
      info.nodeFeatures = JSON.stringify({
        cdi: { available: true },
        imageVolumes: { available: true },
        checkpoint: await checkpointReason(this.ctx.runner).then((reason) => (reason ? { available: false, reason } : { available: true })),
      });
    }
    return {
      status: {
        conditions: [
          { type: 'RuntimeReady', status: true, reason: '', message: '' },
          config
            ? { type: 'NetworkReady', status: true, reason: '', message: '' }
            : { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: `Network plugin returns error: cni plugin not initialized: ${reason ?? ''}` },
        ],
      },
      info,
      // "" (the default) first, then every configured handler by name, as containerd lists them.
      runtimeHandlers: await Promise.all(['', ...this.ctx.runtimes.names()].map(async (name) => ({
        name,
        features: {
          recursiveReadOnlyMounts: (await this.ctx.runtimes.entry(name).features()).recursiveReadOnlyMounts,
          userNamespaces: supportsUserNamespaces(this.ctx.runtimes.entry(name)),
        },
      }))),
      features: { supplementalGroupsPolicy: true, userNamespacesHostNetwork: false, mountOptions: false },
    };
  }

  async runtimeConfig(_req: cri.RuntimeConfigRequestIn): Promise<cri.RuntimeConfigResponse> {
    return { linux: { cgroupDriver: this.ctx.cgroupManager === 'systemd' ? 'SYSTEMD' : 'CGROUPFS' } };
  }

  async *getContainerEvents(_req: cri.GetEventsRequestIn, signal: AbortSignal): AsyncIterable<cri.ContainerEventResponse> {
    for await (const event of this.ctx.events.tail(signal)) {
      // As containerd sends them (kubelet's evented PLEG takes them as the pod's whole set): the
      // status of every container of the pod, this one as the event left it (from the event line,
      // or read now for lines written without it), the others as they are now.
      const statuses: cri.ContainerStatus[] = [];
      if (event.type !== 'CONTAINER_DELETED_EVENT') {
        const own = event.status ?? (await this.container.status({ containerId: event.containerId }).catch(() => undefined))?.status;
        if (own) statuses.push(own);
      }
      for (const r of await this.ctx.containers.list()) {
        if (r.sandboxId === event.podSandboxId && r.id !== event.containerId && !r.creating) statuses.push(containerStatusOf(r));
      }
      const pod = await this.sandbox.status({ podSandboxId: event.podSandboxId }).catch(() => undefined);
      yield {
        containerId: event.containerId,
        containerEventType: event.type,
        createdAt: event.createdAt,
        podSandboxStatus: pod?.status ?? null,
        containersStatuses: statuses,
      };
    }
  }

  // ---- isula extras ----

  /** Plugins connected to this engine's NRI (none when NRI is off or no event launched them yet). */
  nriPlugins(): PluginInfo[] {
    return this.ctx.nri?.plugins() ?? [];
  }

  kill(id: string, signal: string | number = 'SIGKILL') {
    return this.container.kill(id, signal);
  }
  wait(id: string, signal?: AbortSignal) {
    return this.container.wait(id, signal);
  }
  top(id: string) {
    return this.container.top(id);
  }
  pause(id: string) {
    return this.container.pause(id);
  }
  unpause(id: string) {
    return this.container.unpause(id);
  }
  restart(id: string, timeoutSec?: number) {
    return this.container.restart(id, timeoutSec);
  }

  // ---- ImageService (delegated) ----

  get images(): ImageService {
    return this.ctx.images;
  }
  listImages(req: cri.ListImagesRequestIn) {
    return this.ctx.images.listImages(req);
  }
  imageStatus(req: cri.ImageStatusRequestIn) {
    return this.ctx.images.imageStatus(req);
  }
  pullImage(req: cri.PullImageRequestIn, opts?: PullImageOptions) {
    return this.ctx.images.pullImage(req, opts);
  }
  async removeImage(req: cri.RemoveImageRequestIn): Promise<cri.RemoveImageResponse> {
    // A container's own image goes as containerd removes it (the container keeps its layers); an
    // image mounted as a volume is refused while a container mounts it. The image is resolved
    // only when some container mounts an image volume at all.
    const mounting = (await this.ctx.containers.list()).filter((c) => c.volumeImageIds?.length);
    if (mounting.length) {
      const name = req.image?.image ?? '';
      const image = await this.ctx.images.resolveImage(name).catch(() => undefined);
      const users = image ? mounting.filter((c) => c.volumeImageIds!.includes(image.id)) : [];
      if (users.length) throw failedPrecondition(`image ${name} is in use as a volume by ${users.length} container(s)`);
    }
    return this.ctx.images.removeImage(req);
  }
  imageFsInfo(req: cri.ImageFsInfoRequestIn) {
    return this.ctx.images.imageFsInfo(req);
  }
}

function hostHasApparmor(): boolean {
  try {
    return readFileSync('/sys/module/apparmor/parameters/enabled', 'utf8').trim() === 'Y';
  } catch {
    return false;
  }
}

