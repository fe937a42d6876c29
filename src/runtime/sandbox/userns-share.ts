// What the containers of a pod with a user namespace must reach by path.
// runc mounts a container's rootfs and bind mounts after joining the pod's
// user namespace, as the pod's root (a host ID with no rights over the
// engine's private 0700 dirs). So such a pod gets <state>/userns-share/<pod>
// (the parent 0711, the pod's dir 0710 owned by root and the pod's root
// group): its hosts, hostname and resolv.conf files, its /dev/shm and, under
// rootfs/, its containers' (and pause's) rootfs mounts. No other host user
// can list or enter it. Removal never recurses: mounts are detached, then
// each known entry goes by name.
import { chownSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { failedPrecondition } from '../errors.js';
import type { EnginePaths } from '../config/engine-config.js';
import { detachEntriesAndRemove } from '../snapshot/detach-mounts.js';
import { unmountPodShm } from './pod-shm.js';
import { releaseAllVolumes } from '../container/userns-volumes.js';

export const SHARE_DIR_MODE = 0o710;

export function usernsShareDir(paths: EnginePaths, podId: string): string {
  return join(paths.usernsShareDir, podId);
}

/** Where the pod's containers' rootfs mounts go (the snapshotter's mountDir for them). */
export function usernsRootfsDir(paths: EnginePaths, podId: string): string {
  return join(usernsShareDir(paths, podId), 'rootfs');
}

/**
 * Throws FailedPrecondition when a directory above the share dir keeps others out (a state dir
 * under a 0700 dir): runc, as the pod's root, could not reach the pod's rootfs.
 */
export function checkShareReachable(paths: EnginePaths): void {
  for (let dir = dirname(paths.usernsShareDir); ; dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if (!(mode & 0o001)) throw failedPrecondition(`user namespaces: ${dir} (mode ${(mode & 0o777).toString(8)}) keeps the pod's root from the pod's rootfs under ${paths.usernsShareDir}: every directory above it needs o+x`);
    if (dir === dirname(dir)) return;
  }
}

/** Makes the pod's dir and its rootfs dir, reachable by the pod's root group only. */
export function makeUsernsShare(paths: EnginePaths, podId: string, gid: number): string {
  mkdirSync(paths.usernsShareDir, { recursive: true, mode: 0o711 });
  const dir = usernsShareDir(paths, podId);
  for (const d of [dir, usernsRootfsDir(paths, podId)]) {
    mkdirSync(d, { recursive: true, mode: SHARE_DIR_MODE });
    chownSync(d, 0, gid);
  }
  return dir;
}

/** Releases the pod's share dir: idempotent, after its containers' rootfs are unmounted (leftovers are detached). */
export async function removeUsernsShare(paths: EnginePaths, podId: string): Promise<void> {
  const dir = usernsShareDir(paths, podId);
  const rootfs = usernsRootfsDir(paths, podId);
  detachEntriesAndRemove(rootfs);
  releaseAllVolumes(paths, podId);
  await unmountPodShm(join(dir, 'shm'));
  for (const file of ['hosts', 'hostname', 'resolv.conf']) rmSync(join(dir, file), { force: true });
  for (const d of [rootfs, join(dir, 'shm'), dir]) {
    try {
      rmdirSync(d);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Pod IDs with a share dir (for recovery of pods whose record is gone). */
export function usernsSharePods(paths: EnginePaths): string[] {
  try {
    return readdirSync(paths.usernsShareDir);
  } catch {
    return [];
  }
}
