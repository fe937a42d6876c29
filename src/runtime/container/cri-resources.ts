// CRI LinuxContainerResources (checked by resource-validation.ts) turned into
// the OCI update the runtime applies. Shared by UpdateContainerResources and
// UpdatePodSandboxResources.
import type * as cri from '../../api/cri.js';
import type { LinuxResourcesUpdate } from '../oci/cgroups.js';
import { toInt } from './cri-values.js';
import { memoryAndSwap } from './spec.js';

/**
 * What UpdateContainerResources asks of the runtime: set fields only (0 and "" mean unchanged). A
 * new memory limit without a swap limit takes swap = limit with it where swap is limited
 * (memoryAndSwap, as at create): v1 refuses a memory limit above the memsw one set at create.
 */
export function resourcesUpdateFromCri(res: cri.LinuxContainerResourcesIn, swapControl?: boolean): LinuxResourcesUpdate {
  const { limit, swap } = memoryAndSwap(res, swapControl);
  return {
    cpu: {
      shares: toInt(res.cpuShares) || undefined,
      quota: toInt(res.cpuQuota) || undefined,
      period: toInt(res.cpuPeriod) || undefined,
      cpus: res.cpusetCpus || undefined,
      mems: res.cpusetMems || undefined,
    },
    memory: { limit, swap },
    unified: res.unified && Object.keys(res.unified).length ? res.unified : undefined,
  };
}

const DEFAULT_CFS_PERIOD = 100_000;

/**
 * The pod cgroup's limits: the containers' sum (`resources`) plus the
 * sandbox's `overhead`, as kubelet sizes a pod cgroup. A limit is set only
 * when `resources` sets it (overhead alone does not make a pod limited);
 * an overhead quota is rescaled to the pod's period.
 */
export function podCgroupResources(overhead: cri.LinuxContainerResourcesIn | null | undefined, resources: cri.LinuxContainerResourcesIn | null | undefined): LinuxResourcesUpdate {
  const o = overhead ?? {};
  const r = resources ?? {};
  const plus = (base: number, extra: number) => (base > 0 ? base + Math.max(0, extra) : undefined);
  const quota = toInt(r.cpuQuota);
  const period = toInt(r.cpuPeriod) || (quota ? DEFAULT_CFS_PERIOD : 0);
  const overheadQuota = toInt(o.cpuQuota) > 0 ? Math.ceil((toInt(o.cpuQuota) * period) / (toInt(o.cpuPeriod) || DEFAULT_CFS_PERIOD)) : 0;
  const memory = plus(toInt(r.memoryLimitInBytes), toInt(o.memoryLimitInBytes));
  const swap = toInt(r.memorySwapLimitInBytes) === -1 ? -1 : plus(toInt(r.memorySwapLimitInBytes), toInt(o.memoryLimitInBytes));
  const unified = { ...(o.unified ?? {}), ...(r.unified ?? {}) };
  return {
    cpu: {
      shares: plus(toInt(r.cpuShares), toInt(o.cpuShares)),
      quota: quota === -1 ? -1 : plus(quota, overheadQuota),
      period: period || undefined,
      cpus: r.cpusetCpus || undefined,
      mems: r.cpusetMems || undefined,
    },
    memory: { limit: memory, swap },
    unified: Object.keys(unified).length ? unified : undefined,
  };
}
