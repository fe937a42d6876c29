// A pod's /dev/shm: one tmpfs per sandbox, bind-mounted into each of its
// containers, so processes that share the pod's IPC namespace also share
// POSIX shared memory (as containerd and CRI-O do). Pods on the host IPC
// namespace use the host's /dev/shm instead. Its mkdir and stats are made on the calling thread:
// with many pods starting, libuv's pool is queued with their fsyncs, and each round trip there
// waits behind them.
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { MNT, MS, mount, umount2 } from '../native.js';

export const HOST_SHM = '/dev/shm';

/**
 * Whether a tmpfs is mounted at `path`: a fresh tmpfs has a device of its own, unlike the sandbox
 * dir holding it. Two stats, where reading /proc/self/mountinfo (which grows with every pod's
 * mounts) cost each of N pods started at once O(N) parsing.
 */
export async function shmMounted(path: string): Promise<boolean> {
  const here = statOrUndefined(path);
  const parent = here && statOrUndefined(dirname(path));
  return here !== undefined && parent !== undefined && here.dev !== parent.dev;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** `owner`: the host IDs of the pod's root (a pod with a user namespace), who then owns the tmpfs's root. */
export async function mountPodShm(sandboxDir: string, owner?: { uid: number; gid: number }): Promise<string> {
  const path = join(sandboxDir, 'shm');
  mkdirSync(path, { recursive: true, mode: 0o755 });
  const ids = owner ? `,uid=${owner.uid},gid=${owner.gid}` : '';
  if (!(await shmMounted(path))) mount('shm', path, 'tmpfs', MS.NOSUID | MS.NODEV | MS.NOEXEC, `mode=1777,size=65536k${ids}`);
  return path;
}

/** Idempotent; the host's /dev/shm is never touched. */
export async function unmountPodShm(path: string | undefined): Promise<void> {
  if (!path || path === HOST_SHM) return;
  for (let i = 0; i < 4 && (await shmMounted(path)); i++) umount2(path, MNT.DETACH);
}
