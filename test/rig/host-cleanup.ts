import { createHash } from 'node:crypto';
import { readdir, readFile, readlink, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive, run, signalPid } from './proc.js';

export interface ProcessInfo {
  pid: number;
  argv: string[];
  root: string;
  cwd: string;
  /** cgroup paths, one per hierarchy (from /proc/PID/cgroup). */
  cgroups: string[];
}

/** Every live process on the host with its argv, root and cwd (unreadable ones are skipped). */
export async function listProcesses(): Promise<ProcessInfo[]> {
  const out: ProcessInfo[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === 1 || pid === process.pid) continue;
    try {
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
      const root = await readlink(`/proc/${pid}/root`).catch(() => '');
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
      const cgroupFile = await readFile(`/proc/${pid}/cgroup`, 'utf8').catch(() => '');
      const cgroups = cgroupFile.split('\n').map((l) => l.split(':').slice(2).join(':')).filter(Boolean);
      out.push({ pid, argv, root, cwd, cgroups });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Those of `ps` still alive, each as "PID argv…" (for a leftover report). */
export async function stillAlive(ps: ProcessInfo[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of ps) if (await pidAlive(p.pid)) out.push(`${p.pid} ${p.argv.join(' ')}`);
  return out;
}

/** PIDs (not ours) whose command line names `dir`: a session's conmon or runc, relays left behind. */
export async function processesMentioning(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(dir)) found.push(pid);
  }
  return found;
}

/** True when one of the process's cgroups is named after one of `ids` (how runc names them). */
export function inCgroupOf(p: ProcessInfo, ids: ReadonlySet<string>): boolean {
  return p.cgroups.some((path) => ids.has(path.slice(path.lastIndexOf('/') + 1)));
}

/** cgroup dirs named after one of `ids` in every hierarchy under /sys/fs/cgroup (a few levels deep). */
export async function findCgroupDirs(ids: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  if (ids.size === 0) return found;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 4) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (ids.has(entry.name)) found.push(path);
      else await walk(path, depth + 1);
    }
  };
  await walk('/sys/fs/cgroup', 0);
  return found;
}

/** Removes the cgroup dirs named after `ids`; their processes must be gone (EBUSY is retried briefly). */
export async function removeCgroupsNamed(ids: ReadonlySet<string>): Promise<void> {
  for (const path of await findCgroupDirs(ids)) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const removed = await rmdir(path).then(() => true, (error: NodeJS.ErrnoException) => error.code === 'ENOENT');
      if (removed) break;
      await sleep(50);
    }
  }
}

/** True when `path` is `dir` or lies inside it. */
export function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/** SIGKILLs the given PIDs and waits (bounded) until they are gone. Returns the ones still alive. */
export async function killPids(pids: number[], waitMs = 5_000): Promise<number[]> {
  for (const pid of pids) signalPid(pid, 'SIGKILL');
  const deadline = Date.now() + waitMs;
  let alive = pids;
  while (alive.length > 0 && Date.now() < deadline) {
    const still: number[] = [];
    for (const pid of alive) if (await pidAlive(pid)) still.push(pid);
    alive = still;
    if (alive.length > 0) await sleep(50);
  }
  return alive;
}

/** Mount points at or under `dir`, deepest first (mountinfo escapes spaces etc. as octal). */
export async function mountsUnder(dir: string): Promise<string[]> {
  const info = await readFile('/proc/self/mountinfo', 'utf8');
  const points = info
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((p): p is string => Boolean(p))
    .map((p) => p.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8))))
    .filter((p) => isUnder(p, dir));
  return [...new Set(points)].sort((a, b) => b.length - a.length);
}

/** Lazily unmounts everything at or under `dir` (a few rounds for stacked mounts). */
export async function unmountUnder(dir: string): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const points = await mountsUnder(dir);
    if (points.length === 0) return;
    for (const point of points) await run('umount', ['-l', point], { check: false, timeoutMs: 10_000 });
  }
}

/** Deletes a network device if it exists. */
export async function deleteLink(name: string): Promise<void> {
  const shown = await run('ip', ['link', 'show', 'dev', name], { check: false });
  if (shown.code === 0) await run('ip', ['link', 'del', 'dev', name], { check: false });
}

/** True if a network device exists. */
export async function linkExists(name: string): Promise<boolean> {
  return (await run('ip', ['link', 'show', 'dev', name], { check: false })).code === 0;
}

/**
 * The socket a containerd 1.6 runc-v2 shim serves on: /run/containerd/s/sha256(address/ns/id).
 * A shim killed by SIGKILL leaves it behind, so we remove it ourselves.
 */
export function shimSocketPath(argv: string[]): string | undefined {
  const flag = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const address = flag('-address');
  const ns = flag('-namespace');
  const id = flag('-id');
  if (!address || !ns || !id) return undefined;
  const digest = createHash('sha256').update(join(address, ns, id)).digest('hex');
  return `/run/containerd/s/${digest}`;
}

/** Removes files in `dir` whose names start with `prefix` (e.g. libcni result caches of our network). */
export async function removeByPrefix(dir: string, prefix: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const entry of entries) {
    if (entry.startsWith(prefix)) await rm(join(dir, entry), { recursive: true, force: true });
  }
}
