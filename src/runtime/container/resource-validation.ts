// The one check of CRI LinuxContainerResources, for every request that carries
// them (CreateContainer, UpdateContainerResources, RunPodSandbox,
// UpdatePodSandboxResources): values runc or the kernel would refuse at start,
// or that the engine could not pass on exactly, are InvalidArgument naming the
// field. int64 values are judged as exact integers (bigint), never as JS
// numbers: "9223372036854775807" must not pass as 9223372036854775808.
// Everything accepted lies within 2^53, so later toInt() conversions are exact.
import { readFileSync } from 'node:fs';
import type * as cri from '../../api/cri.js';
import { invalidArgument } from '../errors.js';

/** Kernel CFS bounds (kernel/sched/core.c): period 1 ms..1 s, quota at least 1 ms and at most 2^44-1 µs. */
const CPU_PERIOD = { min: 1000n, max: 1_000_000n };
const CPU_QUOTA = { min: 1000n, max: (1n << 44n) - 1n };
/** cgroup v1 cpu.shares as runc takes it (2..262144; 0 = unset). */
const CPU_SHARES = { min: 2n, max: 262_144n };
/**
 * runc sets the limit once its init has joined the cgroup, and the kernel refuses a limit below
 * what init already uses (about 2.2 MiB with runc 1.1.5). 6 MiB, docker's floor, leaves room for
 * other runc builds.
 */
export const MIN_MEMORY_LIMIT = 6n * 1024n * 1024n;
/** Limits above 2^53-1 (8 PiB) could not be carried exactly into the OCI spec. */
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
const OOM_SCORE_ADJ = { min: -1000n, max: 1000n };
const ID_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

export interface HostTopology {
  /** Online CPU ids. */
  cpus: ReadonlySet<number>;
  /** Online memory node ids. */
  mems: ReadonlySet<number>;
}

export type ResourcesRole =
  /** A container's own resources (create, update): runc's init must fit in them. */
  | 'container'
  /** A pod's resources or overhead: the kernel alone judges them against the pod cgroup's usage. */
  | 'pod';

type Int64Like = number | string | bigint | { toString(): string } | null | undefined;
type IntField = 'cpu_period' | 'cpu_quota' | 'cpu_shares' | 'memory_limit_in_bytes' | 'memory_swap_limit_in_bytes' | 'oom_score_adj';

/** The exact integer, or undefined when `v` is not one (1.5, "12abc", NaN). Unset is 0. */
export function exactInt(v: Int64Like): bigint | undefined {
  if (v === null || v === undefined || v === '') return 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : undefined;
  const text = v.toString().trim();
  return /^[+-]?\d+$/.test(text) ? BigInt(text) : undefined;
}

/** The first problem with `res` ("linux.resources.cpu_shares must be ..."), or undefined. */
export function resourcesProblem(res: cri.LinuxContainerResourcesIn, field: string, host: HostTopology, role: ResourcesRole = 'container'): string | undefined {
  const ints = {} as Record<IntField, bigint>;
  const given: Record<IntField, Int64Like> = {
    cpu_period: res.cpuPeriod,
    cpu_quota: res.cpuQuota,
    cpu_shares: res.cpuShares,
    memory_limit_in_bytes: res.memoryLimitInBytes,
    memory_swap_limit_in_bytes: res.memorySwapLimitInBytes,
    oom_score_adj: res.oomScoreAdj,
  };
  for (const [name, value] of Object.entries(given) as Array<[IntField, Int64Like]>) {
    const n = exactInt(value);
    if (n === undefined) return `${field}.${name} must be an integer, got ${JSON.stringify(String(value))}`;
    ints[name] = n;
  }
  const { cpu_period: period, cpu_quota: quota, cpu_shares: shares, memory_limit_in_bytes: memory, memory_swap_limit_in_bytes: swap, oom_score_adj: oom } = ints;
  const outside = (n: bigint, r: { min: bigint; max: bigint }) => n < r.min || n > r.max;
  if (period !== 0n && outside(period, CPU_PERIOD)) return `${field}.cpu_period must be 0 (unset) or between ${CPU_PERIOD.min} and ${CPU_PERIOD.max} (µs), got ${period}`;
  if (quota !== 0n && quota !== -1n && outside(quota, CPU_QUOTA)) return `${field}.cpu_quota must be 0 (unset), -1 (no limit) or between ${CPU_QUOTA.min} and ${CPU_QUOTA.max} (µs), got ${quota}`;
  if (shares !== 0n && outside(shares, CPU_SHARES)) return `${field}.cpu_shares must be 0 (unset) or between ${CPU_SHARES.min} and ${CPU_SHARES.max}, got ${shares}`;
  const minMemory = role === 'container' ? MIN_MEMORY_LIMIT : 1n;
  if (memory !== 0n && outside(memory, { min: minMemory, max: MAX_EXACT })) return `${field}.memory_limit_in_bytes must be 0 (unset) or between ${minMemory} and ${MAX_EXACT}, got ${memory}`;
  if (swap !== 0n && swap !== -1n && outside(swap, { min: 1n, max: MAX_EXACT })) return `${field}.memory_swap_limit_in_bytes must be 0 (unset), -1 (no limit) or between 1 and ${MAX_EXACT}, got ${swap}`;
  if (swap > 0n && memory > 0n && swap < memory) return `${field}.memory_swap_limit_in_bytes (${swap}) must not be below memory_limit_in_bytes (${memory})`;
  if (outside(oom, OOM_SCORE_ADJ)) return `${field}.oom_score_adj must be between ${OOM_SCORE_ADJ.min} and ${OOM_SCORE_ADJ.max}, got ${oom}`;
  const cpus = idListProblem(res.cpusetCpus ?? '', host.cpus, 'CPU');
  if (cpus) return `${field}.cpuset_cpus ${cpus}`;
  const mems = idListProblem(res.cpusetMems ?? '', host.mems, 'memory node');
  if (mems) return `${field}.cpuset_mems ${mems}`;
  for (const [i, h] of (res.hugepageLimits ?? []).entries()) {
    const limit = exactInt(h.limit);
    if (limit === undefined || limit < 0n || limit > MAX_EXACT) return `${field}.hugepage_limits[${i}].limit must be between 0 and ${MAX_EXACT}, got ${JSON.stringify(String(h.limit))}`;
  }
  return undefined;
}

/** Throws InvalidArgument for the first problem of `res` (absent resources have none). */
export function checkResources(res: cri.LinuxContainerResourcesIn | null | undefined, field: string, role: ResourcesRole = 'container', host?: HostTopology): void {
  // The host's CPUs and memory nodes matter only to a cpuset: two sysfs reads spared on every other call.
  const topology = host ?? (res?.cpusetCpus || res?.cpusetMems ? hostTopology() : NO_TOPOLOGY);
  const problem = res ? resourcesProblem(res, field, topology, role) : undefined;
  if (problem) throw invalidArgument(problem);
}

/** What resourcesProblem is given for resources without a cpuset (it then reads no topology). */
const NO_TOPOLOGY: HostTopology = { cpus: new Set(), mems: new Set() };

/** "0-2,4" must be a list of ids the host has online; "" is unset. */
function idListProblem(list: string, online: ReadonlySet<number>, what: string): string | undefined {
  if (!list) return undefined;
  if (!ID_LIST.test(list)) return `${JSON.stringify(list)} is not a ${what} list such as "0-2,4"`;
  for (const part of list.split(',')) {
    const [a, b = a] = part.split('-').map((s) => Number(s));
    if (a! > b!) return `${JSON.stringify(list)}: range ${part} runs backwards`;
    for (let id = a!; id <= b!; id++) {
      if (!online.has(id)) return `${JSON.stringify(list)} names ${what} ${id}, which this host does not have online (online: ${formatIds(online)})`;
    }
  }
  return undefined;
}

/** Parses a kernel id list ("0-3,8"); bounded to ids the kernel could have. */
export function parseIdList(text: string): Set<number> {
  const out = new Set<number>();
  for (const part of text.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) continue;
    const a = Number(m[1]);
    const b = Math.min(Number(m[2] ?? m[1]), a + 65_536);
    for (let id = a; id <= b; id++) out.add(id);
  }
  return out;
}

function formatIds(ids: ReadonlySet<number>): string {
  return [...ids].sort((x, y) => x - y).join(',') || 'none';
}

/** This host's online CPUs and memory nodes, read each time (CPUs come and go); without NUMA nodes, node 0. */
export function hostTopology(): HostTopology {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '0';
    }
  };
  return { cpus: parseIdList(read('/sys/devices/system/cpu/online')), mems: parseIdList(read('/sys/devices/system/node/online')) };
}
