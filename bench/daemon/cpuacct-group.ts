// A cgroup v1 cpuacct group of its own for a runtime daemon, made before its pods start: what the
// daemon then starts (conmon, runc, CNI plugins; containerd's shims) is counted with it, while the
// containers' own processes go to the cgroups their runtime makes for them. cpuacct.usage is the
// CPU time of everything that ran in the group (those that left or exited included).
import { existsSync } from 'node:fs';
import { readFile, rmdir, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const MOUNTS = ['/sys/fs/cgroup/cpuacct', '/sys/fs/cgroup/cpu,cpuacct'];

export interface CpuacctGroup {
  /** CPU time used in the group so far, ms. */
  usageMs(): Promise<number>;
  /** The processes in the group now (the daemon and the monitors or shims it left running). */
  pids(): Promise<number[]>;
  /** Moves whatever is still in the group back where the daemon came from and removes the group. */
  remove(): Promise<void>;
}

async function cpuacctPathOf(pid: number): Promise<string> {
  const line = (await readFile(`/proc/${pid}/cgroup`, 'utf8')).split('\n').find((l) => l.split(':')[1]?.split(',').includes('cpuacct'));
  if (!line) throw new Error(`process ${pid} is in no cgroup v1 cpuacct hierarchy`);
  return line.split(':').slice(2).join(':');
}

/** Moves `pid` (all its threads) into a new group `name` beside its own. */
export async function moveToCpuacctGroup(pid: number, name: string): Promise<CpuacctGroup> {
  const mount = MOUNTS.find((m) => existsSync(join(m, 'cpuacct.usage')));
  if (!mount) throw new Error('no cgroup v1 cpuacct hierarchy (looked at /sys/fs/cgroup/cpuacct and cpu,cpuacct)');
  const home = join(mount, await cpuacctPathOf(pid));
  const dir = join(home, name);
  await mkdir(dir);
  await writeFile(join(dir, 'cgroup.procs'), String(pid));
  return {
    usageMs: async () => Number(await readFile(join(dir, 'cpuacct.usage'), 'utf8')) / 1e6,
    pids: async () => (await readFile(join(dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean).map(Number),
    async remove() {
      // Bounded: a process can fork between the read and the moves.
      for (let i = 0; i < 20; i++) {
        const pids = (await readFile(join(dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean);
        if (pids.length === 0) break;
        for (const p of pids) await writeFile(join(home, 'cgroup.procs'), p).catch(() => undefined);
      }
      await rmdir(dir);
    },
  };
}
