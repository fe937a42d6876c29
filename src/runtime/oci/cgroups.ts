// Reads container cgroup statistics on cgroup v1 (one hierarchy per
// controller) and v2 (unified). The root is a parameter so unit tests can run
// against fixture trees.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type CgroupVersion = 1 | 2;

export interface CgroupStats {
  /** Cumulative CPU time in nanoseconds. */
  cpuUsageNs: bigint;
  memoryUsageBytes: bigint;
  /** Usage minus inactive file pages, as kubelet computes it. */
  memoryWorkingSetBytes: bigint;
  memoryLimitBytes?: bigint;
  oomKills?: number;
}

/** OCI linux.resources subset that CRI's LinuxContainerResources maps to. */
export interface LinuxResourcesUpdate {
  cpu?: { shares?: number; quota?: number; period?: number; cpus?: string; mems?: string };
  memory?: { limit?: number; swap?: number };
  unified?: Record<string, string>;
}

export function detectCgroupVersion(root = '/sys/fs/cgroup'): CgroupVersion {
  return existsSync(join(root, 'cgroup.controllers')) ? 2 : 1;
}

export class CgroupReader {
  readonly version: CgroupVersion;
  constructor(readonly root = '/sys/fs/cgroup', version?: CgroupVersion) {
    this.version = version ?? detectCgroupVersion(root);
  }

  /** Directory of a controller's files for a cgroupsPath (e.g. "/isulats/abc"). */
  dir(controller: string, cgroupsPath: string): string {
    const rel = cgroupsPath.replace(/^\/+/, '');
    return this.version === 2 ? join(this.root, rel) : join(this.root, controller, rel);
  }

  async stats(cgroupsPath: string): Promise<CgroupStats | undefined> {
    try {
      return this.version === 2 ? await this.statsV2(cgroupsPath) : await this.statsV1(cgroupsPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private async statsV1(path: string): Promise<CgroupStats> {
    const cpu = await readBig(join(this.dir('cpuacct', path), 'cpuacct.usage'));
    const memDir = this.dir('memory', path);
    const usage = await readBig(join(memDir, 'memory.usage_in_bytes'));
    const stat = parseFlatKeyed(await readFile(join(memDir, 'memory.stat'), 'utf8'));
    const inactive = stat.get('total_inactive_file') ?? 0n;
    const limit = await readBig(join(memDir, 'memory.limit_in_bytes')).catch(() => undefined);
    const oom = await readFile(join(memDir, 'memory.oom_control'), 'utf8').then(parseFlatKeyed).catch(() => undefined);
    return {
      cpuUsageNs: cpu,
      memoryUsageBytes: usage,
      memoryWorkingSetBytes: usage > inactive ? usage - inactive : 0n,
      memoryLimitBytes: limit,
      oomKills: oom?.has('oom_kill') ? Number(oom.get('oom_kill')) : undefined,
    };
  }

  private async statsV2(path: string): Promise<CgroupStats> {
    const dir = this.dir('', path);
    const cpu = parseFlatKeyed(await readFile(join(dir, 'cpu.stat'), 'utf8'));
    const usage = await readBig(join(dir, 'memory.current'));
    const stat = parseFlatKeyed(await readFile(join(dir, 'memory.stat'), 'utf8'));
    const inactive = stat.get('inactive_file') ?? 0n;
    const maxText = await readFile(join(dir, 'memory.max'), 'utf8').catch(() => 'max');
    const events = await readFile(join(dir, 'memory.events'), 'utf8').then(parseFlatKeyed).catch(() => undefined);
    return {
      cpuUsageNs: (cpu.get('usage_usec') ?? 0n) * 1000n,
      memoryUsageBytes: usage,
      memoryWorkingSetBytes: usage > inactive ? usage - inactive : 0n,
      memoryLimitBytes: maxText.trim() === 'max' ? undefined : BigInt(maxText.trim()),
      oomKills: events?.has('oom_kill') ? Number(events.get('oom_kill')) : undefined,
    };
  }

  /** The files UpdateContainerResources changes, with the values as this cgroup version spells them. */
  resourceFiles(cgroupsPath: string, res: LinuxResourcesUpdate): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const cpu = res.cpu ?? {};
    const mem = res.memory ?? {};
    if (this.version === 1) {
      const c = this.dir('cpu', cgroupsPath);
      if (cpu.shares) out.push([join(c, 'cpu.shares'), String(cpu.shares)]);
      if (cpu.period) out.push([join(c, 'cpu.cfs_period_us'), String(cpu.period)]);
      if (cpu.quota) out.push([join(c, 'cpu.cfs_quota_us'), String(cpu.quota)]);
      if (cpu.cpus) out.push([join(this.dir('cpuset', cgroupsPath), 'cpuset.cpus'), cpu.cpus]);
      if (cpu.mems) out.push([join(this.dir('cpuset', cgroupsPath), 'cpuset.mems'), cpu.mems]);
      if (mem.limit) out.push([join(this.dir('memory', cgroupsPath), 'memory.limit_in_bytes'), String(mem.limit)]);
    } else {
      const d = this.dir('', cgroupsPath);
      if (cpu.shares) out.push([join(d, 'cpu.weight'), String(sharesToWeight(cpu.shares))]);
      if (cpu.quota || cpu.period) out.push([join(d, 'cpu.max'), `${cpu.quota && cpu.quota > 0 ? cpu.quota : 'max'} ${cpu.period || 100000}`]);
      if (cpu.cpus) out.push([join(d, 'cpuset.cpus'), cpu.cpus]);
      if (cpu.mems) out.push([join(d, 'cpuset.mems'), cpu.mems]);
      if (mem.limit) out.push([join(d, 'memory.max'), String(mem.limit)]);
      for (const [k, v] of Object.entries(res.unified ?? {})) out.push([join(d, k), v]);
    }
    return out;
  }
}

/** runc's conversion from cgroup v1 cpu.shares [2..262144] to v2 cpu.weight [1..10000]. */
export function sharesToWeight(shares: number): number {
  if (shares === 0) return 0;
  return Math.floor(1 + ((shares - 2) * 9999) / 262142);
}

export function parseFlatKeyed(text: string): Map<string, bigint> {
  const map = new Map<string, bigint>();
  for (const line of text.split('\n')) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value && /^\d+$/.test(value)) map.set(key, BigInt(value));
  }
  return map;
}

async function readBig(path: string): Promise<bigint> {
  return BigInt((await readFile(path, 'utf8')).trim());
}
