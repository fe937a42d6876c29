// Ends a process together with everything it started, as an ExecSync timeout must: killing
// only the exec'd process (`sh -c '...'`) would leave its children running in the container.
import { readdir, readFile } from 'node:fs/promises';

/** Parent PID of every process on the host, from /proc/<pid>/stat. */
async function parentsByPid(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    if (ppid > 0) parents.set(pid, ppid);
  }
  return parents;
}

/** `root` and all its descendants that exist now. */
export async function processTree(root: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of await parentsByPid()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    if (out.includes(pid)) continue;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false; // gone meanwhile
  }
}

const STOP_ROUNDS = 20;

/**
 * SIGKILLs `root` and its descendants. They are stopped first, round after round until no new
 * one appears, so that none forks between the listing and the kill: a child whose parent died
 * first would be reparented out of the tree and escape.
 */
export async function killProcessTree(root: number): Promise<void> {
  if (!signal(root, 'SIGSTOP')) return;
  const stopped = new Set([root]);
  for (let round = 0; round < STOP_ROUNDS; round++) {
    const fresh = (await processTree(root)).filter((pid) => !stopped.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) if (signal(pid, 'SIGSTOP')) stopped.add(pid);
  }
  for (const pid of stopped) signal(pid, 'SIGKILL');
}
