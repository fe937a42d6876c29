// A container's CRI status from its record alone (no I/O), so events can carry the status as it
// was when they happened: by the time a reader sees the event the container may be gone.
import type * as cri from '../../api/cri.js';
import { deepFreeze } from '../store/record-cache.js';
import type { ContainerRecord } from './container-record.js';
import { toInt } from './cri-values.js';

export function imageSpecOut(r: ContainerRecord): cri.ImageSpec {
  return { image: r.config.image?.image ?? r.imageName, annotations: r.config.image?.annotations ?? {}, userSpecifiedImage: r.config.image?.userSpecifiedImage ?? r.config.image?.image ?? '', runtimeHandler: '', imageRef: r.imageRef };
}

export function containerStatusOf(r: ContainerRecord): cri.ContainerStatus {
  const res = r.config.linux?.resources;
  return {
    id: r.id,
    metadata: { name: r.config.metadata?.name ?? '', attempt: toInt(r.config.metadata?.attempt) },
    state: r.state,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    exitCode: r.exitCode,
    image: imageSpecOut(r),
    imageRef: r.imageRef,
    reason: r.reason,
    message: r.message,
    labels: r.config.labels ?? {},
    annotations: r.config.annotations ?? {},
    mounts: (r.config.mounts ?? []).map((m) => ({
      containerPath: m.containerPath ?? '',
      hostPath: m.hostPath ?? '',
      readonly: !!m.readonly,
      selinuxRelabel: !!m.selinuxRelabel,
      propagation: (typeof m.propagation === 'number' ? (['PROPAGATION_PRIVATE', 'PROPAGATION_HOST_TO_CONTAINER', 'PROPAGATION_BIDIRECTIONAL'] as const)[m.propagation] : m.propagation) ?? 'PROPAGATION_PRIVATE',
      uidMappings: [],
      gidMappings: [],
      recursiveReadOnly: !!m.recursiveReadOnly,
      image: null,
      imageSubPath: '',
      mountOptions: [],
    })),
    logPath: r.logPath,
    resources: {
      linux: {
        cpuPeriod: String(toInt(res?.cpuPeriod)),
        cpuQuota: String(toInt(res?.cpuQuota)),
        cpuShares: String(toInt(res?.cpuShares)),
        memoryLimitInBytes: String(toInt(res?.memoryLimitInBytes)),
        oomScoreAdj: String(toInt(res?.oomScoreAdj)),
        cpusetCpus: res?.cpusetCpus ?? '',
        cpusetMems: res?.cpusetMems ?? '',
        hugepageLimits: [],
        unified: res?.unified ?? {},
        memorySwapLimitInBytes: String(toInt(res?.memorySwapLimitInBytes)),
      },
      windows: null,
    },
    imageId: r.imageId,
    user: { linux: { uid: String(r.user.uid), gid: String(r.user.gid), supplementalGroups: r.user.supplementalGroups.map(String) } },
    stopSignal: r.stopSignal ? (`SIGNAL_${r.stopSignal.startsWith('SIG') ? r.stopSignal : `SIG${r.stopSignal}`}` as cri.ContainerStatus['stopSignal']) : 'SIGNAL_RUNTIME_DEFAULT',
  };
}

/**
 * A container's ListContainers item. Built once per record object: the shared frozen records
 * (StateStore.listShared) stay the same objects until their file changes, so a relist gives the
 * same frozen items, whose encoded bytes the daemon keeps (response-encoder.ts).
 */
const listItems = new WeakMap<ContainerRecord, cri.Container>();

export function containerListItem(r: ContainerRecord): cri.Container {
  let item = listItems.get(r);
  if (!item) {
    item = {
      id: r.id,
      podSandboxId: r.sandboxId,
      metadata: { name: r.config.metadata?.name ?? '', attempt: toInt(r.config.metadata?.attempt) },
      image: imageSpecOut(r),
      imageRef: r.imageRef,
      state: r.state,
      createdAt: r.createdAt,
      labels: r.config.labels ?? {},
      annotations: r.config.annotations ?? {},
      imageId: r.imageId,
    };
    if (Object.isFrozen(r)) listItems.set(r, deepFreeze(item));
  }
  return item;
}
