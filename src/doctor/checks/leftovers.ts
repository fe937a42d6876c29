// Leftovers of isulats' engine (embedded, or the daemon's on this host): what an interrupted operation or a crash
// can leave behind and nothing will clean up: mounts under the root or state
// dir, network namespace files of pods that no longer exist, and conmon
// monitors of containers the engine has no record of.
import { ok, warn, type CheckResult } from '../check-result.js';

export interface LeftoverFacts {
  root: string;
  state: string;
  /** Mount points (from /proc/self/mountinfo) under root or state. */
  mounts: string[];
  /** Files in the netns dir. */
  netnsFiles: string[];
  /** conmon processes of this engine: PID and container id (-c). */
  conmons: Array<{ pid: number; id: string }>;
  podIds: Set<string>;
  containerIds: Set<string>;
}

export function evaluateLeftovers(f: LeftoverFacts): CheckResult[] {
  const ids = [...f.podIds, ...f.containerIds];
  const known = (path: string) => ids.some((id) => path.includes(id));
  // A running pod's netns and its containers' rootfs mounts are expected; the netns dir may itself be a mount.
  const strayMounts = f.mounts.filter((m) => !known(m) && !m.endsWith('/netns'));
  const strayNetns = f.netnsFiles.filter((n) => !f.podIds.has(n));
  const strayConmons = f.conmons.filter((c) => !f.podIds.has(c.id) && !f.containerIds.has(c.id));
  const line = (what: string, items: string[], fix: string, id: string): CheckResult => items.length === 0
    ? ok(id, what, 'none')
    : warn(id, what, `${items.length}: ${items.slice(0, 3).join(', ')}${items.length > 3 ? ', ...' : ''}`, fix);
  return [
    line('stray mounts', strayMounts, `umount them (umount -l PATH); they are under ${f.root} or ${f.state} and belong to no pod or container`, 'leftovers.mounts'),
    line('stray netns files', strayNetns, `umount and remove them: umount ${f.state}/netns/ID; rm ${f.state}/netns/ID`, 'leftovers.netns'),
    line('conmon without a record', strayConmons.map((c) => `pid ${c.pid} (${c.id.slice(0, 13)})`), 'kill those PIDs; their containers were removed from the engine', 'leftovers.conmon'),
  ];
}

/** Mount points from /proc/self/mountinfo under any of `dirs` (octal escapes decoded). */
export function mountsUnder(mountinfo: string, dirs: string[]): string[] {
  const out: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const field = line.split(' ')[4];
    if (!field) continue;
    const point = field.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    if (dirs.some((d) => point.startsWith(`${d.replace(/\/$/, '')}/`))) out.push(point);
  }
  return out;
}

/** conmon processes whose command line points at this engine's state dir; their container id. */
export function engineConmons(processes: Array<{ pid: number; argv: string[] }>, state: string): Array<{ pid: number; id: string }> {
  const out: Array<{ pid: number; id: string }> = [];
  for (const p of processes) {
    if (!/(^|\/)conmon$/.test(p.argv[0] ?? '')) continue;
    if (!p.argv.some((a) => a.startsWith(`${state.replace(/\/$/, '')}/`))) continue;
    const i = p.argv.indexOf('-c');
    if (i >= 0 && p.argv[i + 1]) out.push({ pid: p.pid, id: p.argv[i + 1]! });
  }
  return out;
}
