// Whether containers' swap can be limited here: v1's memory.memsw files (swap accounting on), or
// v2's memory.swap.max, which the root cgroup lacks, so it is looked for in this process's own
// cgroup (as containerd's SwapControllerAvailable does). With it, a container with a memory limit
// and no swap limit gets swap = limit, i.e. no swap, as in containerd; without it no swap value is
// given to runc, which would fail writing a file that is not there.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function swapControllerAvailable(root = '/sys/fs/cgroup', procSelfCgroup = (): string => readFileSync('/proc/self/cgroup', 'utf8')): boolean {
  if (!existsSync(join(root, 'cgroup.controllers'))) return existsSync(join(root, 'memory', 'memory.memsw.limit_in_bytes'));
  let own: string | undefined;
  try {
    own = procSelfCgroup().split('\n').find((l) => l.startsWith('0::'))?.slice(3);
  } catch {
    return false;
  }
  return own !== undefined && existsSync(join(root, own, 'memory.swap.max'));
}
