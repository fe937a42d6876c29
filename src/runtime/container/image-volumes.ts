// Image volumes (KEP-4639): a CRI mount whose `image` is set mounts that
// image's root file system, or a directory `image_sub_path` of it, read-only.
// As containerd 2.1: the image must already be pulled (kubelet pulls it
// first), host_path must be empty and readonly true; the rootfs is a snapshot
// of the image's layers (its own rw layer stays unused) that the container
// bind-mounts read-only. Each volume is a snapshot keyed by the container and
// the mount's index, so removal, undo and recovery find it from the record.
import { statSync } from 'node:fs';
import { resolveInRootfs } from '../oci/rootfs-path.js';
import { normalize } from 'node:path';
import type * as cri from '../../api/cri.js';
import { invalidArgument, isKind, IsulatsError, notFound } from '../errors.js';
import type { EngineContext } from '../engine-context.js';

export const imageVolumeKey = (containerId: string, index: number) => `${containerId}-iv${index}`;

/** The snapshot keys of a config's image volumes (by mount index). */
export function imageVolumeKeys(containerId: string, mounts: cri.MountIn[] | null | undefined): string[] {
  return (mounts ?? []).flatMap((m, i) => (m?.image?.image ? [imageVolumeKey(containerId, i)] : []));
}

/** Refuses what containerd refuses before anything is made. */
export function checkImageVolumes(mounts: cri.MountIn[] | null | undefined): void {
  for (const [i, m] of (mounts ?? []).entries()) {
    if (!m?.image?.image) continue;
    const where = `mounts[${i}] (image ${m.image.image})`;
    if (m.hostPath) throw invalidArgument(`${where}: host_path must be empty for an image volume`);
    if (!m.readonly) throw invalidArgument(`${where}: readonly must be true for an image volume`);
    if (!m.containerPath) throw invalidArgument(`${where}: container_path is required`);
  }
}

/** A directory of `root` named by `sub`, without leaving root (symlinks included). */
export function resolveSubPath(root: string, sub: string, image: string): string {
  const rel = normalize(sub).replace(/^\/+/, '');
  if (rel === '' || rel === '.') return root;
  if (rel === '..' || rel.startsWith('../')) throw invalidArgument(`image_sub_path "${sub}" leaves image ${image}`);
  // Links inside the image resolve inside it (an absolute target restarts at the image's root),
  // as containerd resolves the sub-path in the image.
  let real: string;
  let isDir: boolean;
  try {
    real = resolveInRootfs(root, rel);
    isDir = statSync(real).isDirectory();
  } catch (error) {
    if (error instanceof IsulatsError) throw error;
    throw notFound(`image_sub_path "${sub}" not found in image ${image}`);
  }
  if (!isDir) throw invalidArgument(`image_sub_path "${sub}" of image ${image} is not a directory (only directories can be mounted)`);
  return real;
}

/**
 * Mounts each image volume of `mounts` and returns the mounts as bind mounts of them, with the
 * image IDs used. `onMounted` is told each key as it is made, for the caller's undo.
 */
export async function prepareImageVolumes(
  ctx: Pick<EngineContext, 'images' | 'snapshots'>,
  containerId: string,
  mounts: cri.MountIn[],
  onMounted: (key: string) => void,
): Promise<{ mounts: cri.MountIn[]; imageIds: string[] }> {
  const imageIds: string[] = [];
  const out: cri.MountIn[] = [];
  for (const [i, m] of mounts.entries()) {
    const ref = m?.image?.image;
    if (!ref) {
      out.push(m);
      continue;
    }
    const image = await ctx.images.resolveImage(ref).catch((error: unknown) => {
      // containerd's words: the image must be there already (kubelet pulls it before CreateContainer).
      if (isKind(error, 'not-found')) throw notFound(`image volume: failed to resolve image "${ref}": not found`);
      throw error;
    });
    const key = imageVolumeKey(containerId, i);
    onMounted(key);
    const snap = await ctx.snapshots.prepare(key, image, { durable: false });
    const hostPath = resolveSubPath(snap.mountpoint, m.imageSubPath ?? '', ref);
    if (!imageIds.includes(image.id)) imageIds.push(image.id);
    out.push({ ...m, hostPath, readonly: true, image: null, imageSubPath: '' });
  }
  return { mounts: out, imageIds };
}
