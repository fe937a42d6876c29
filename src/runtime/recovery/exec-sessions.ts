// Exec session dirs (<state>/exec, exec/session-dir.ts) and their links in the socket dir are
// removed by the process running the session when it ends; one SIGKILLed midway leaves them.
// At open, a dir goes, with the links to it, once nobody can still use it:
// - its owner (named in the dir's name) is dead, or, for a dir named before owners were
//   (`x` and six characters), it has not changed for a minute (an older engine still running
//   on this root makes a dir a moment before its monitor starts);
// - and no live process names it among its arguments (dirs-in-use.ts): a detached conmon of a
//   dead owner still writes its exit file there when the process ends.
// A live owner's dirs are kept: an embedded CLI may open an engine on the state dir of a daemon
// serving sessions.
import { lstatSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sessionOwner } from '../exec/session-dir.js';
import { EXEC_SCRATCH_FALLBACK, EXEC_SCRATCH_PREFIX } from '../exec/exec-scratch.js';
import { creatorAlive } from './creator.js';
import { dirsInUse } from './dirs-in-use.js';

/** What session dir names looked like before they named their owner (mkdtemp of `x`). */
const UNNAMED_SESSION = /^x[A-Za-z0-9]{6}$/;

/** How long an unnamed session dir must have been unchanged before it may go. */
export const UNNAMED_SESSION_GRACE_MS = 60_000;

/** Removes the session dirs nobody can still use and the socket-dir links to them; returns the dirs removed. */
export async function removeDeadExecSessions(sessionsDir: string, socketDir: string): Promise<string[]> {
  const now = Date.now();
  const candidates: string[] = [];
  for (const name of readdirOrNone(sessionsDir)) {
    const dir = join(sessionsDir, name);
    const owner = sessionOwner(name);
    if (owner ? !(await creatorAlive(owner)) : UNNAMED_SESSION.test(name) && unchangedFor(dir, now) >= UNNAMED_SESSION_GRACE_MS) candidates.push(dir);
  }
  if (!candidates.length) return [];
  const used = dirsInUse(candidates);
  const dead = candidates.filter((dir) => !used.has(dir));
  if (!dead.length) return [];
  const gone = new Set(dead);
  for (const name of readdirOrNone(socketDir)) {
    const link = join(socketDir, name);
    let target: string;
    try {
      target = readlinkSync(link);
    } catch {
      continue; // not a link: a container's socket dir
    }
    if (gone.has(target)) rmSync(link, { force: true });
  }
  for (const dir of dead) rmSync(dir, { recursive: true, force: true });
  return dead;
}

/** Milliseconds since the dir last changed (0 when it cannot be read: not taken). */
function unchangedFor(dir: string, now: number): number {
  try {
    return now - statSync(dir).mtimeMs;
  } catch {
    return 0;
  }
}

function readdirOrNone(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Removes the exec scratch dirs (exec/exec-scratch.ts) that a process killed during an exec on a
 * full disk left in `root` (/dev/shm): only dirs of this user, named by an owner that is dead, and
 * named by no live process (a `runc exec` still reading its spec). Returns the dirs removed.
 */
export async function removeDeadExecScratch(root = EXEC_SCRATCH_FALLBACK): Promise<string[]> {
  const candidates: string[] = [];
  for (const name of readdirOrNone(root)) {
    if (!name.startsWith(EXEC_SCRATCH_PREFIX)) continue;
    const owner = sessionOwner(name.slice(EXEC_SCRATCH_PREFIX.length));
    const dir = join(root, name);
    if (!owner || !ownDirectory(dir) || (await creatorAlive(owner))) continue;
    candidates.push(dir);
  }
  if (!candidates.length) return [];
  const used = dirsInUse(candidates);
  const dead = candidates.filter((dir) => !used.has(dir));
  for (const dir of dead) rmSync(dir, { recursive: true, force: true });
  return dead;
}

/** A real directory (not a link) owned by this process's user: never another user's files in /dev/shm. */
function ownDirectory(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && st.uid === process.geteuid?.();
  } catch {
    return false;
  }
}
