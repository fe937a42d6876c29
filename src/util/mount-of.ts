// Which mount holds a path, and with which per-mount options, from /proc/self/mountinfo: Node has
// no statvfs, and ST_NOEXEC is what decides whether a file written there may run (a helper, or the
// native addon that dlopen maps executable). Only node:fs: the single executable reads it before
// its addon exists.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';

export interface MountEntry {
  mountPoint: string;
  /** Per-mount options (field 6): rw, nosuid, nodev, noexec, relatime, ... */
  options: string[];
  fsType: string;
}

function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
}

export function parseMountinfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const sep = fields.indexOf('-', 6);
    if (fields.length < 10 || sep < 0) continue;
    out.push({ mountPoint: unescape(fields[4]!), options: fields[5]!.split(','), fsType: fields[sep + 1] ?? '' });
  }
  return out;
}

/** The mount an absolute, symlink-free path lies on: the longest mount point above it, the latest of equals (it covers the others). */
export function mountContaining(path: string, mounts: MountEntry[]): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const m of mounts) {
    const inside = m.mountPoint === '/' || path === m.mountPoint || path.startsWith(`${m.mountPoint}/`);
    if (inside && (!best || m.mountPoint.length >= best.mountPoint.length)) best = m;
  }
  return best;
}

/** The real path of `path`, or of its nearest existing ancestor (a dir not made yet lands on that one's mount). */
export function nearestRealPath(path: string): string {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return realpathSync(p);
}

/** Whether files under `path` (made or not yet) could not be executed: its mount has noexec. */
export function onNoexecMount(path: string, mountinfo = readFileSync('/proc/self/mountinfo', 'utf8')): boolean {
  const mount = mountContaining(nearestRealPath(path), parseMountinfo(mountinfo));
  return mount?.options.includes('noexec') ?? false;
}
