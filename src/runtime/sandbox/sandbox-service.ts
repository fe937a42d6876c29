// Pod sandbox RPCs. RunPodSandbox is a list of named steps; each acquisition
// registers its undo, run in reverse when a later step fails. Stop and remove
// are idempotent: a missing sandbox or an already released resource is success.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as cri from '../../api/cri.js';
import { failedPrecondition, invalidArgument, internal, isKind } from '../errors.js';
import { cgroupsPathFor, Undo, type EngineContext } from '../engine-context.js';
import { loadLocalhostSeccomp } from '../container/seccomp-profile.js';
import { buildSandboxSpec, sandboxNamespaceModes } from '../container/spec.js';
import { nowNs, toInt } from '../container/cri-values.js';
import { pinReleaseCount, pinsMounted, releasePins } from '../network/netns.js';
import { podIps } from '../network/cni-result.js';
import { newId } from '../store/id-registry.js';
import { PRIVATE_DIR_MODE } from '../store/private-dirs.js';
import { deepFreeze } from '../store/record-cache.js';
import type { SandboxRecord } from './sandbox-record.js';
import type { OciRuntime } from '../oci/oci-runtime.js';
import { ensurePauseImage } from './pause-image.js';
import { writePodFiles } from './pod-files.js';
import { podHostname, type PodHostname } from './pod-hostname.js';
import { refuseNulBytes } from '../nul-bytes.js';
import { HOST_SHM, mountPodShm, unmountPodShm } from './pod-shm.js';
import { runtimeFailpoint, type PodReleaseOp } from '../recovery/failpoints.js';
import { creatorAlive, currentCreator } from '../recovery/creator.js';
import { podCgroupResources } from '../container/cri-resources.js';
import { checkResources } from '../container/resource-validation.js';
import { CgroupWriteError } from '../oci/cgroup-writer.js';
import { cgroupParentProblem, engineCgroupParent, ensurePodCgroup, podCgroupParent, podCgroupPath, sharedCgroupProblem } from './pod-cgroup.js';
import { detectCgroupVersion } from '../oci/cgroups.js';
import { RefusedWrites, writeUnlessRefused } from '../store/write-refused.js';
import { podFilesDir, podRootOwner, podUserns, snapshotIdmap } from './pod-userns.js';
import { checkShareReachable, makeUsernsShare, removeUsernsShare } from './userns-share.js';
import { supportsUserNamespaces } from '../oci/runtime-handlers.js';
import { allPinPaths, checkPodSysctls, pinList, pinPodNamespaces, PINNS_BINARY, podPinPaths, type PodPins } from './pod-namespaces.js';
import { storable } from '../storable.js';
import { processRuns } from '../container/exit-wait.js';

/** How often a stopped pod's record, refused by a full disk, is written again. */
const STOPPED_WRITE_RETRY_MS = 5_000;

/** What the sandbox service needs from the container service. */
export interface PodContainers {
  stopAllInPod(sandboxId: string): Promise<void>;
  removeAllInPod(sandboxId: string): Promise<void>;
}

export function sandboxName(meta: cri.PodSandboxMetadataIn): string {
  return `k8s_POD_${meta.name}_${meta.namespace}_${meta.uid}_${toInt(meta.attempt)}`;
}

function cniArgs(record: SandboxRecord): Record<string, string> {
  const meta = record.config.metadata ?? {};
  return {
    K8S_POD_NAMESPACE: meta.namespace ?? '',
    K8S_POD_NAME: meta.name ?? '',
    K8S_POD_INFRA_CONTAINER_ID: record.id,
    K8S_POD_UID: meta.uid ?? '',
  };
}

/**
 * Refuses ports no kubelet sends (its API validation allows 1-65535, and 0 for "no host port"):
 * containerd 1.6 would silently drop a negative host port and fail in iptables on 99999.
 */
function checkPortMappings(config: cri.PodSandboxConfigIn): void {
  for (const [i, p] of (config.portMappings ?? []).entries()) {
    const containerPort = toInt(p.containerPort);
    const hostPort = toInt(p.hostPort);
    if (!Number.isInteger(containerPort) || containerPort < 1 || containerPort > 65535) {
      throw invalidArgument(`port_mappings[${i}]: container_port ${containerPort} is out of range (1-65535)`);
    }
    if (!Number.isInteger(hostPort) || hostPort < 0 || hostPort > 65535) {
      throw invalidArgument(`port_mappings[${i}]: host_port ${hostPort} is out of range (1-65535, or 0 for none)`);
    }
  }
}

function portMappings(config: cri.PodSandboxConfigIn): Array<Record<string, unknown>> {
  const names = ['tcp', 'udp', 'sctp'];
  return (config.portMappings ?? [])
    .filter((p) => toInt(p.hostPort) > 0)
    .map((p) => ({
      hostPort: toInt(p.hostPort),
      containerPort: toInt(p.containerPort),
      protocol: typeof p.protocol === 'number' ? names[p.protocol] : (p.protocol ?? 'TCP').toLowerCase(),
      hostIP: p.hostIp ?? '',
    }));
}

export class SandboxService {
  /** Stopped pods whose NOTREADY record a full disk refused (their state is derived meanwhile: see liveState). */
  private readonly refusedWrites: RefusedWrites;

  constructor(private readonly ctx: EngineContext, private readonly pods: PodContainers) {
    this.refusedWrites = new RefusedWrites(ctx.warn);
  }

  /** The runtime the pod runs on: its handler's, chosen at RunPodSandbox. */
  private oci(record: SandboxRecord): OciRuntime {
    return this.ctx.runtimes.get(record.runtime ?? record.runtimeHandler);
  }

  async run(req: cri.RunPodSandboxRequestIn): Promise<cri.RunPodSandboxResponse> {
    const config = storable(req.config ?? {});
    const meta = config.metadata;
    if (!meta?.name || !meta.namespace || !meta.uid) throw invalidArgument('pod sandbox metadata needs name, namespace and uid');
    checkPortMappings(config);
    const namespaces = sandboxNamespaceModes(config);
    const hostname = podHostname(config, namespaces.network === 'NODE');
    refuseNulBytes(config, 'config');
    // Read before anything is acquired: a bad profile then costs nothing to undo.
    const seccomp = await loadLocalhostSeccomp(config.linux?.securityContext);
    // A RuntimeClass naming a handler that is not configured must fail, as in containerd, not
    // silently run on the default runtime.
    const handler = req.runtimeHandler ?? '';
    if (!this.ctx.runtimes.has(handler)) throw invalidArgument(`no runtime for "${handler}" is configured`);
    checkResources(req.config?.linux?.overhead, 'config.linux.overhead', 'pod');
    checkResources(req.config?.linux?.resources, 'config.linux.resources', 'pod');
    checkPodSysctls(config.linux?.sysctls, namespaces);
    this.checkCgroupParent(config.linux?.cgroupParent ?? '');
    const userns = podUserns(config, namespaces);
    if (userns && !supportsUserNamespaces(this.ctx.runtimes.entry(handler))) throw invalidArgument(`runtime handler "${handler}" does not support user namespaces`);
    if (userns) checkShareReachable(this.ctx.paths);
    const ctx = this.ctx;
    const id = newId();
    const undo = new Undo();
    try {
      // Record (marked creating) before the name: recovery can then release a name whose creator died.
      const record = this.newRecord(id, config, hostname.name, handler);
      if (userns) record.userns = userns;
      await this.createRecord(record, undo);
      runtimeFailpoint('runp-after-record');
      await this.ctx.sandboxNames.reserve(record.name, id);
      undo.push('release name', () => this.ctx.sandboxNames.release(record.name, id));
      runtimeFailpoint('runp-after-name');
      if (record.userns) {
        makeUsernsShare(ctx.paths, id, record.userns.gid.hostId);
        undo.push('remove userns share dir', () => removeUsernsShare(ctx.paths, id));
      }
      await this.setupShm(record, undo);
      runtimeFailpoint('runp-after-shm');
      // A pod without infra needs no pause image or rootfs; the failpoints keep their order either way.
      // A user namespace comes first: the pause's idmapped rootfs is made through it.
      if (record.userns) await this.pinNamespaces(record, hostname, undo);
      let rootfs = '';
      if (!record.noInfra) {
        record.pauseImageId = await ensurePauseImage(ctx);
        rootfs = await this.prepareRootfs(record, undo);
      }
      runtimeFailpoint('runp-after-rootfs');
      // Made while pinns and the CNI plugins run (its calls wait on the kernel's cgroup mutex, which
      // starting containers hold); it never throws, and is done before the pod is reported ready.
      const podCgroup = record.noInfra ? this.ensurePodCgroup(record) : undefined;
      if (!record.userns) await this.pinNamespaces(record, hostname, undo);
      if (record.namespaces.network !== 'NODE') {
        runtimeFailpoint('runp-after-netns');
        await this.setupNetwork(record, config, undo);
        runtimeFailpoint('runp-after-cni-add');
      }
      await podCgroup;
      await writePodFiles(podFilesDir(ctx.paths, ctx.sandboxes.objectDir(id), record), config, record.hostname, record.namespaces.network === 'NODE', record.ips[0], podRootOwner(record.userns));
      runtimeFailpoint('runp-after-pod-files');
      if (!record.noInfra) await this.startPause(record, rootfs, hostname, seccomp, undo);
      runtimeFailpoint('runp-after-pause-run');
      await ctx.sandboxes.update(id, () => ({ ...record, state: 'SANDBOX_READY', creating: undefined }));
      runtimeFailpoint('runp-after-ready-write');
      await ctx.nri?.runPodSandbox(id);
      return { podSandboxId: id };
    } catch (error) {
      const failed = await undo.run();
      if (failed.length) {
        ctx.warn(`pod ${id}: rollback incomplete (${failed.join('; ')}); left NOTREADY`);
        await ctx.sandboxes.update(id, (r) => ({ ...r, state: 'SANDBOX_NOTREADY', creating: undefined })).catch(() => undefined);
      }
      throw error;
    }
  }

  private newRecord(id: string, config: cri.PodSandboxConfigIn, hostname: string, runtimeHandler: string): SandboxRecord {
    const name = sandboxName(config.metadata!);
    const namespaces = sandboxNamespaceModes(config);
    const parent = podCgroupParent(config.linux?.cgroupParent || this.engineParent(), this.ctx.cgroupManager);
    return {
      id,
      name,
      config,
      state: 'SANDBOX_NOTREADY',
      createdAt: nowNs(),
      creating: currentCreator(),
      pid: 0,
      // Decided before anything is acquired, so a recovery knows whether to look for a pause container.
      noInfra: this.ctx.options.dropInfraContainer !== false && namespaces.pid !== 'POD',
      namespaces,
      ips: [],
      hostname,
      cgroupParent: parent,
      cgroupsPath: cgroupsPathFor(this.ctx, parent, id),
      pauseImageId: '',
      runtimeHandler,
      runtime: this.ctx.runtimes.entry(runtimeHandler).name,
    };
  }

  /** The parent of pods that name none. */
  private engineParent(): string {
    return engineCgroupParent(this.ctx.options.cgroupParent, this.ctx.cgroupManager);
  }

  /** Refuses, before anything is acquired, a parent runc would refuse at the pause's start. */
  private checkCgroupParent(requested: string): void {
    if (requested) {
      const problem = cgroupParentProblem(requested, this.ctx.cgroupManager);
      if (problem) throw invalidArgument(problem);
      return;
    }
    const problem = cgroupParentProblem(this.engineParent(), this.ctx.cgroupManager);
    if (problem) throw failedPrecondition(`the configured ${problem}`);
  }

  private async createRecord(record: SandboxRecord, undo: Undo): Promise<void> {
    await this.ctx.sandboxes.create(record);
    undo.push('remove record', () => this.ctx.sandboxes.removeLocking(record.id));
  }

  private async setupShm(record: SandboxRecord, undo: Undo): Promise<void> {
    if (record.namespaces.ipc === 'NODE') {
      record.shmPath = HOST_SHM;
      return;
    }
    const path = await mountPodShm(podFilesDir(this.ctx.paths, this.ctx.sandboxes.objectDir(record.id), record), podRootOwner(record.userns));
    undo.push('unmount pod shm', () => unmountPodShm(path));
    record.shmPath = path;
  }

  private async prepareRootfs(record: SandboxRecord, undo: Undo): Promise<string> {
    const snap = await this.ctx.snapshots.prepare(record.id, record.pauseImageId, { idmap: snapshotIdmap(this.ctx.paths, record) });
    undo.push('remove pause rootfs', () => this.ctx.snapshots.remove(record.id));
    return snap.mountpoint;
  }

  /** The pod's own cgroup parent, which runc would have made for a pause; best effort: the first container's runc makes it too. */
  private async ensurePodCgroup(record: SandboxRecord): Promise<void> {
    // Under systemd, slices are systemd's to make (runc asks it for the scope, and it makes the
    // slices above); a directory made behind its back is one it neither tracks nor removes.
    if (!record.config.linux?.cgroupParent || this.ctx.cgroupManager === 'systemd') return;
    const path = podCgroupPath(record.cgroupParent, this.ctx.cgroupManager);
    await ensurePodCgroup(path, detectCgroupVersion()).catch((error: Error) => this.ctx.warn(`pod ${record.id}: making cgroup ${path}: ${error.message}`));
  }

  /** One pinns run: the pod's user namespace (userns mode POD, made first), its net, IPC and UTS namespaces (those it does not share with the node), lo up, hostname, sysctls. */
  private async pinNamespaces(record: SandboxRecord, hostname: PodHostname, undo: Undo): Promise<void> {
    const pins = podPinPaths(this.ctx.paths, record.id, record.namespaces, record.userns);
    if (!pinList(pins).length) return;
    const binary = this.ctx.options.pinnsPath ?? PINNS_BINARY;
    if (!existsSync(binary)) throw failedPrecondition(`pinns binary ${binary} not found: run \`npm run build\` in the isulats install`);
    await pinPodNamespaces(this.ctx.runner, binary, { pins, hostname: hostname.setInSpec ? hostname.name : undefined, sysctls: record.config.linux?.sysctls, userns: record.userns });
    undo.push('release namespace pins', () => releasePins(pinList(pins)));
    record.netnsPath = pins.net;
    record.ipcnsPath = pins.ipc;
    record.utsnsPath = pins.uts;
    record.usernsPath = pins.user;
  }

  private async setupNetwork(record: SandboxRecord, config: cri.PodSandboxConfigIn, undo: Undo): Promise<void> {
    const result = await this.ctx.cni.add({
      containerId: record.id,
      netnsPath: record.netnsPath!,
      ifName: 'eth0',
      args: cniArgs(record),
      runtimeConfig: { portMappings: portMappings(config) },
    });
    undo.push('CNI DEL', () => this.ctx.cni.del(record.id, record.netnsPath!, cniArgs(record)));
    record.ips = podIps(result);
  }

  private async startPause(record: SandboxRecord, rootfs: string, hostname: PodHostname, localhostSeccomp: unknown, undo: Undo): Promise<void> {
    const image = await this.ctx.images.resolveImage(record.pauseImageId);
    const c = image.config.config ?? {};
    const args = [...(c.Entrypoint ?? []), ...(c.Cmd ?? [])];
    const bundle = join(this.ctx.sandboxes.objectDir(record.id), 'bundle');
    await mkdir(bundle, { recursive: true, mode: PRIVATE_DIR_MODE });
    const spec = buildSandboxSpec({
      id: record.id,
      rootfs,
      config: record.config,
      args: args.length ? args : ['/pause'],
      env: c.Env,
      netnsPath: record.netnsPath,
      ipcnsPath: record.ipcnsPath,
      utsnsPath: record.utsnsPath,
      userns: record.userns && record.usernsPath ? { path: record.usernsPath, ...record.userns } : undefined,
      hostname: hostname.setInSpec ? hostname.name : undefined,
      cgroupsPath: record.cgroupsPath,
      host: this.ctx.host,
      localhostSeccomp,
      warn: this.ctx.warn,
    });
    await writeFile(join(bundle, 'config.json'), JSON.stringify(spec));
    const oci = this.oci(record);
    undo.push('delete pause container', () => oci.delete(record.id, true));
    const { pid } = await oci.create({ id: record.id, bundle, tty: false, stdin: false, stdinOnce: false, monitor: false });
    record.pid = pid;
  }

  async stop(req: cri.StopPodSandboxRequestIn): Promise<cri.StopPodSandboxResponse> {
    const id = await this.ctx.sandboxes.resolve(req.podSandboxId ?? '').catch(() => undefined);
    if (!id) return {};
    await this.ctx.sandboxes.withLock(id, async () => {
      // Under the pod's lock, as RemovePodSandbox: a CreateContainer commits under it (shared) only
      // into a READY pod, so its container is either listed and stopped here, or its commit fails.
      await this.pods.stopAllInPod(id);
      runtimeFailpoint('stopp-after-containers');
      const record = await this.ctx.sandboxes.get(id);
      if (!record) return;
      if (record.creating) {
        // A half-made pod is released by its creator's undo, or by removal once the creator died.
        if (await creatorAlive(record.creating)) throw failedPrecondition(`pod sandbox ${id} is still being created (by process ${record.creating.pid})`);
        return;
      }
      await this.releaseResources(record, 'stopp');
      if (!(await this.writeStopped(record))) this.writeStoppedLater(id);
      runtimeFailpoint('stopp-after-record-write');
    });
    await this.ctx.nri?.stopPodSandbox(id);
    return {};
  }

  /**
   * Records a released pod NOTREADY; false when a full disk refused it. The pod is stopped all the
   * same: with its pause gone and its pins unmounted, status and list answer NOTREADY (liveState),
   * and a repeated stop or the removal releases again (each step idempotent).
   */
  private async writeStopped(record: SandboxRecord): Promise<boolean> {
    const what = `pod sandbox ${record.id}: its stop`;
    const written = await writeUnlessRefused(
      () => this.ctx.sandboxes.putLocked({ ...record, state: 'SANDBOX_NOTREADY', released: true }),
      (e) => this.refusedWrites.refused(record.id, what, e),
    );
    if (written) this.refusedWrites.written(record.id, what);
    return written;
  }

  /** Writes a stopped pod's record again, every few seconds, until it is written or the pod is gone (not kept alive for it). */
  private writeStoppedLater(id: string): void {
    setTimeout(() => {
      void this.ctx.sandboxes.withLockIfPresent(id, async () => {
        const record = await this.ctx.sandboxes.get(id);
        if (!record || record.creating || record.state !== 'SANDBOX_READY' || (await this.liveState(record)) === 'SANDBOX_READY') {
          this.refusedWrites.forget(id);
          return;
        }
        if (!(await this.writeStopped(record))) this.writeStoppedLater(id);
      }).catch((e: Error) => this.ctx.warn(`pod sandbox ${id}: writing its stop again: ${e.message}`));
    }, STOPPED_WRITE_RETRY_MS).unref();
  }

  /**
   * Pause container (if any), network and namespace pins: each release is idempotent. After a completed stop
   * (`released`), remove skips the steps that cost processes (runc state/delete, CNI DEL): they
   * found nothing then. The cheap ones run again, and the failpoints stay in the same order.
   */
  private async releaseResources(record: SandboxRecord, op: PodReleaseOp): Promise<void> {
    const costly = !record.released;
    const errors: string[] = [];
    const step = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (error) {
        errors.push(`${what}: ${(error as Error).message}`);
      }
    };
    // One `runc delete --force`: it SIGKILLs a live pause, waits for it and deletes it (or deletes a
    // stopped or created one, or finds none), so no `runc state` or `runc kill` before it.
    if (costly && !record.noInfra) await step('stop pause', () => this.oci(record).delete(record.id, true));
    runtimeFailpoint(`${op}-after-pause-delete`);
    if (record.netnsPath) {
      if (costly) await step('CNI DEL', () => this.ctx.cni.del(record.id, record.netnsPath!, cniArgs(record)));
      runtimeFailpoint(`${op}-after-cni-del`);
    }
    const pins = pinList(recordPins(record));
    if (pins.length) await step('release namespace pins', () => releasePins(pins));
    if (record.netnsPath) runtimeFailpoint(`${op}-after-netns-remove`);
    if (!record.noInfra) await step('unmount pause rootfs', () => this.ctx.snapshots.unmount(record.id));
    await step('unmount pod shm', () => unmountPodShm(record.shmPath));
    runtimeFailpoint(`${op}-after-unmount`);
    if (record.userns && op === 'rmp') await step('remove userns share dir', () => removeUsernsShare(this.ctx.paths, record.id));
    if (errors.length) throw internal(`stopping pod ${record.id}: ${errors.join('; ')}`);
  }

  async remove(req: cri.RemovePodSandboxRequestIn): Promise<cri.RemovePodSandboxResponse> {
    const id = await this.ctx.sandboxes.resolve(req.podSandboxId ?? '').catch(() => undefined);
    if (!id) return {};
    let removed: SandboxRecord | undefined;
    await this.ctx.sandboxes.withLock(id, async () => {
      // Under the pod's lock, which a CreateContainer's commit takes (shared) to check the pod: a
      // container of this pod is either committed before this list, and removed here, or fails
      // its commit once the pod is gone. (Container removal takes container locks only.)
      await this.pods.removeAllInPod(id);
      runtimeFailpoint('rmp-after-containers');
      const record = await this.ctx.sandboxes.get(id);
      if (!record) return;
      if (record.creating) {
        // Half made: its record does not name what it holds yet, so the ID-derived paths are used.
        if (await creatorAlive(record.creating)) throw failedPrecondition(`pod sandbox ${id} is still being created (by process ${record.creating.pid})`);
        await this.releaseAbandoned(record);
        return;
      }
      await this.releaseResources(record, 'rmp');
      await this.ctx.snapshots.remove(id).catch((error) => {
        if (!isKind(error, 'not-found')) throw error;
      });
      runtimeFailpoint('rmp-after-snapshot-remove');
      await this.ctx.sandboxes.remove(id);
      runtimeFailpoint('rmp-after-record-remove');
      await this.ctx.sandboxNames.release(record.name, id);
      this.refusedWrites.forget(id);
      removed = record;
    });
    if (removed) await this.ctx.nri?.removePodSandbox(removed);
    return {};
  }

  /** Undoes a RunPodSandbox whose process died midway (recovery at open). */
  async cleanupAbandoned(record: SandboxRecord): Promise<void> {
    await this.ctx.sandboxes.withLock(record.id, () => this.releaseAbandoned(record));
  }

  /**
   * Everything a RunPodSandbox may have acquired, found by the pod's ID (its record was written
   * before any of it): pause container, network, namespace pins (mounted or still bare files),
   * then the mounts inside the pod's dir before the dir itself goes with the record.
   */
  private async releaseAbandoned(record: SandboxRecord): Promise<void> {
    const netnsPath = join(this.ctx.paths.netnsDir, record.id);
    if (!record.noInfra) await Promise.resolve().then(() => this.oci(record).delete(record.id, true)).catch(() => undefined);
    await this.ctx.cni.del(record.id, netnsPath, cniArgs(record)).catch(() => undefined);
    await releasePins(allPinPaths(this.ctx.paths, record.id)).catch(() => undefined);
    await unmountPodShm(join(this.ctx.sandboxes.objectDir(record.id), 'shm'));
    await this.ctx.snapshots.remove(record.id).catch((error) => {
      if (!isKind(error, 'not-found')) throw error;
    });
    await removeUsernsShare(this.ctx.paths, record.id);
    await this.ctx.sandboxes.remove(record.id);
    await this.ctx.sandboxNames.release(record.name, record.id);
  }

  async status(req: cri.PodSandboxStatusRequestIn): Promise<cri.PodSandboxStatusResponse> {
    const id = await this.ctx.sandboxes.resolve(req.podSandboxId ?? '');
    // The shared frozen record (StateStore.mustGetShared): this answer only reads it.
    const record = this.ctx.sandboxes.mustGetShared(id ?? req.podSandboxId ?? '');
    const state = await this.liveState(record);
    const modes = { POD: 'POD', CONTAINER: 'CONTAINER', NODE: 'NODE', TARGET: 'TARGET' } as const;
    const info: Record<string, string> = {};
    // `config` as containerd shows it: linux.overhead/resources there are the last UpdatePodSandboxResources.
    if (req.verbose) {
      info.info = JSON.stringify({
        pid: record.pid,
        infra: !record.noInfra,
        netnsPath: record.netnsPath,
        ipcnsPath: record.ipcnsPath,
        utsnsPath: record.utsnsPath,
        usernsPath: record.usernsPath,
        cgroupsPath: record.cgroupsPath,
        name: record.name,
        config: record.config,
      });
    }
    return {
      status: {
        id: record.id,
        metadata: metadataOut(record.config.metadata),
        state,
        createdAt: record.createdAt,
        network: { ip: record.ips[0] ?? '', additionalIps: record.ips.slice(1).map((ip) => ({ ip })) },
        linux: {
          namespaces: {
            options: {
              network: modes[record.namespaces.network],
              pid: modes[record.namespaces.pid],
              ipc: modes[record.namespaces.ipc],
              targetId: '',
              usernsOptions: record.userns ? { mode: 'POD', uids: [record.userns.uid], gids: [record.userns.gid] } : null,
            },
          },
        },
        labels: record.config.labels ?? {},
        annotations: record.config.annotations ?? {},
        runtimeHandler: record.runtimeHandler,
      },
      info,
      containersStatuses: [],
      timestamp: nowNs(),
    };
  }

  /**
   * UpdatePodSandboxResources: plugins hear the request, the pod's own cgroup
   * takes resources + overhead, the record keeps both (its config's
   * linux.overhead and linux.resources, shown by verbose status), plugins
   * hear it is done. A value the cgroup refuses changes nothing.
   */
  async updateResources(req: cri.UpdatePodSandboxResourcesRequestIn): Promise<cri.UpdatePodSandboxResourcesResponse> {
    const id = await this.ctx.sandboxes.resolve(req.podSandboxId ?? '');
    const record = await this.ctx.sandboxes.mustGet(id ?? req.podSandboxId ?? '');
    checkResources(req.overhead, 'overhead', 'pod');
    checkResources(req.resources, 'resources', 'pod');
    const ready = async (r: SandboxRecord) => {
      if ((await this.liveState(r)) !== 'SANDBOX_READY') throw failedPrecondition(`pod sandbox ${r.id} is not ready`);
    };
    await ready(record);
    const shared = sharedCgroupProblem(record, await this.ctx.sandboxes.list(), this.engineParent());
    if (shared) throw failedPrecondition(shared);
    // Values this host's cgroups cannot take are refused before plugins hear of the update.
    const path = podCgroupPath(record.cgroupParent, this.ctx.cgroupManager);
    let apply: () => Promise<void>;
    try {
      apply = this.ctx.oci.planCgroupUpdate(path, podCgroupResources(req.overhead, req.resources));
    } catch (err) {
      throw invalidArgument((err as Error).message);
    }
    await this.ctx.nri?.updatePodSandbox(record.id, req.overhead, req.resources);
    await this.ctx.sandboxes.withLock(record.id, async () => {
      const current = await this.ctx.sandboxes.mustGet(record.id);
      await ready(current);
      await apply().catch((err: Error) => {
        throw err instanceof CgroupWriteError ? failedPrecondition(`pod sandbox ${current.id}: cgroup ${path} refused the update (${err.message})`) : err;
      });
      const linux = { ...current.config.linux };
      if (req.overhead) linux.overhead = storable(req.overhead);
      if (req.resources) linux.resources = storable(req.resources);
      await this.ctx.sandboxes.putLocked({ ...current, config: { ...current.config, linux } });
    });
    await this.ctx.nri?.postUpdatePodSandbox(record.id);
    return {};
  }

  /**
   * READY only while the record says so and the pause process lives (without one: the pins still
   * hold their namespaces). `listing`: for a list's answer, which may take a no-infra pod's pins as
   * a list saw them up to PINS_RECHECK_MS ago.
   */
  async liveState(record: SandboxRecord, listing = false): Promise<'SANDBOX_READY' | 'SANDBOX_NOTREADY'> {
    if (record.state !== 'SANDBOX_READY' || record.creating) return 'SANDBOX_NOTREADY';
    const alive = record.noInfra ? (listing ? pinsMountedAsListed(record) : pinsMounted(pinList(recordPins(record)))) : record.pid > 0 && (await pidAlive(record.pid));
    return alive ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY';
  }

  async list(req: cri.ListPodSandboxRequestIn): Promise<cri.ListPodSandboxResponse> {
    const f = req.filter ?? undefined;
    // Shared frozen records (StateStore.listShared): this answer only reads them.
    let records = this.ctx.sandboxes.listShared().filter((r) => !r.creating);
    if (f?.id) records = records.filter((r) => r.id.startsWith(f.id!));
    if (f?.labelSelector) records = records.filter((r) => matchLabels(r.config.labels, f.labelSelector!));
    const items = await Promise.all(records.map(async (r) => sandboxListItem(r, await this.liveState(r, true))));
    const wanted = f?.state ? (typeof f.state.state === 'number' ? ['SANDBOX_READY', 'SANDBOX_NOTREADY'][f.state.state] : (f.state.state ?? 'SANDBOX_READY')) : undefined;
    return { items: wanted ? items.filter((i) => i.state === wanted) : items };
  }
}

/**
 * How long a list trusts what it saw of a no-infra pod's pins. Only a StopPodSandbox unmounts them:
 * in another process it rewrites the record (a new shared record object, seen afresh), in this one
 * it also moves pinReleaseCount (every view is stale then, even when the record's write failed).
 * So the recheck only catches someone unmounting a pin by hand. A relist every second (kubelet's)
 * then costs one stat per pod (its record) instead of four: three stats a pod were a fifth of a
 * ListPodSandbox's CPU at 20 pods. PodSandboxStatus and every other caller look at the pins afresh.
 */
const PINS_RECHECK_MS = 2000;
const pinsSeen = new WeakMap<SandboxRecord, { at: number; releases: number; mounted: boolean }>();

function pinsMountedAsListed(record: SandboxRecord): boolean {
  const now = performance.now();
  const releases = pinReleaseCount();
  const seen = pinsSeen.get(record);
  if (seen && seen.releases === releases && now - seen.at < PINS_RECHECK_MS) return seen.mounted;
  const mounted = pinsMounted(pinList(recordPins(record)));
  if (Object.isFrozen(record)) pinsSeen.set(record, { at: now, releases, mounted });
  return mounted;
}

/**
 * A pod's ListPodSandbox item, built once per record object and state: the shared frozen records
 * (StateStore.listShared) stay the same objects until their file changes, so a relist gives the
 * same frozen items, whose encoded bytes the daemon keeps (response-encoder.ts).
 */
const listItems = new WeakMap<SandboxRecord, cri.PodSandbox>();

export function sandboxListItem(r: SandboxRecord, state: cri.PodSandbox['state']): cri.PodSandbox {
  const known = listItems.get(r);
  if (known?.state === state) return known;
  const item: cri.PodSandbox = {
    id: r.id,
    metadata: metadataOut(r.config.metadata),
    state,
    createdAt: r.createdAt,
    labels: r.config.labels ?? {},
    annotations: r.config.annotations ?? {},
    runtimeHandler: r.runtimeHandler,
  };
  if (Object.isFrozen(r)) listItems.set(r, deepFreeze(item));
  return item;
}

/** The namespace pins a record names. */
export function recordPins(record: SandboxRecord): PodPins {
  return { net: record.netnsPath, ipc: record.ipcnsPath, uts: record.utsnsPath, user: record.usernsPath };
}

export function metadataOut(m: cri.PodSandboxMetadataIn | null | undefined): cri.PodSandboxMetadata {
  return { name: m?.name ?? '', uid: m?.uid ?? '', namespace: m?.namespace ?? '', attempt: toInt(m?.attempt) };
}

export function matchLabels(labels: Record<string, string> | undefined, selector: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

export async function pidAlive(pid: number): Promise<boolean> {
  // The same check as a container's init (exit-wait.ts): one access(2) while it runs, the state letter otherwise.
  return processRuns(pid);
}
