// Which of some dirs a live process still names on its command line. An exec session's monitor
// (conmon with `-b <dir>`, ttyexec with `<dir>/pid`) keeps its session dir in its arguments for as
// long as it runs, and neither chdirs into it: arguments are what tells a dir in use. Zombies have
// an empty command line, so they count as gone.
import { readdirSync, readFileSync } from 'node:fs';

/** The subset of `dirs` that a running process names (the dir itself or a path under it) among its arguments. */
export function dirsInUse(dirs: readonly string[]): Set<string> {
  const used = new Set<string>();
  if (!dirs.length) return used;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    if (!cmdline) continue;
    for (const arg of cmdline.split('\0')) {
      for (const dir of dirs) if (arg === dir || arg.startsWith(`${dir}/`)) used.add(dir);
    }
    if (used.size === dirs.length) break;
  }
  return used;
}
