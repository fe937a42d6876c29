// Container RPCs. A container's process runs under conmon, so it survives
// the engine process; its exit is observed from conmon's exit file (by the
// daemon's exit watch as it happens, else by the next read: refresh), which
// releases the container and then writes the exit to its record.
import { podFilesDir, snapshotIdmap } from '../sandbox/pod-userns.js';
import { idmapVolumes, releaseVolumes } from './userns-volumes.js';
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as cri from '../../api/cri.js';
import type { Pressure, PressureLine } from '../oci/cgroups.js';
import type { CallOptions, StreamIO } from '../../api/cri-service.js';
import { Signal } from '../../api/generated/cri-v1/runtime/v1/Signal.js';
import { checkImageVolumes, imageVolumeKeys, prepareImageVolumes } from './image-volumes.js';
import { injectCdiDevices } from '../cdi/inject.js';
import { requestedCdiDevices } from '../cdi/device-requests.js';
import { failedPrecondition, invalidArgument, IsulatsError, isKind, notFound } from '../errors.js';
import { cgroupsPathFor, Undo, type EngineContext } from '../engine-context.js';
import { newId } from '../store/id-registry.js';
import { PRIVATE_DIR_MODE } from '../store/private-dirs.js';
import type { ExitInfo, OciProcess, OciRuntime, OciState } from '../oci/oci-runtime.js';
import type { SandboxRecord } from '../sandbox/sandbox-record.js';
import { matchLabels } from '../sandbox/sandbox-service.js';
import { CONTAINER_STATES, enumName, nowNs, toInt } from './cri-values.js';
import { exitTransition, type ContainerRecord, type ContainerStateName } from './container-record.js';
import { loadLocalhostSeccomp } from './seccomp-profile.js';
import { buildContainerSpec, criEnvInSlices, type ResolvedDevice } from './spec.js';
import { specJsonInSlices, storableEnvsInSlices } from './large-env.js';
import { ensureApparmorProfile } from './apparmor-loader.js';
import { runtimeFailpoint } from '../recovery/failpoints.js';
import { creatorAlive, currentCreator } from '../recovery/creator.js';
import { resourcesUpdateFromCri } from './cri-resources.js';
import { checkResources } from './resource-validation.js';
import { applyResourceUpdate } from './resource-update.js';
import { containerListItem, containerStatusOf } from './container-status.js';
import { execProcessOf } from '../exec/exec-process.js';
import { refuseNulBytes } from '../nul-bytes.js';
import { storable } from '../storable.js';
import { containerLogPath } from './log-path.js';
import { containerProcessAlive, monitorAlive, processRuns, readPidFile, waitForExit } from './exit-wait.js';
import { joinPath } from '../store/path-join.js';
import { readRootfsFile } from '../oci/rootfs-path.js';
import { deleteLater } from '../store/trash.js';
import { RefusedWrites, writeUnlessRefused } from '../store/write-refused.js';
import { CHECKPOINT_DIR } from '../checkpoint/archive-layout.js';
import { applyRootfsDiff } from '../checkpoint/rootfs-diff.js';
import { copyArchivedLog, isCheckpointArchivePath, openRestore, writeRestoreCriuConfig } from '../checkpoint/open-restore.js';
import { CHECKPOINT_WORK_DIR, writeCheckpoint } from '../checkpoint/write-checkpoint.js';

/** ExecSync output cap per stream (kubelet's limit for probes is 16 MiB). */
export const EXEC_SYNC_MAX_OUTPUT = 16 * 1024 * 1024;
const SIGNAL_NAMES = Object.keys(Signal);

export function containerName(meta: cri.ContainerMetadataIn, pod: cri.PodSandboxMetadataIn): string {
  return `k8s_${meta.name}_${pod.name}_${pod.namespace}_${pod.uid}_${toInt(meta.attempt)}`;
}

/** Env vars past which CreateContainer yields the event loop between its steps. */
const LARGE_ENV = 1024;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const noWait = async (): Promise<void> => undefined;

function signalName(v: cri.ContainerConfigIn['stopSignal']): string {
  const name = typeof v === 'number' ? SIGNAL_NAMES[v] : v;
  if (!name || name === 'SIGNAL_RUNTIME_DEFAULT') return '';
  return name.replace(/^SIGNAL_/, '');
}

export class ContainerService {
  /** Containers whose observed exit a full disk kept out of their record (answered from conmon's exit file meanwhile). */
  private readonly refusedWrites: RefusedWrites;
  /**
   * Those containers' EXITED records as first derived, answered again until written: an exit conmon
   * could not record either (its exit file is on the full disk too) has no finish time of its own.
   */
  private readonly unwrittenExits = new Map<string, ContainerRecord>();

  constructor(private readonly ctx: EngineContext) {
    this.refusedWrites = new RefusedWrites(ctx.warn);
  }

  /** The runtime of the container's pod, resolved when the pod was made (older records name none: the default). */
  private oci(record: ContainerRecord): OciRuntime {
    return this.ctx.runtimes.get(record.runtimeHandler ?? '');
  }

  // ---- create / start ----

  async create(req: cri.CreateContainerRequestIn): Promise<cri.CreateContainerResponse> {
    const ctx = this.ctx;
    // A large config (kubelet's service links give ~7 env vars per Service) is handled in steps with
    // a turn of the event loop between them, so other clients' calls are answered meanwhile.
    const large = (req.config?.envs?.length ?? 0) > LARGE_ENV;
    const step = large ? nextTurn : noWait;
    await step();
    // A large env is copied and checked a slice at a time (storableEnvsInSlices), the rest at once.
    const rest = large ? { ...req.config, envs: [] } : req.config;
    let config = storable(rest ?? {});
    if (!config.image?.image) throw invalidArgument('container config needs an image');
    // A restore may take the checkpointed container's name (checked again once the archive is read).
    if (!config.metadata?.name && !isCheckpointArchivePath(config.image.image)) throw invalidArgument('container metadata needs a name');
    if (large) config.envs = await storableEnvsInSlices(req.config!.envs!, LARGE_ENV * 4, nextTurn);
    await step();
    refuseNulBytes(rest, 'config');
    refuseNulBytes(req.sandboxConfig, 'sandboxConfig');
    // Values runc would refuse at StartContainer are refused here, as UpdateContainerResources refuses them.
    checkResources(req.config?.linux?.resources, 'config.linux.resources');
    // Names checked before anything is made; resolved once the spec is built.
    let cdiDevices = requestedCdiDevices(config);
    checkImageVolumes(config.mounts);
    await step();
    const sandboxId = await ctx.sandboxes.resolve(req.podSandboxId ?? '');
    const sandbox = sandboxId ? await ctx.sandboxes.get(sandboxId) : undefined;
    if (!sandbox) throw notFound(`pod sandbox "${req.podSandboxId ?? ''}" not found`);
    if (sandbox.state !== 'SANDBOX_READY' || sandbox.creating) throw failedPrecondition(`pod sandbox ${sandbox.id} is not ready`);
    const podConfig = storable(req.sandboxConfig ?? sandbox.config);
    const id = newId();
    const undo = new Undo();
    try {
      // An image that is a checkpoint archive's path restores that container (CRI-O's form): the
      // archive is unpacked, and its config, under the request's names, is the container's.
      const restore = isCheckpointArchivePath(config.image.image) ? await openRestore(ctx, config.image.image, config, id) : undefined;
      if (restore) {
        undo.push('remove the unpacked checkpoint', () => rm(restore.dir, { recursive: true, force: true }));
        config = restore.config;
        if (!config.metadata?.name) throw invalidArgument(`container metadata needs a name (the archive ${restore.archive} names none)`);
        cdiDevices = requestedCdiDevices(config);
        checkImageVolumes(config.mounts);
      }
      const imageName = config.image!.image!;
      const image = await ctx.images.resolveImage(imageName).catch((error: unknown) => {
        // containerd's answer, word for word: a reference that does not parse resolves to nothing,
        // like a missing image.
        if (isKind(error, 'not-found')) throw notFound(`failed to resolve image "${imageName}": not found${restore ? ` (the checkpointed container's image: pull it before restoring ${restore.archive})` : ''}`);
        throw error;
      });
      const name = containerName(config.metadata!, sandbox.config.metadata ?? {});
      const dir = ctx.containers.objectDir(id);
      const bundle = joinPath(dir, 'bundle');
      const logDir = podConfig.logDirectory || sandbox.config.logDirectory || '';
      const logPath = containerLogPath(logDir, config.logPath ?? '', dir);
      const record: ContainerRecord = {
        id,
        sandboxId: sandbox.id,
        name,
        config,
        state: 'CONTAINER_CREATED',
        creating: currentCreator(),
        createdAt: nowNs(),
        startedAt: '0',
        finishedAt: '0',
        exitCode: 0,
        reason: '',
        message: '',
        imageRef: image.id,
        imageId: image.id,
        imageName: image.ref,
        logPath,
        bundle,
        pid: 0,
        cgroupsPath: cgroupsPathFor(ctx, sandbox.cgroupParent, id),
        stopSignal: signalName(config.stopSignal) || image.config.config?.StopSignal || 'SIGTERM',
        user: { uid: 0, gid: 0, supplementalGroups: [] },
        runtimeHandler: sandbox.runtime ?? sandbox.runtimeHandler,
        ...(restore ? { restore: { dir: restore.dir, archive: restore.archive } } : {}),
      };
      await ctx.containers.create(record);
      undo.push('remove record', () => ctx.containers.removeLocking(id));
      await step();
      runtimeFailpoint('create-after-record');
      // Name after the record (marked creating): recovery can then release a name whose creator died.
      await ctx.containerNames.reserve(name, id);
      undo.push('release name', () => ctx.containerNames.release(name, id));
      runtimeFailpoint('create-after-name');
      // Its record's fsync overlaps the container record's commit below.
      const snap = await ctx.snapshots.prepare(id, image, { durable: false, idmap: snapshotIdmap(ctx.paths, sandbox) });
      undo.push('remove rootfs', () => ctx.snapshots.remove(id));
      runtimeFailpoint('create-after-rootfs');
      // The checkpointed container's file changes, before anything reads the rootfs.
      if (restore) await applyRootfsDiff(restore.dir, snap.mountpoint);
      let specConfig = config;
      if (config.mounts?.some((m) => m?.image?.image)) {
        const volumes = await prepareImageVolumes(ctx, id, config.mounts, (key) => undo.push('remove image volume', () => ctx.snapshots.remove(key)));
        specConfig = { ...config, mounts: volumes.mounts };
        record.volumeImageIds = volumes.imageIds;
      }
      if (sandbox.userns && sandbox.usernsPath && specConfig.mounts?.length) {
        undo.push('release idmapped volumes', async () => releaseVolumes(ctx.paths, sandbox.id, id));
        specConfig = { ...specConfig, mounts: idmapVolumes(ctx.paths, { id: sandbox.id, usernsPath: sandbox.usernsPath, gid: sandbox.userns.gid.hostId }, id, specConfig.mounts) };
      }
      // A large env is deduplicated a slice at a time (the merge below is then one small-map lookup per entry).
      const criEnv = step === nextTurn ? await criEnvInSlices(config.envs, LARGE_ENV * 4, nextTurn) : undefined;
      const podFiles = podFilesDir(ctx.paths, ctx.sandboxes.objectDir(sandbox.id), sandbox);
      const built = buildContainerSpec({
        id,
        rootfs: snap.mountpoint,
        config: specConfig,
        sandbox: {
          id: sandbox.id,
          pausePid: sandbox.pid,
          netnsPath: sandbox.netnsPath,
          ipcnsPath: sandbox.ipcnsPath,
          utsnsPath: sandbox.utsnsPath,
          namespaces: sandbox.namespaces,
          hostname: sandbox.hostname,
          hostsPath: joinPath(podFiles, 'hosts'),
          hostnamePath: joinPath(podFiles, 'hostname'),
          resolvConfPath: joinPath(podFiles, 'resolv.conf'),
          shmPath: sandbox.shmPath,
          supplementalGroupsPolicy: sandbox.config.linux?.securityContext?.supplementalGroupsPolicy,
          userns: sandbox.userns && sandbox.usernsPath ? { path: sandbox.usernsPath, ...sandbox.userns } : undefined,
        },
        image: {
          config: image.config.config,
          passwd: readRootfsFile(snap.mountpoint, '/etc/passwd'),
          group: readRootfsFile(snap.mountpoint, '/etc/group'),
        },
        host: ctx.host,
        cgroupsPath: record.cgroupsPath,
        devices: await resolveDevices(config.devices ?? []),
        localhostSeccomp: await loadLocalhostSeccomp(config.linux?.securityContext),
        targetPid: await this.targetPid(config),
        criEnv,
        // Asked only when a mount needs it: `runc features` is one more process.
        recursiveReadOnlyMounts: (config.mounts ?? []).some((m) => m.recursiveReadOnly)
          && (await ctx.runtimes.entry(record.runtimeHandler ?? '').features()).recursiveReadOnlyMounts,
        warn: ctx.warn,
      });
      // Before NRI, as containerd: plugins see the devices the pod asked for.
      if (cdiDevices.length) await injectCdiDevices(ctx.cdi, built, cdiDevices);
      await step();
      // An unloaded Localhost profile is refused here, not at start (runc would fail late).
      await ensureApparmorProfile(built.process.apparmorProfile, ctx.paths.root);
      const spec = ctx.nri ? await ctx.nri.createContainer(sandbox, record, built) : built;
      record.user = { uid: spec.process.user.uid, gid: spec.process.user.gid, supplementalGroups: spec.process.user.additionalGids ?? [] };
      // Small metadata and page-cache writes: on this thread, cheaper than thread-pool round trips.
      mkdirSync(bundle, { recursive: true, mode: PRIVATE_DIR_MODE });
      if (restore) spec.annotations = { ...(spec.annotations ?? {}), 'org.criu.config': writeRestoreCriuConfig(bundle, record.cgroupsPath) };
      const specPath = joinPath(bundle, 'config.json');
      writeFileSync(specPath, large ? await specJsonInSlices(spec, LARGE_ENV * 4, nextTurn) : JSON.stringify(spec));
      await step();
      if (logPath) mkdirSync(dirname(logPath), { recursive: true });
      // The log so far, as CRI-O restores it: the restored process's lines follow on (conmon appends).
      if (restore && logPath) copyArchivedLog(restore.dir, logPath);
      runtimeFailpoint('create-after-bundle');
      // runc and conmon start at StartContainer (as containerd's task): a created container is its
      // bundle, rootfs and record, so CreateContainer costs no process and a never-started one none either.
      // The spec is fsynced with the record's temp file, before the commit: a committed container
      // never has a spec cut short by a power loss.
      // Committed under the pod's lock (shared: a pod's containers commit side by side), with the pod
      // checked again: a StopPodSandbox or RemovePodSandbox since the check above (this process or
      // another) has either listed this container already, or makes the commit fail here.
      const podGone = () => notFound(`pod sandbox ${sandbox.id} was removed while container ${config.metadata!.name} was being created`);
      const created = await ctx.sandboxes.withSharedLock(sandbox.id, async () => {
        const pod = await ctx.sandboxes.get(sandbox.id);
        if (!pod) throw podGone();
        if (pod.state !== 'SANDBOX_READY') throw failedPrecondition(`pod sandbox ${sandbox.id} was stopped while container ${config.metadata!.name} was being created`);
        // The record as made above, not read back: the commit only drops its creation mark.
        const commit = ctx.containers.replace(id, { ...record, creating: undefined }, { syncFirst: [specPath] }).then((written) => {
          if (!written) throw notFound(`container "${id}" not found`);
          return written;
        });
        return (await Promise.all([commit, ctx.snapshots.persist(id), ...imageVolumeKeys(id, config.mounts).map((k) => ctx.snapshots.persist(k))]))[0];
      });
      if (!created) throw podGone();
      runtimeFailpoint('create-after-record-write');
      await ctx.events.append({ containerId: id, podSandboxId: sandbox.id, type: 'CONTAINER_CREATED_EVENT', createdAt: nowNs(), status: containerStatusOf(created) });
      await ctx.nri?.postCreateContainer(id);
      return { containerId: id };
    } catch (error) {
      const failed = await undo.run();
      if (failed.length) ctx.warn(`container ${id}: rollback incomplete (${failed.join('; ')})`);
      throw error;
    }
  }

  private async targetPid(config: cri.ContainerConfigIn): Promise<number | undefined> {
    const ns = config.linux?.securityContext?.namespaceOptions;
    if (!ns?.targetId) return undefined;
    const target = await this.ctx.containers.get(ns.targetId);
    return target?.pid;
  }

  async start(req: cri.StartContainerRequestIn): Promise<cri.StartContainerResponse> {
    const id = await this.resolveId(req.containerId);
    await this.ctx.containers.withLock(id, async () => {
      const record = await this.ctx.containers.mustGet(id);
      if (record.state !== 'CONTAINER_CREATED' || record.creating) throw failedPrecondition(`container ${id} is ${record.state}, not CONTAINER_CREATED`);
      runtimeFailpoint('start-before-conmon');
      let launched: { pid: number; startedAt: string };
      let nriStarted = false;
      try {
        // NRI StartContainer goes between runc create and runc start, as in containerd 1.7.
        launched = await this.launch(record, async (createdPid) => {
          nriStarted = true;
          await this.ctx.nri?.startContainer(id, createdPid);
        });
        runtimeFailpoint('start-after-runc-start');
      } catch (error) {
        await this.oci(record).delete(id, true).catch(() => undefined);
        // On a full disk the start itself failed for want of space: that error is the answer.
        const failed = { ...record, state: 'CONTAINER_EXITED' as const, finishedAt: nowNs(), exitCode: 128, reason: 'StartError', message: (error as Error).message };
        await writeUnlessRefused(() => this.ctx.containers.putLocked(failed), (e) => this.ctx.warn(`container ${id}: its failed start not recorded (${e.message})`));
        // Plugins that saw StartContainer hear the container stop (containerd does the same).
        if (nriStarted) await this.ctx.nri?.stopContainer(id);
        throw error;
      }
      const running: ContainerRecord = { ...record, pid: launched.pid, state: 'CONTAINER_RUNNING', startedAt: launched.startedAt, restore: undefined };
      await this.ctx.containers.putLocked(running);
      // Restored: CRIU's images served their turn (a restart runs the process afresh, as CRI-O's).
      if (record.restore) deleteLater(record.restore.dir);
      runtimeFailpoint('start-after-record-write');
      await this.ctx.events.append({ containerId: id, podSandboxId: record.sandboxId, type: 'CONTAINER_STARTED_EVENT', createdAt: nowNs(), status: containerStatusOf(running) });
    });
    await this.ctx.nri?.postStartContainer(id);
    return {};
  }

  /**
   * Creates the runc container under a new conmon and starts it; returns the container's PID.
   * A runc container a killed StartContainer left created (its conmon still holds it) is started
   * rather than made twice. `beforeStart` runs between the two (the process and cgroup exist).
   * startedAt is taken just before `runc start`, so a process that exits at once cannot be
   * recorded as finished before it started. A restore (`conmon --restore`) is running once made.
   */
  private async launch(r: ContainerRecord, beforeStart?: (pid: number) => Promise<void>): Promise<{ pid: number; startedAt: string }> {
    const left = await this.runcState(r);
    if (left && left.status !== 'stopped' && left.status !== 'created') return { pid: left.pid, startedAt: nowNs() };
    let pid: number;
    let restored = false;
    // Left created without its conmon (killed with the engine): nobody would keep its stdio, log or
    // exit code, so it is deleted below and made afresh under a new monitor.
    if (left?.status === 'created' && (await monitorAlive(r.bundle))) {
      pid = left.pid;
    } else {
      if (left) await this.oci(r).delete(r.id, true);
      await removeExitFile(this.ctx.paths.exitDir, r.id);
      ({ pid } = await this.oci(r).create({
        id: r.id,
        bundle: r.bundle,
        name: r.name,
        logPath: r.logPath || undefined,
        logSizeMax: this.ctx.options.logSizeMax,
        tty: !!r.config.tty,
        stdin: !!r.config.stdin,
        stdinOnce: !!r.config.stdinOnce,
        monitor: true,
        restoreFrom: r.restore ? joinPath(r.restore.dir, CHECKPOINT_DIR) : undefined,
      }));
      restored = !!r.restore;
    }
    runtimeFailpoint('start-after-conmon');
    // runc restore leaves the process running: there is nothing to start.
    const restoredAt = restored ? nowNs() : '';
    await beforeStart?.(pid);
    if (restored) return { pid, startedAt: restoredAt };
    const startedAt = nowNs();
    await this.oci(r).start(r.id, pid);
    return { pid, startedAt };
  }

  /** runc's view of the container, without a process when runc has never heard of it. */
  private async runcState(r: ContainerRecord): Promise<OciState | undefined> {
    const oci = this.oci(r);
    if (!(await oci.known(r.id))) return undefined;
    return oci.state(r.id).catch(() => undefined);
  }

  // ---- state observation ----

  private async resolveId(idOrPrefix: string | undefined): Promise<string> {
    const id = await this.ctx.containers.resolve(idOrPrefix ?? '');
    if (!id) throw notFound(`container "${idOrPrefix ?? ''}" not found`);
    return id;
  }

  /**
   * The record with an exit observed from conmon written back (EXITED, code, reason), once the
   * exited container is released (see releaseExited): whoever sees it EXITED finds it released.
   * On a full disk the write is refused: the answer is the EXITED record all the same (derived from
   * conmon's exit file, which stays until removal), and the next refresh writes it again.
   */
  async refresh(record: ContainerRecord): Promise<ContainerRecord> {
    if (record.state !== 'CONTAINER_RUNNING' || !(await this.observedExit(record))) return record;
    let exited = false;
    const next = await this.ctx.containers.withLockIfPresent(record.id, async () => {
      const current = await this.ctx.containers.get(record.id);
      // Seen again under the lock: a restart since the look above removed the exit file.
      const seen = current?.state === 'CONTAINER_RUNNING' ? await this.observedExit(current) : undefined;
      if (!current || !seen) return current;
      runtimeFailpoint('exit-before-release');
      await this.releaseExited(current);
      runtimeFailpoint('exit-after-release');
      const derived = this.unwrittenExits.get(current.id);
      const after = derived?.startedAt === current.startedAt ? derived : exitTransition(current, seen.exit, nowNs());
      const what = `container ${current.id}: its exit`;
      exited = await writeUnlessRefused(() => this.ctx.containers.putLocked(after), (e) => this.refusedWrites.refused(current.id, what, e));
      if (exited) {
        this.refusedWrites.written(current.id, what);
        this.unwrittenExits.delete(current.id);
      } else {
        this.unwrittenExits.set(current.id, after);
      }
      return after;
    });
    if (!next) throw notFound(`container "${record.id}" not found`);
    // Only the process that wrote the transition reports it, so the event is emitted once (by the
    // refresh whose write succeeds, when a full disk refused earlier ones).
    if (exited) await this.ctx.events.append({ containerId: next.id, podSandboxId: next.sandboxId, type: 'CONTAINER_STOPPED_EVENT', createdAt: nowNs(), status: containerStatusOf(next) });
    return next;
  }

  /**
   * The container's init has exited: what conmon recorded (`exit`), or `{}` when conmon and the
   * init are both gone without a record (conmon killed); undefined while it runs.
   */
  private async observedExit(record: ContainerRecord): Promise<{ exit?: ExitInfo } | undefined> {
    const exit = await this.oci(record).exitInfo(record.id, record.bundle);
    if (exit) return { exit };
    // Running while the init or its monitor runs (the monitor writes the exit file next). The init
    // is asked first: one kill(0), where the monitor needs its pid file read (every list, every
    // running container).
    if (record.pid > 0 && processRuns(record.pid)) return undefined;
    const conmonPid = readPidFile(joinPath(record.bundle, 'conmon.pid'));
    return conmonPid > 0 && processRuns(conmonPid) ? undefined : {};
  }

  /**
   * What an exited container no longer needs, released as containerd's shim and CRI plugin do when
   * the init exits (task delete), whether it was stopped or exited by itself: `runc delete --force`
   * (it kills what the init left in a shared PID namespace, removes the cgroup and runc's state, runs
   * poststop hooks) and the rootfs mount (its unmount syncs the upper file system, the costliest step
   * of a removal). Under the container's lock. Each step is skipped once done, so a release killed
   * midway is finished by the next one. The container has exited either way: a failure is warned and
   * left to StopContainer and RemoveContainer, which release again.
   */
  private async releaseExited(record: ContainerRecord): Promise<void> {
    const warn = (what: string) => (error: Error) => this.ctx.warn(`container ${record.id}: ${what} after its exit failed: ${error.message}`);
    const oci = this.oci(record);
    await Promise.all([
      oci.known(record.id).then((known) => (known ? oci.delete(record.id, true) : undefined)).catch(warn('runtime delete')),
      this.ctx.snapshots.unmount(record.id).catch(warn('rootfs unmount')),
    ]);
  }

  /**
   * Releases an EXITED container that its exit left unreleased: a failed release, or a record written
   * before exits were released (recorded EXITED with runc's container still there). No process when
   * runc has none.
   */
  async releaseLeftover(id: string): Promise<void> {
    await this.ctx.containers.withLockIfPresent(id, async () => {
      const r = await this.ctx.containers.get(id);
      if (!r || r.creating || r.state !== 'CONTAINER_EXITED' || !(await this.oci(r).known(id))) return;
      await this.oci(r).delete(id, true);
      await this.ctx.snapshots.unmount(id);
    });
  }

  async get(idOrPrefix: string | undefined): Promise<ContainerRecord> {
    const id = await this.resolveId(idOrPrefix);
    return this.refresh(await this.ctx.containers.mustGet(id));
  }

  // ---- checkpoint ----

  /** Writes the checkpoint archive of a running container at `location`; the container keeps running. */
  async checkpoint(req: cri.CheckpointContainerRequestIn): Promise<void> {
    const location = req.location ?? '';
    if (!location) throw invalidArgument('CheckpointContainer needs a location (the archive to write)');
    if (!isAbsolute(location)) throw invalidArgument(`checkpoint location "${location}" is not an absolute path`);
    if (!(await stat(dirname(location)).then((s) => s.isDirectory(), () => false))) throw invalidArgument(`checkpoint location "${location}": ${dirname(location)} is not a directory`);
    const seen = await this.get(req.containerId);
    await this.ctx.containers.withLock(seen.id, async () => {
      const record = await this.ctx.containers.mustGet(seen.id);
      if (record.state !== 'CONTAINER_RUNNING' || !processRuns(record.pid)) {
        throw failedPrecondition(`container ${record.id} is ${record.state === 'CONTAINER_RUNNING' ? 'exiting' : record.state}: only running containers can be checkpointed`);
      }
      if (record.config.tty) throw failedPrecondition(`container ${record.id} has a TTY: CRIU cannot checkpoint a terminal held by the monitor`);
      const pod = await this.ctx.sandboxes.get(record.sandboxId);
      await writeCheckpoint({
        record,
        pod: pod?.config.metadata ?? {},
        status: containerStatusOf(record),
        oci: this.oci(record),
        snapshots: this.ctx.snapshots,
        workDir: joinPath(this.ctx.containers.objectDir(record.id), CHECKPOINT_WORK_DIR),
        location,
        runtimeName: record.runtimeHandler || this.ctx.runtimes.defaultName || 'runc',
      });
    });
  }

  // ---- stop / remove ----

  async stop(req: cri.StopContainerRequestIn): Promise<cri.StopContainerResponse> {
    // Idempotent, as the CRI asks and containerd answers: a container that is not there (never
    // was, or already removed) is stopped. An ambiguous prefix still fails.
    const id = await this.ctx.containers.resolve(req.containerId ?? '');
    if (!id) return {};
    await this.stopById(id, toInt(req.timeout));
    await this.ctx.nri?.stopContainer(id);
    return {};
  }

  /**
   * Stops the container and deletes it from the runtime (as containerd deletes the task on exit):
   * `runc kill`, the wait on conmon's exit file, then the release of an exited container (`runc
   * delete`, rootfs unmount). RemoveContainer then spawns nothing. An exited container is released
   * if its exit was not (containerd's shim has killed its leftovers by then).
   */
  async stopById(id: string, timeoutSec: number): Promise<void> {
    let record = await this.refresh(await this.ctx.containers.mustGet(id));
    // Being created (or abandoned midway): runc knows a container only from StartContainer, so
    // nothing runs, and the creator's commit would overwrite a state written now.
    if (record.creating) return;
    if (record.state === 'CONTAINER_EXITED') return this.releaseLeftover(id);
    if (record.state === 'CONTAINER_CREATED') {
      if (!(await this.stopCreated(id))) return;
      // A StartContainer in progress started it: stopped as any running container.
      record = await this.refresh(await this.ctx.containers.mustGet(id));
      if (record.state !== 'CONTAINER_RUNNING') return;
    }
    let exited = false;
    if (timeoutSec > 0) {
      await this.oci(record).kill(id, record.stopSignal || 'SIGTERM');
      exited = await this.waitExit(record, timeoutSec * 1000);
    }
    if (!exited) {
      await this.oci(record).kill(id, 'KILL', true);
      if (!(await this.waitExit(record, 10_000))) throw new IsulatsError('deadline-exceeded', `container ${id} did not exit after SIGKILL`);
    }
    // Records the exit and releases the container (refresh emits the STOPPED event).
    await this.refresh(await this.ctx.containers.mustGet(id));
  }

  /**
   * Records a never-started container as exited, under its lock: a StartContainer in progress
   * holds it, so the container is either still CREATED here or RUNNING (true: the caller stops
   * it), never started behind an EXITED record. Only a StartContainer killed midway leaves a
   * created init (blocked on runc's exec fifo): `runc delete --force` kills it and deletes it.
   */
  private async stopCreated(id: string): Promise<boolean> {
    let exited: ContainerRecord | undefined;
    const started = await this.ctx.containers.withLock(id, async () => {
      const r = await this.ctx.containers.get(id);
      if (!r || r.creating || r.state !== 'CONTAINER_CREATED') return r?.state === 'CONTAINER_RUNNING';
      if (await this.oci(r).known(id)) {
        await this.oci(r).delete(id, true);
        await this.waitExit(r, 5_000);
      }
      const stopped: ContainerRecord = { ...r, state: 'CONTAINER_EXITED', finishedAt: nowNs(), exitCode: 137, reason: 'Error' };
      // A full disk leaves it CREATED on disk (runc has nothing of it now): the stop and a removal
      // still go on, so a pod holding a never-started container can be torn down to free space.
      const written = await writeUnlessRefused(() => this.ctx.containers.putLocked(stopped), (e) => this.ctx.warn(`container ${id}: its stop not recorded (${e.message}); it stays CREATED`));
      if (written) exited = stopped;
      return false;
    });
    if (exited) await this.ctx.events.append({ containerId: id, podSandboxId: exited.sandboxId, type: 'CONTAINER_STOPPED_EVENT', createdAt: nowNs(), status: containerStatusOf(exited) });
    return started;
  }

  /** True once conmon recorded the exit (or conmon and the container's init are both gone). */
  private async waitExit(record: ContainerRecord, ms: number): Promise<boolean> {
    const oci = this.oci(record);
    return waitForExit({
      recorded: async () => !!(await oci.exitInfo(record.id, record.bundle)),
      monitorAlive: () => monitorAlive(record.bundle),
      initAlive: () => containerProcessAlive(record.pid, record.id),
    }, ms);
  }

  async remove(req: cri.RemoveContainerRequestIn): Promise<cri.RemoveContainerResponse> {
    const id = await this.ctx.containers.resolve(req.containerId ?? '').catch(() => undefined);
    if (!id) return {};
    await this.removeById(id);
    return {};
  }

  async removeById(id: string): Promise<void> {
    const record = await this.ctx.containers.get(id);
    if (!record) return;
    if (record.creating && (await this.removeHalfCreated(id))) return;
    const current = await this.refresh(record);
    if (current.state === 'CONTAINER_RUNNING' || current.state === 'CONTAINER_CREATED') {
      await this.stopById(id, 0);
      await this.ctx.nri?.stopContainer(id);
    }
    runtimeFailpoint('rm-after-stop');
    let removed: ContainerRecord | undefined;
    await this.ctx.containers.withLock(id, async () => {
      const r = await this.ctx.containers.get(id);
      if (!r) return;
      // runc's container went with the release at its exit (refresh, above or earlier): no process
      // then. It is still there only when that release failed, and is deleted here.
      if (await this.oci(r).known(id)) await this.oci(r).delete(id, true);
      await this.oci(r).release(id);
      runtimeFailpoint('rm-after-runtime-delete');
      releaseVolumes(this.ctx.paths, r.sandboxId, id);
      await this.ctx.snapshots.remove(id).catch((error) => {
        if (!isKind(error, 'not-found')) throw error;
      });
      for (const key of imageVolumeKeys(id, r.config.mounts)) await this.ctx.snapshots.remove(key);
      runtimeFailpoint('rm-after-snapshot-remove');
      await this.ctx.containers.remove(id);
      if (r.restore) deleteLater(r.restore.dir);
      runtimeFailpoint('rm-after-record-remove');
      await this.ctx.containerNames.release(r.name, id);
      await this.ctx.events.append({ containerId: id, podSandboxId: r.sandboxId, type: 'CONTAINER_DELETED_EVENT', createdAt: nowNs() });
      removed = r;
    });
    // Nobody reads a removed container's exit file: it goes after the answer (recovery takes what a death left).
    deleteLater(joinPath(this.ctx.paths.exitDir, id));
    if (removed) {
      this.refusedWrites.forget(id);
      this.unwrittenExits.delete(id);
    }
    if (removed) await this.ctx.nri?.removeContainer(removed);
  }

  async stopAllInPod(sandboxId: string): Promise<void> {
    for (const r of await this.ctx.containers.list()) {
      if (r.sandboxId !== sandboxId) continue;
      await this.stopById(r.id, 0);
      if (r.state !== 'CONTAINER_EXITED' && !r.creating) await this.ctx.nri?.stopContainer(r.id);
    }
  }

  async removeAllInPod(sandboxId: string): Promise<void> {
    for (const r of await this.ctx.containers.list()) if (r.sandboxId === sandboxId) await this.removeById(r.id);
  }

  /**
   * Removal of a container whose record is still marked `creating`: refused while its creator
   * (this process or another, e.g. a CLI call on the same root) still builds it, as for a half-made
   * pod; undone as recovery would once the creator died. False when the creator committed it
   * meanwhile: the caller removes it as any other.
   */
  private async removeHalfCreated(id: string): Promise<boolean> {
    return this.ctx.containers.withLock(id, async () => {
      const r = await this.ctx.containers.get(id);
      if (!r) return true;
      if (!r.creating) return false;
      if (await creatorAlive(r.creating)) throw failedPrecondition(`container ${id} is still being created (by process ${r.creating.pid})`);
      await this.releaseAbandoned(r);
      return true;
    });
  }

  /** Undoes a CreateContainer whose process died midway (recovery at open). */
  async cleanupAbandoned(record: ContainerRecord): Promise<void> {
    // Under the lock, so the record's lock file goes with it.
    await this.ctx.containers.withLock(record.id, async () => {
      const current = await this.ctx.containers.get(record.id);
      if (current?.creating) await this.releaseAbandoned(current);
    });
  }

  /** Everything a CreateContainer may have acquired, found by the container's ID (its record was written first). */
  private async releaseAbandoned(record: ContainerRecord): Promise<void> {
    // runc only knows a container from StartContainer on: an abandoned CreateContainer spawns nothing here.
    if (await this.oci(record).known(record.id)) {
      await this.oci(record).kill(record.id, 'KILL', true).catch(() => undefined);
      await this.oci(record).delete(record.id, true).catch(() => undefined);
    }
    await this.oci(record).release(record.id).catch(() => undefined);
    releaseVolumes(this.ctx.paths, record.sandboxId, record.id);
    await this.ctx.snapshots.remove(record.id).catch(() => undefined);
    for (const key of imageVolumeKeys(record.id, record.config.mounts)) await this.ctx.snapshots.remove(key).catch(() => undefined);
    await this.ctx.containers.remove(record.id);
    await this.ctx.containerNames.release(record.name, record.id);
    await removeExitFile(this.ctx.paths.exitDir, record.id);
  }

  // ---- status / list ----

  async status(req: cri.ContainerStatusRequestIn): Promise<cri.ContainerStatusResponse> {
    // The shared frozen record (StateStore.mustGetShared): this answer only reads it.
    const r = await this.refresh(this.ctx.containers.mustGetShared(await this.resolveId(req.containerId)));
    const info: Record<string, string> = {};
    if (req.verbose) info.info = JSON.stringify({ pid: r.pid, sandboxID: r.sandboxId, bundle: r.bundle, cgroupsPath: r.cgroupsPath, name: r.name });
    return {
      status: containerStatusOf(r),
      info,
    };
  }

  async list(req: cri.ListContainersRequestIn): Promise<cri.ListContainersResponse> {
    return { containers: (await this.listRecords(req.filter ?? undefined)).map(containerListItem) };
  }

  /** The records a list answers with, each refreshed (an exit seen is released). */
  private async listRecords(f: cri.ListContainersRequestIn['filter']): Promise<readonly ContainerRecord[]> {
    // Shared frozen records (StateStore.listShared): lists and stats only read them.
    let records = this.ctx.containers.listShared().filter((r) => !r.creating);
    if (f?.id) records = records.filter((r) => r.id.startsWith(f.id!));
    if (f?.podSandboxId) records = records.filter((r) => r.sandboxId.startsWith(f.podSandboxId!));
    if (f?.labelSelector) records = records.filter((r) => matchLabels(r.config.labels, f.labelSelector!));
    records = await Promise.all(records.map((r) => this.refresh(r)));
    if (f?.state) {
      const wanted: ContainerStateName = enumName(f.state.state as never, CONTAINER_STATES);
      records = records.filter((r) => r.state === wanted);
    }
    return records;
  }

  // ---- exec ----

  private async execProcess(id: string, cmd: string[] | undefined, tty: boolean): Promise<{ record: ContainerRecord; proc: OciProcess }> {
    if (!cmd?.length) throw invalidArgument('exec needs a command');
    refuseNulBytes(cmd, 'cmd');
    const record = await this.get(id);
    if (record.state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${record.id} is not running (${record.state})`);
    return { record, proc: execProcessOf(record.bundle, cmd, tty) };
  }

  async execSync(req: cri.ExecSyncRequestIn, call: CallOptions = {}): Promise<cri.ExecSyncResponse> {
    const { record, proc } = await this.execProcess(req.containerId ?? '', req.cmd, false);
    call.signal?.throwIfAborted();
    const timeoutSec = toInt(req.timeout);
    const result = await this.oci(record).exec(record.id, proc, {
      timeoutMs: timeoutSec > 0 ? timeoutSec * 1000 : undefined,
      maxOutput: EXEC_SYNC_MAX_OUTPUT,
      signal: call.signal,
    });
    // The caller has gone: the process was ended for it, and nobody reads an answer.
    if (result.cancelled) throw new IsulatsError('deadline-exceeded', `command ${JSON.stringify(req.cmd)} was ended: its caller cancelled the call or its deadline passed`);
    if (result.timedOut) throw new IsulatsError('deadline-exceeded', `command ${JSON.stringify(req.cmd)} timed out after ${timeoutSec}s`);
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
  }

  async execStream(req: cri.ExecRequestIn, io: StreamIO): Promise<number> {
    const { record, proc } = await this.execProcess(req.containerId ?? '', req.cmd, !!req.tty);
    // From the request: a session that starts early (io.opened pending) has no stdin stream yet.
    return this.oci(record).execStream(record.id, proc, io, { stdin: !!(req.stdin || io.stdin) });
  }

  async attachStream(req: cri.AttachRequestIn, io: StreamIO): Promise<number> {
    const record = await this.get(req.containerId);
    if (record.state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${record.id} is not running`);
    await this.oci(record).attach(record.id, record.bundle, io);
    // The attach socket closes when the process ends, a moment before conmon writes
    // the exit file: wait for it (bounded; a client that detached leaves it running).
    await this.waitExit(record, 2_000);
    return (await this.refresh(await this.ctx.containers.mustGet(record.id))).exitCode;
  }

  // ---- logs, resources, stats ----

  async reopenLog(req: cri.ReopenContainerLogRequestIn): Promise<cri.ReopenContainerLogResponse> {
    const record = await this.get(req.containerId);
    if (record.state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${record.id} is not running`);
    await this.oci(record).reopenLog(record.bundle);
    // conmon reopens asynchronously; kubelet's log rotation (and critest) expect the new file
    // to exist once the call returns.
    if (record.logPath) {
      const exists = () => stat(record.logPath).then(() => true, () => false);
      const deadline = Date.now() + 5_000;
      while (!(await exists()) && Date.now() < deadline) await sleep(20);
      if (!(await exists())) throw new IsulatsError('internal', `container ${record.id}: log ${record.logPath} was not reopened`);
    }
    return {};
  }

  async updateResources(req: cri.UpdateContainerResourcesRequestIn): Promise<cri.UpdateContainerResourcesResponse> {
    // Read (and an exit recorded) before the lock: refresh takes it itself.
    const seen = await this.get(req.containerId);
    const res = req.linux;
    if (!res) return {};
    checkResources(res, 'linux');
    refuseUpdate(seen);
    await this.ctx.nri?.updateContainer(seen.id, res);
    // Under the record's lock, as StartContainer runs: a created container's spec is rewritten either
    // before `runc create` reads it or, once started, the update goes through `runc update`; and
    // StartContainer's record write cannot put back the resources from before the update.
    await this.ctx.containers.withLock(seen.id, async () => {
      const record = await this.ctx.containers.mustGet(seen.id);
      refuseUpdate(record);
      await applyResourceUpdate(this.ctx, record, resourcesUpdateFromCri(res, this.ctx.host.swapControl));
      const resources = { ...(record.config.linux?.resources ?? {}), ...storable(res) };
      await this.ctx.containers.putLocked({ ...record, config: { ...record.config, linux: { ...(record.config.linux ?? {}), resources } } });
    });
    await this.ctx.nri?.postUpdateContainer(seen.id);
    return {};
  }

  async statsOf(record: ContainerRecord): Promise<cri.ContainerStats> {
    const ts = nowNs();
    const cg = record.state === 'CONTAINER_RUNNING' ? await this.ctx.oci.stats(record.cgroupsPath).catch(() => undefined) : undefined;
    const usage = await this.ctx.snapshots.usage(record.id).catch(() => undefined);
    return {
      attributes: {
        id: record.id,
        metadata: { name: record.config.metadata?.name ?? '', attempt: toInt(record.config.metadata?.attempt) },
        labels: record.config.labels ?? {},
        annotations: record.config.annotations ?? {},
      },
      cpu: { timestamp: ts, usageCoreNanoSeconds: { value: (cg?.cpuUsageNs ?? 0n).toString() }, usageNanoCores: null, psi: criPsi(cg?.pressure?.cpu) },
      memory: {
        timestamp: ts,
        workingSetBytes: { value: (cg?.memoryWorkingSetBytes ?? 0n).toString() },
        availableBytes: null,
        usageBytes: { value: (cg?.memoryUsageBytes ?? 0n).toString() },
        rssBytes: null,
        pageFaults: null,
        majorPageFaults: null,
        psi: criPsi(cg?.pressure?.memory),
      },
      writableLayer: {
        timestamp: ts,
        fsId: { mountpoint: joinPath(this.ctx.paths.root, 'containers-rw') },
        usedBytes: { value: String(usage?.bytes ?? 0) },
        inodesUsed: { value: String(usage?.inodes ?? 0) },
      },
      swap: null,
      io: cg?.pressure?.io ? { timestamp: ts, psi: criPsi(cg.pressure.io) } : null,
    };
  }

  async stats(req: cri.ContainerStatsRequestIn): Promise<cri.ContainerStatsResponse> {
    return { stats: await this.statsOf(await this.get(req.containerId)) };
  }

  async listStats(req: cri.ListContainerStatsRequestIn): Promise<cri.ListContainerStatsResponse> {
    const f = req.filter ?? undefined;
    // The refreshed records themselves: no second read of each record's file.
    const records = await this.listRecords({ id: f?.id, podSandboxId: f?.podSandboxId, labelSelector: f?.labelSelector });
    const stats = await Promise.all(records.map((r) => this.statsOf(r)));
    return { stats };
  }

  async podStats(sandbox: SandboxRecord): Promise<cri.PodSandboxStats> {
    const ts = nowNs();
    const containers = (await this.ctx.containers.list()).filter((r) => r.sandboxId === sandbox.id);
    const stats = await Promise.all(containers.map(async (r) => this.statsOf(await this.refresh(r))));
    const pause = await this.ctx.oci.stats(sandbox.cgroupsPath).catch(() => undefined);
    const sum = (pick: (s: cri.ContainerStats) => string | undefined) => stats.reduce((acc, s) => acc + BigInt(pick(s) ?? '0'), 0n);
    return {
      attributes: {
        id: sandbox.id,
        metadata: { name: sandbox.config.metadata?.name ?? '', uid: sandbox.config.metadata?.uid ?? '', namespace: sandbox.config.metadata?.namespace ?? '', attempt: toInt(sandbox.config.metadata?.attempt) },
        labels: sandbox.config.labels ?? {},
        annotations: sandbox.config.annotations ?? {},
      },
      linux: {
        cpu: { timestamp: ts, usageCoreNanoSeconds: { value: (sum((s) => s.cpu?.usageCoreNanoSeconds?.value) + (pause?.cpuUsageNs ?? 0n)).toString() }, usageNanoCores: null, psi: null },
        memory: {
          timestamp: ts,
          workingSetBytes: { value: (sum((s) => s.memory?.workingSetBytes?.value) + (pause?.memoryWorkingSetBytes ?? 0n)).toString() },
          availableBytes: null,
          usageBytes: { value: (sum((s) => s.memory?.usageBytes?.value) + (pause?.memoryUsageBytes ?? 0n)).toString() },
          rssBytes: null,
          pageFaults: null,
          majorPageFaults: null,
          psi: null,
        },
        network: null,
        process: null,
        containers: stats,
        io: null,
      },
      windows: null,
    };
  }

  // ---- isula extras ----

  async kill(idOrPrefix: string, signal: string | number): Promise<void> {
    const record = await this.get(idOrPrefix);
    if (record.state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${record.id} is not running`);
    await this.oci(record).kill(record.id, signal);
  }

  /** Waits until the container exits; returns its exit code. */
  async wait(idOrPrefix: string, signal?: AbortSignal): Promise<number> {
    for (;;) {
      const record = await this.get(idOrPrefix);
      if (record.state === 'CONTAINER_EXITED') return record.exitCode;
      if (signal?.aborted) throw new IsulatsError('deadline-exceeded', 'wait aborted');
      await sleep(200);
    }
  }

  async top(idOrPrefix: string): Promise<number[]> {
    const record = await this.get(idOrPrefix);
    if (record.state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${record.id} is not running`);
    return this.oci(record).pids(record.id);
  }

  async pause(idOrPrefix: string): Promise<void> {
    const record = await this.get(idOrPrefix);
    if (record.state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${record.id} is not running`);
    await this.oci(record).pause(record.id);
  }

  async unpause(idOrPrefix: string): Promise<void> {
    const record = await this.get(idOrPrefix);
    await this.oci(record).resume(record.id);
  }

  /** Stops the container if running, then runs it again from the same bundle (a new process, same log). */
  async restart(idOrPrefix: string, timeoutSec = 10): Promise<void> {
    const record = await this.get(idOrPrefix);
    if (record.state === 'CONTAINER_RUNNING') await this.stopById(record.id, timeoutSec);
    await this.ctx.containers.withLock(record.id, async () => {
      const r = await this.ctx.containers.mustGet(record.id);
      if (await this.oci(r).known(r.id)) await this.oci(r).delete(r.id, true);
      await this.ctx.snapshots.mount(r.id);
      const { pid, startedAt } = await this.launch(r);
      await this.ctx.containers.putLocked({ ...r, pid, state: 'CONTAINER_RUNNING', startedAt, finishedAt: '0', exitCode: 0, reason: '', message: '' });
    });
  }
}

function refuseUpdate(record: ContainerRecord): void {
  if (record.state === 'CONTAINER_EXITED') throw failedPrecondition(`container ${record.id} has exited`);
  // Its creator writes the spec and would overwrite the update.
  if (record.creating) throw failedPrecondition(`container ${record.id} is still being created`);
}

async function removeExitFile(exitDir: string, id: string): Promise<void> {
  try {
    unlinkSync(joinPath(exitDir, id));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function resolveDevices(devices: cri.DeviceIn[]): Promise<ResolvedDevice[]> {
  const out: ResolvedDevice[] = [];
  for (const d of devices) {
    if (!d.hostPath || !d.containerPath) throw invalidArgument('a device needs host_path and container_path');
    const st = await stat(d.hostPath).catch(() => undefined);
    if (!st) throw invalidArgument(`device ${d.hostPath} does not exist`);
    const type = st.isCharacterDevice() ? 'c' : st.isBlockDevice() ? 'b' : st.isFIFO() ? 'p' : undefined;
    if (!type) throw invalidArgument(`${d.hostPath} is not a device`);
    const rdev = st.rdev;
    out.push({
      containerPath: d.containerPath,
      hostPath: d.hostPath,
      permissions: d.permissions || 'rwm',
      type,
      major: Number((BigInt(rdev) >> 8n) & 0xfffn),
      minor: Number((BigInt(rdev) & 0xffn) | ((BigInt(rdev) >> 12n) & 0xfff00n)),
      fileMode: st.mode & 0o777,
      uid: st.uid,
      gid: st.gid,
    });
  }
  return out;
}

/** A cgroup's pressure file as CRI's PsiStats (KubeletPSI): total stall time in nanoseconds. */
function criPsi(p: Pressure | undefined): cri.PsiStats | null {
  if (!p || (!p.some && !p.full)) return null;
  const data = (l: PressureLine | undefined) => (l ? { Total: (l.totalUs * 1000n).toString(), Avg10: l.avg10, Avg60: l.avg60, Avg300: l.avg300 } : null);
  return { Some: data(p.some), Full: data(p.full) };
}
