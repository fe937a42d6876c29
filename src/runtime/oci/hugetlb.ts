// Which hugepage limits a container's cgroup can take. kubelet sends a limit
// (usually 0) for every page size it knows with every container; runc fails
// the start when the hugetlb controller is missing ("cannot set hugetlb
// limit: container could not join or create cgroup") or the kernel lacks the
// page size. As containerd (tolerate_missing_hugetlb_controller, on by
// default), limits the host cannot take are left out of the spec.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the probe reads; files as text, undefined when absent. */
export interface HugetlbHostFiles {
  /** /proc/cgroups: controllers with their v1 hierarchy (0: not on a v1 hierarchy). */
  procCgroups?: string;
  /** cgroup.controllers of the cgroup v2 root; undefined on cgroup v1. */
  v2RootControllers?: string;
  /** Entry names under /sys/kernel/mm/hugepages (`hugepages-2048kB`). */
  hugepageDirs: string[];
}

/** Whether a hugetlb controller can limit containers' cgroups. */
export function hasHugetlbController(files: HugetlbHostFiles): boolean {
  if (files.v2RootControllers !== undefined) return files.v2RootControllers.split(/\s+/).includes('hugetlb');
  for (const line of (files.procCgroups ?? '').split('\n')) {
    const [name, hierarchy, , enabled] = line.trim().split(/\s+/);
    if (name === 'hugetlb') return hierarchy !== '0' && enabled === '1';
  }
  return false;
}

const UNITS = ['KB', 'MB', 'GB', 'TB', 'PB'];

/** `hugepages-2048kB` → `2MB`, the page size name runc and kubelet use; undefined for other names. */
export function pageSizeName(dirName: string): string | undefined {
  const kb = /^hugepages-(\d+)kB$/.exec(dirName)?.[1];
  if (!kb) return undefined;
  let size = Number(kb);
  let unit = 0;
  while (size >= 1024 && size % 1024 === 0 && unit < UNITS.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size}${UNITS[unit]}`;
}

/** Page sizes a hugetlb limit can be set for, smallest first: the kernel's, none without a hugetlb controller. */
export function settableHugepageSizes(files: HugetlbHostFiles): string[] {
  if (!hasHugetlbController(files)) return [];
  const kb = (dir: string) => Number(/^hugepages-(\d+)kB$/.exec(dir)?.[1] ?? 0);
  return [...files.hugepageDirs].sort((a, b) => kb(a) - kb(b)).map(pageSizeName).filter((s): s is string => !!s);
}

export interface HugetlbHostPaths {
  cgroupRoot: string;
  procCgroups: string;
  hugepagesDir: string;
}

const HOST_PATHS: HugetlbHostPaths = { cgroupRoot: '/sys/fs/cgroup', procCgroups: '/proc/cgroups', hugepagesDir: '/sys/kernel/mm/hugepages' };

/** This host's answer to settableHugepageSizes (read once, at engine open). */
export function probeHugepageSizes(paths: HugetlbHostPaths = HOST_PATHS): string[] {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  };
  let hugepageDirs: string[] = [];
  try {
    hugepageDirs = readdirSync(paths.hugepagesDir);
  } catch {
    // No hugepage support in the kernel: no size can be limited.
  }
  return settableHugepageSizes({ procCgroups: read(paths.procCgroups), v2RootControllers: read(join(paths.cgroupRoot, 'cgroup.controllers')), hugepageDirs });
}

export interface HugepageLimit {
  pageSize: string;
  limit: number;
}

/** The limits for page sizes in `settable`, and those left out. */
export function splitHugepageLimits(limits: HugepageLimit[], settable: string[]): { kept: HugepageLimit[]; dropped: HugepageLimit[] } {
  const kept: HugepageLimit[] = [];
  const dropped: HugepageLimit[] = [];
  for (const l of limits) (settable.includes(l.pageSize) ? kept : dropped).push(l);
  return { kept, dropped };
}
