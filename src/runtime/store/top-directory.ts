// Where ext4 puts the per-object trees the engine makes (a layer unpack, a pod's or container's
// dir, a rw layer, runc's state). A new directory, and the files made in it, go to its parent's
// block group; without a journal ext4's inode allocator skips, one by one, every inode of a group
// freed in the last minutes, so next to recent deletions (removed pods and images, whatever else
// shares the group) each new inode can cost up to a millisecond. A parent flagged as the top of
// directory hierarchies (chattr +T) has each new subdirectory placed in a group Orlov picks, apart
// from the churn. Files made directly in the flagged dir are unaffected: flag only parents of trees.
import { markTopDirectory } from '../native.js';

const marked = new Set<string>();

/**
 * Flags `dir` as the top of directory hierarchies, once per process (the engine never removes these
 * dirs while open); best effort.
 */
export function placeChildTreesApart(dir: string): void {
  if (marked.has(dir)) return;
  marked.add(dir);
  try {
    markTopDirectory(dir);
  } catch {
    // placement only: everything works the same without it (other file systems have no such flag)
  }
}
