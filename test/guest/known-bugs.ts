// The bugs issue 28 found in the guest that are not fixed on this branch yet. A guest case that
// names one of them runs as `it.fails`: it passes while the bug is there and turns red the day the
// bug is fixed, which is the signal to take the bug's id out of OPEN_BUGS. Until then the case still
// runs, so its log (ISULATS_GUEST_LOG) shows what the guest does.
//
// ISULATS_GUEST_ASSUME_FIXED=all (or a comma list of ids) runs the named cases as plain `it`
// without editing this file: the check a branch that fixes them makes.
import { it } from 'vitest';

export const GUEST_BUGS = {
  /** The single executable unpacks its addon to /run/isulats/sea, and /run is noexec. */
  'sea-noexec-unpack': 'single executable unpacks under noexec /run',
  /** runc refuses a rootfs reached through the /var/run -> /run link (default state dir). */
  'state-symlink': 'default state /var/run/isulats is a symlinked path',
  /** cgroup_parent `/kubepods.slice/.../pod<uid>.slice` handed to runc as a slice name; `/isulats` default parent. */
  'systemd-slice-path': 'systemd cgroup parent taken as a path, no default slice',
  /** ContainerStats reads `slice:isulats:<id>` as a path: cpu 0, working set 0. */
  'systemd-stats': 'stats under the systemd manager read the wrong cgroup',
} as const;

export type BugId = keyof typeof GUEST_BUGS;

/** Open now: none. All four were fixed together (unpack dir off noexec, real state paths, slice base
 * names with a default slice, stats from the expanded scope); the guest runs every case as `it`. */
export const OPEN_BUGS: readonly BugId[] = [];

function assumedFixed(id: BugId): boolean {
  const list = (process.env.ISULATS_GUEST_ASSUME_FIXED ?? '').split(',').map((s) => s.trim());
  return list.includes('all') || list.includes(id);
}

/** The open bugs among `bugs`. */
export function openAmong(bugs: readonly BugId[]): BugId[] {
  return bugs.filter((id) => OPEN_BUGS.includes(id) && !assumedFixed(id));
}

/** `it`, or `it.fails` while one of `bugs` is open (the name then says which). */
export function guestIt(name: string, bugs: readonly BugId[], fn: () => Promise<void>, timeoutMs: number): void {
  const open = openAmong(bugs);
  if (open.length === 0) it(name, fn, timeoutMs);
  else it.fails(`${name} [known bug: ${open.join(', ')}]`, fn, timeoutMs);
}
