// What the containers of a pod with a user namespace must reach by path.
// runc mounts a container's rootfs and bind mounts after joining the pod's
// user namespace, as the pod's root (a host ID with no rights over the
// engine's private 0700 dirs). So such a pod gets <state>/userns-share/<pod>
// (the parent 0711, the pod's dir 0710 owned by root and the pod's root
// group): its hosts, hostname and resolv.conf files, its /dev/shm and, under
// rootfs/, its containers' (and pause's) rootfs mounts. No other host user
// can list or enter it. Removal never recurses: mounts are detached, then
// each known entry goes by name.
import { chownSync, mkdirSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EnginePaths } from '../config/engine-config.js';
import { MNT, umount2 } from '../native.js';
import { unmountPodShm } from './pod-shm.js';

export const SHARE_DIR_MODE = 0o710;

export function usernsShareDir(paths: EnginePaths, podId: string): string {
  return join(paths.usernsShareDir, podId);
}

/** Where the pod's containers' rootfs mounts go (the snapshotter's mountDir for them). */
export function usernsRootfsDir(paths: EnginePaths, podId: string): string {
  return join(usernsShareDir(paths, podId), 'rootfs');
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

function detach(path: string): void {
  for (let i = 0; i < 4; i++) {
    try {
      umount2(path, MNT.DETACH);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EINVAL' || code === 'ENOENT') return;
      throw error;
    }
  }
}

/** Releases the pod's share dir: idempotent, after its containers' rootfs are unmounted (leftovers are detached). */
export async function removeUsernsShare(paths: EnginePaths, podId: string): Promise<void> {
  const dir = usernsShareDir(paths, podId);
  const rootfs = usernsRootfsDir(paths, podId);
  let names: string[] = [];
  try {
    names = readdirSync(rootfs);
  } catch {
    /* none */
  }
  for (const name of names) {
    detach(join(rootfs, name));
    rmdirSync(join(rootfs, name));
  }
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
