// Lazy unmounts of what the engine attached for user-namespaced pods (idmapped layer clones,
// idmapped volumes, leftover rootfs mounts), shared by the snapshotter and the pod's share dir.
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { MNT, umount2 } from '../native.js';

/** Detaches every mount stacked on `path` (a few at most); a path that is no mount point is left as it is. */
export function detachAll(path: string): void {
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

/** Detaches the mounts on each entry of `dir`, removes the entries (dirs, or files a file was bound on), then `dir`; no `dir`, nothing to do. */
export function detachEntriesAndRemove(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const at = join(dir, name);
    detachAll(at);
    try {
      rmdirSync(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') unlinkSync(at);
      else if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  rmdirSync(dir);
}
