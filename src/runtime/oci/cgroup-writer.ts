// Writes resource limits straight into a cgroup's files, for cgroups no
// container owns (a pod's cgroup parent: `runc update` only knows containers).
// Same input as the runc update call (LinuxResourcesUpdate) and runc's own
// v1/v2 file mapping, shares-to-weight conversion included. Every file is read
// before it is written; when a write fails, the ones already done are put
// back, so a refused update leaves the cgroup as it was.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CgroupReader, LinuxResourcesUpdate } from './cgroups.js';

interface FileWrite {
  file: string;
  value: string;
}

/** An ordered group: written first to last, or last to first when the first order fails. */
export type WriteGroup = FileWrite[];

export class CgroupWriteError extends Error {
  constructor(readonly file: string, cause: NodeJS.ErrnoException) {
    super(`writing ${file}: ${cause.code ?? cause.message}`, { cause });
    this.name = 'CgroupWriteError';
  }
}

/** The file writes that apply `res` to `cgroupPath`, grouped; no I/O. */
export function cgroupWrites(cgroups: CgroupReader, cgroupPath: string, res: LinuxResourcesUpdate): WriteGroup[] {
  return cgroups.version === 2 ? writesV2(cgroups, cgroupPath, res) : writesV1(cgroups, cgroupPath, res);
}

function writesV1(cgroups: CgroupReader, path: string, res: LinuxResourcesUpdate): WriteGroup[] {
  if (res.unified && Object.keys(res.unified).length) throw new Error('unified (cgroup v2) resources cannot be applied on a cgroup v1 host');
  const cpu = (f: string) => join(cgroups.dir('cpu', path), f);
  const cpuset = (f: string) => join(cgroups.dir('cpuset', path), f);
  const memory = (f: string) => join(cgroups.dir('memory', path), f);
  const groups: WriteGroup[] = [];
  const c = res.cpu ?? {};
  if (c.shares !== undefined) groups.push([{ file: cpu('cpu.shares'), value: String(c.shares) }]);
  // The kernel checks quota against period (and the children's): try both orders.
  const bandwidth: WriteGroup = [];
  if (c.period !== undefined) bandwidth.push({ file: cpu('cpu.cfs_period_us'), value: String(c.period) });
  if (c.quota !== undefined) bandwidth.push({ file: cpu('cpu.cfs_quota_us'), value: String(c.quota) });
  if (bandwidth.length) groups.push(bandwidth);
  if (c.cpus) groups.push([{ file: cpuset('cpuset.cpus'), value: c.cpus }]);
  if (c.mems) groups.push([{ file: cpuset('cpuset.mems'), value: c.mems }]);
  // memory.memsw.limit_in_bytes must stay >= memory.limit_in_bytes at every step.
  const m = res.memory ?? {};
  const mem: WriteGroup = [];
  if (m.limit !== undefined) mem.push({ file: memory('memory.limit_in_bytes'), value: String(m.limit) });
  if (m.swap !== undefined) mem.push({ file: memory('memory.memsw.limit_in_bytes'), value: String(m.swap) });
  if (mem.length) groups.push(mem);
  return groups;
}

function writesV2(cgroups: CgroupReader, path: string, res: LinuxResourcesUpdate): WriteGroup[] {
  const file = (f: string) => join(cgroups.dir('', path), f);
  const groups: WriteGroup[] = [];
  const c = res.cpu ?? {};
  if (c.shares !== undefined) groups.push([{ file: file('cpu.weight'), value: String(sharesToWeight(c.shares)) }]);
  // cpu.max is "QUOTA [PERIOD]": a period alone means no quota, as runc writes it.
  if (c.quota !== undefined || c.period !== undefined) {
    const quota = c.quota !== undefined && c.quota > 0 ? String(c.quota) : 'max';
    groups.push([{ file: file('cpu.max'), value: c.period !== undefined ? `${quota} ${c.period}` : quota }]);
  }
  if (c.cpus) groups.push([{ file: file('cpuset.cpus'), value: c.cpus }]);
  if (c.mems) groups.push([{ file: file('cpuset.mems'), value: c.mems }]);
  const m = res.memory ?? {};
  if (m.limit !== undefined) groups.push([{ file: file('memory.max'), value: m.limit > 0 ? String(m.limit) : 'max' }]);
  // OCI's swap is memory+swap (v1 memsw); v2 limits swap alone.
  if (m.swap !== undefined) {
    const swap = m.swap < 0 ? 'max' : m.limit !== undefined && m.limit > 0 ? String(Math.max(0, m.swap - m.limit)) : undefined;
    if (swap === undefined) throw new Error('a swap limit on cgroup v2 needs a memory limit with it');
    groups.push([{ file: file('memory.swap.max'), value: swap }]);
  }
  for (const [key, value] of Object.entries(res.unified ?? {})) {
    if (!/^[a-z]+\.[a-z0-9_.]+$/.test(key)) throw new Error(`unified key ${JSON.stringify(key)} is not a cgroup v2 file name`);
    groups.push([{ file: file(key), value }]);
  }
  return groups;
}

/** runc's conversion of cgroup v1 cpu.shares [2, 262144] to v2 cpu.weight [1, 10000]. */
export function sharesToWeight(shares: number): number {
  if (shares === 0) return 0;
  return 1 + Math.floor(((shares - 2) * 9999) / 262142);
}

/** Applies `res` to the cgroup at `cgroupPath`; on a refused write, restores what was written and throws CgroupWriteError. */
export async function writeCgroupResources(cgroups: CgroupReader, cgroupPath: string, res: LinuxResourcesUpdate): Promise<void> {
  await applyCgroupWrites(cgroupWrites(cgroups, cgroupPath, res));
}

/** Writes the groups in order; on a refused write, restores what was written and throws CgroupWriteError. */
export async function applyCgroupWrites(groups: WriteGroup[]): Promise<void> {
  const done: FileWrite[] = [];
  try {
    for (const group of groups) {
      const previous = await Promise.all(group.map(async (w) => ({ file: w.file, value: (await readFile(w.file, 'utf8').catch(() => '')).trim() })));
      // Before writing: a group may fail halfway, leaving its first file changed.
      done.push(...previous.filter((p) => p.value !== ''));
      try {
        await writeInOrder(group);
      } catch (first) {
        if (group.length < 2) throw first;
        await writeInOrder([...group].reverse());
      }
    }
  } catch (err) {
    await restore(done.reverse());
    throw err;
  }
}

/** Best effort, two passes: a limit pair may only go back in the other order. */
async function restore(writes: FileWrite[]): Promise<void> {
  let pending = writes;
  for (let pass = 0; pass < 2 && pending.length; pass++) {
    const failed: FileWrite[] = [];
    for (const w of pending) await writeFile(w.file, w.value).catch(() => failed.push(w));
    pending = failed;
  }
}

async function writeInOrder(group: FileWrite[]): Promise<void> {
  for (const w of group) {
    try {
      await writeFile(w.file, w.value);
    } catch (err) {
      throw new CgroupWriteError(w.file, err as NodeJS.ErrnoException);
    }
  }
}
