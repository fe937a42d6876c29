// A pod's user namespace (CRI namespace_options.userns_options). Mode NODE
// (or none) keeps the node's; mode POD gives the pod one user namespace with
// one uid and one gid mapping, which pinns makes first so that the pod's
// network, IPC and UTS namespaces are owned by it. Other modes, more than one
// mapping, a mapping that leaves container ID 0 out, and host namespaces are
// refused before anything is made, as containerd 2.x and CRI-O refuse them.
import type * as cri from '../../api/cri.js';
import { enumName, NAMESPACE_MODES, toInt, type NsMode } from '../container/cri-values.js';
import { failedPrecondition, invalidArgument } from '../errors.js';
import type { SnapshotIdmap } from '../snapshot/overlay-snapshotter.js';
import type { EnginePaths } from '../config/engine-config.js';
import { usernsRootfsDir, usernsShareDir } from './userns-share.js';

export interface IdMap {
  containerId: number;
  hostId: number;
  length: number;
}

/** The pod's user namespace as its record keeps it: one mapping each, container ID 0 first. */
export interface PodUserns {
  uid: IdMap;
  gid: IdMap;
}

const MAX_ID = 2 ** 32 - 1;

function oneMapping(list: cri.IDMappingIn[] | undefined, what: 'uid' | 'gid'): IdMap {
  if (!list?.length) throw invalidArgument(`user namespace mode POD needs a ${what} mapping`);
  if (list.length > 1) throw invalidArgument(`user namespace: only one ${what} mapping is supported (got ${list.length})`);
  const m = list[0]!;
  const map = { containerId: toInt(m.containerId), hostId: toInt(m.hostId), length: toInt(m.length) };
  if (map.containerId !== 0) throw invalidArgument(`user namespace: the ${what} mapping must map container ID 0 (it starts at ${map.containerId})`);
  if (map.length < 1) throw invalidArgument(`user namespace: the ${what} mapping's length must be at least 1`);
  if (map.hostId < 0 || map.hostId + map.length - 1 > MAX_ID) throw invalidArgument(`user namespace: the ${what} mapping ${map.hostId}+${map.length} is out of range`);
  return map;
}

/**
 * The pod's user namespace, undefined for mode NODE (the node's). Throws InvalidArgument for what
 * cannot be made: modes CONTAINER and TARGET, mappings with NODE, not exactly one mapping of each
 * kind, container ID 0 unmapped, and a pod that shares the node's network, PID or IPC namespace
 * (kubelet refuses hostUsers: false with those).
 */
export function podUserns(config: cri.PodSandboxConfigIn, modes: { network: NsMode; pid: NsMode; ipc: NsMode }): PodUserns | undefined {
  const opts = config.linux?.securityContext?.namespaceOptions?.usernsOptions;
  if (!opts) return undefined;
  const mode = enumName(opts.mode as never, NAMESPACE_MODES);
  if (mode === 'NODE') {
    if (opts.uids?.length || opts.gids?.length) throw invalidArgument('user namespace mode NODE takes no uid or gid mappings');
    return undefined;
  }
  if (mode !== 'POD') throw invalidArgument(`user namespace mode ${mode} is not supported (only POD and NODE)`);
  const userns = { uid: oneMapping(opts.uids, 'uid'), gid: oneMapping(opts.gids, 'gid') };
  const shared = (['network', 'pid', 'ipc'] as const).filter((k) => modes[k] === 'NODE');
  if (shared.length) throw invalidArgument(`user namespace mode POD cannot be used with the node's ${shared.join(', ')} namespace`);
  return userns;
}

/** The host IDs of the pod's root (undefined without a user namespace: the node's root). */
export function podRootOwner(userns: PodUserns | undefined): { uid: number; gid: number } | undefined {
  return userns ? { uid: userns.uid.hostId, gid: userns.gid.hostId } : undefined;
}

/** How a rootfs of this pod is stacked: idmapped through its pinned user namespace. */
export function snapshotIdmap(paths: EnginePaths, pod: { id: string; userns?: PodUserns; usernsPath?: string }): SnapshotIdmap | undefined {
  if (!pod.userns) return undefined;
  if (!pod.usernsPath) throw failedPrecondition('the pod has a user namespace mapping but no pinned user namespace');
  return { usernsPath: pod.usernsPath, hostUid: pod.userns.uid.hostId, hostGid: pod.userns.gid.hostId, mountDir: usernsRootfsDir(paths, pod.id) };
}

/** Where a pod's hosts, hostname, resolv.conf and shm are: its own dir, or its userns share dir. */
export function podFilesDir(paths: EnginePaths, objectDir: string, pod: { id: string; userns?: PodUserns }): string {
  return pod.userns ? usernsShareDir(paths, pod.id) : objectDir;
}

/** As pinns takes it: C:H:L. */
export function mapArg(map: IdMap): string {
  return `${map.containerId}:${map.hostId}:${map.length}`;
}

/** As the OCI spec's linux.uidMappings / gidMappings. */
export function ociMappings(map: IdMap): Array<{ containerID: number; hostID: number; size: number }> {
  return [{ containerID: map.containerId, hostID: map.hostId, size: map.length }];
}
