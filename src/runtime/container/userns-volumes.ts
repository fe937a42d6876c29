// Volumes (CRI bind mounts) of a container in a pod with a user namespace: each
// host path is attached, idmapped through the pod's user namespace, under the
// pod's share dir (volumes/<container>/<n>), and runc bind-mounts that instead.
// Inside, files show with the IDs they have on the host (root's as the pod's
// root), and what the container writes lands on the host with the IDs it has
// inside, as with containerd 2.x. A file system that cannot be idmapped is
// refused at CreateContainer. Released with the container (and, for what a
// crash left, with the pod's share dir); removal never recurses.
import { chownSync, closeSync, mkdirSync, openSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type * as cri from '../../api/cri.js';
import type { EnginePaths } from '../config/engine-config.js';
import { invalidArgument } from '../errors.js';
import { idmapMount } from '../native.js';
import { detachEntriesAndRemove } from '../snapshot/detach-mounts.js';

/** As the share dir's own (sandbox/userns-share.ts, which releases what a crash left through this module). */
const SHARE_DIR_MODE = 0o710;

export function volumesDir(paths: EnginePaths, podId: string, containerId?: string): string {
  const dir = join(paths.usernsShareDir, podId, 'volumes');
  return containerId ? join(dir, containerId) : dir;
}

/**
 * Attaches each mount's host path idmapped and returns the mounts with those sources. On failure
 * what was attached is released and the error is InvalidArgument naming the volume.
 */
export function idmapVolumes(paths: EnginePaths, pod: { id: string; usernsPath: string; gid: number }, containerId: string, mounts: cri.MountIn[]): cri.MountIn[] {
  if (!mounts.length) return mounts;
  const dir = volumesDir(paths, pod.id, containerId);
  for (const d of [volumesDir(paths, pod.id), dir]) {
    mkdirSync(d, { recursive: true, mode: SHARE_DIR_MODE });
    chownSync(d, 0, pod.gid);
  }
  const out: cri.MountIn[] = [];
  try {
    for (const [i, m] of mounts.entries()) {
      if (!m.hostPath) {
        out.push(m);
        continue;
      }
      const target = join(dir, String(i));
      let isDir: boolean;
      try {
        isDir = statSync(m.hostPath).isDirectory();
      } catch (error) {
        throw invalidArgument(`volume ${m.hostPath}: ${(error as Error).message}`);
      }
      if (isDir) mkdirSync(target, { mode: 0o700 });
      else closeSync(openSync(target, 'wx', 0o600));
      try {
        idmapMount(m.hostPath, target, pod.usernsPath, true);
      } catch (error) {
        throw invalidArgument(`volume ${m.hostPath} cannot be shown in the pod's user namespace (its file system, or one mounted below it, does not support idmapped mounts): ${(error as Error).message}`);
      }
      out.push({ ...m, hostPath: target });
    }
  } catch (error) {
    releaseVolumes(paths, pod.id, containerId);
    throw error;
  }
  return out;
}

/** Detaches and removes a container's idmapped volumes (none: nothing to do). */
export function releaseVolumes(paths: EnginePaths, podId: string, containerId: string): void {
  detachEntriesAndRemove(volumesDir(paths, podId, containerId));
}

/** Every container's volumes under the pod's share dir (what a crash left), then the dir. */
export function releaseAllVolumes(paths: EnginePaths, podId: string): void {
  let ids: string[];
  try {
    ids = readdirSync(volumesDir(paths, podId));
  } catch {
    return;
  }
  for (const id of ids) releaseVolumes(paths, podId, id);
  rmdirSync(volumesDir(paths, podId));
}
