// Free space and inodes of the file systems images and runtime state live on:
// kubelet starts evicting pods at 15% (imagefs) / 10% (nodefs) free, and a
// runtime fails pulls and creates outright when either runs out.
import type { FsUsage } from '../host-probe.js';
import { fail, ok, warn, type CheckResult } from '../check-result.js';

export interface DiskFacts {
  /** `image` or `state`. */
  role: string;
  path: string;
  usage?: FsUsage;
  error?: string;
}

/** Below this share free: fail. Below WARN_SHARE: warn (kubelet's eviction starts near here). */
export const FAIL_SHARE = 0.05;
export const WARN_SHARE = 0.15;

const size = (n: number) => (n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : `${(n / 2 ** 20).toFixed(1)} MiB`);

export function evaluateDisk(d: DiskFacts): CheckResult {
  const id = `disk.${d.role}`;
  const title = `${d.role} file system`;
  if (!d.usage) return warn(id, title, `${d.path}: ${d.error ?? 'cannot stat'}`);
  const u = d.usage;
  const space = u.totalBytes > 0 ? u.freeBytes / u.totalBytes : 1;
  // Some file systems (btrfs, some tmpfs) report no inode limit: 0 total means "not a constraint".
  const inodes = u.totalInodes > 0 ? u.freeInodes / u.totalInodes : 1;
  const evidence = `${d.path}: ${size(u.freeBytes)} of ${size(u.totalBytes)} free (${(space * 100).toFixed(0)}%), `
    + `inodes ${u.totalInodes > 0 ? `${u.freeInodes} of ${u.totalInodes} free (${(inodes * 100).toFixed(0)}%)` : 'unlimited'}`;
  const worst = Math.min(space, inodes);
  const what = space <= inodes ? 'space' : 'inodes';
  if (worst < FAIL_SHARE) return fail(id, title, evidence, `free ${what} on ${d.path}: remove unused images (isulats rmi --prune) and exited containers, or grow the file system`);
  if (worst < WARN_SHARE) return warn(id, title, evidence, `kubelet evicts pods below 15% free ${what}; free some on ${d.path}`);
  return ok(id, title, evidence);
}
