// Namespaces pinned by bind mounts at files under the state dir: a pod's
// network namespace (netns/<id>), and its IPC and UTS namespaces (ipcns/<id>,
// utsns/<id>). Node cannot unshare, setns or bind-mount namespaces, so the
// pinns helper (assets/pinns/pinns.c) makes them: see sandbox/pod-namespaces.ts.
// Release is umount (native addon, MNT_DETACH) plus unlink, and is idempotent;
// a pin file a crash left without its mount is simply unlinked.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { rm } from 'node:fs/promises';
import { MNT, umount2 } from '../native.js';
import { mountedPaths } from '../snapshot/overlay-snapshotter.js';

/**
 * How mountinfo spells a pin: the kernel lists mount points by their real path, so a pin reached
 * through a link (a state dir under /var/run, a link to /run) is listed under /run. The pin file
 * itself is a mount point, never followed: only its directory is resolved.
 */
function mountSpelling(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}

/** Counts this process's unmounts of pins: a list's view of pins (sandbox-service.ts) is stale once it moves. */
let pinReleases = 0;
export const pinReleaseCount = (): number => pinReleases;

/** Unmounts and unlinks each pin; missing ones are fine. One mountinfo read per round, not per path. */
export async function releasePins(paths: string[]): Promise<void> {
  pinReleases++;
  // A path may be stacked with more than one mount after a crash mid-create; bounded.
  let left = paths.map(mountSpelling);
  for (let i = 0; i < 4 && left.length; i++) {
    const mounted = await mountedPaths();
    left = left.filter((p) => mounted.has(p));
    for (const path of left) {
      try {
        umount2(path, MNT.DETACH);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EINVAL' && code !== 'ENOENT') throw error;
      }
    }
  }
  await Promise.all(paths.map((p) => rm(p, { force: true })));
}

export function removeNetns(path: string): Promise<void> {
  return releasePins([path]);
}

/** The device of the kernel's nsfs: a pinned file stats on it, a bare file on the state dir's filesystem. */
let nsfsDev: number | undefined;
function nsfsDevice(): number {
  nsfsDev ??= statSync('/proc/self/ns/net').dev;
  return nsfsDev;
}

/**
 * Whether every path still holds a namespace (one stat each, no mountinfo read: cheap enough for
 * every ListPodSandbox). The stats are synchronous: a pin is a file on a local dir, and an async
 * stat waits for two thread-pool wake-ups, which made a ListPodSandbox of 10 pods (3 pins each)
 * cost more in round trips than in stats.
 */
export function pinsMounted(paths: string[]): boolean {
  const dev = nsfsDevice();
  for (const path of paths) {
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s || s.dev !== dev) return false;
  }
  return true;
}
