// CRI LinuxContainerResources: checked (InvalidArgument on values no cgroup
// takes) and turned into the OCI update the runtime applies. Shared by
// UpdateContainerResources and UpdatePodSandboxResources.
import type * as cri from '../../api/cri.js';
import type { LinuxResourcesUpdate } from '../oci/cgroups.js';
import { invalidArgument } from '../errors.js';
import { toInt } from './cri-values.js';

const CPUSET = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

/** The first problem with `res` ("<field>.cpu_shares must be ..."), or undefined. */
export function criResourcesProblem(res: cri.LinuxContainerResourcesIn, field: string): string | undefined {
  const shares = toInt(res.cpuShares);
  const period = toInt(res.cpuPeriod);
  const quota = toInt(res.cpuQuota);
  const memory = toInt(res.memoryLimitInBytes);
  const swap = toInt(res.memorySwapLimitInBytes);
  if (shares !== 0 && (shares < 2 || shares > 262144)) return `${field}.cpu_shares must be 0 or between 2 and 262144, got ${shares}`;
  if (period !== 0 && (period < 1000 || period > 1_000_000)) return `${field}.cpu_period must be 0 or between 1000 and 1000000 (µs), got ${period}`;
  if (quota !== 0 && quota !== -1 && quota < 1000) return `${field}.cpu_quota must be 0, -1 or at least 1000 (µs), got ${quota}`;
  if (memory < 0) return `${field}.memory_limit_in_bytes must not be negative, got ${memory}`;
  if (swap < -1) return `${field}.memory_swap_limit_in_bytes must be -1, 0 or positive, got ${swap}`;
  if (swap > 0 && memory > 0 && swap < memory) return `${field}.memory_swap_limit_in_bytes (${swap}) must not be below memory_limit_in_bytes (${memory})`;
  if (res.cpusetCpus && !CPUSET.test(res.cpusetCpus)) return `${field}.cpuset_cpus ${JSON.stringify(res.cpusetCpus)} is not a CPU list such as "0-2,4"`;
  if (res.cpusetMems && !CPUSET.test(res.cpusetMems)) return `${field}.cpuset_mems ${JSON.stringify(res.cpusetMems)} is not a node list such as "0-1"`;
  return undefined;
}

export function checkCriResources(res: cri.LinuxContainerResourcesIn | null | undefined, field: string): void {
  const problem = res ? criResourcesProblem(res, field) : undefined;
  if (problem) throw invalidArgument(problem);
}

/** What UpdateContainerResources asks of the runtime: set fields only (0 and "" mean unchanged). */
export function resourcesUpdateFromCri(res: cri.LinuxContainerResourcesIn): LinuxResourcesUpdate {
  return {
    cpu: {
      shares: toInt(res.cpuShares) || undefined,
      quota: toInt(res.cpuQuota) || undefined,
      period: toInt(res.cpuPeriod) || undefined,
      cpus: res.cpusetCpus || undefined,
      mems: res.cpusetMems || undefined,
    },
    memory: { limit: toInt(res.memoryLimitInBytes) || undefined, swap: toInt(res.memorySwapLimitInBytes) || undefined },
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
