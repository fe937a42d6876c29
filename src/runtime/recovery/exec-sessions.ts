// Exec session dirs (<state>/exec, exec/session-dir.ts) and their links in the socket dir are
// removed by the process running the session when it ends; one SIGKILLed midway leaves them.
// At open, the dirs whose owner (named in the dir's name) is dead go, with the links to them.
// A live owner's are kept: an embedded CLI may open an engine on the state dir of a daemon
// serving sessions. Dirs without an owner in their name (older versions) are left alone.
import { readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sessionOwner } from '../exec/session-dir.js';
import { creatorAlive } from './creator.js';

/** Removes the session dirs of dead owners and the socket-dir links to them; returns the dirs removed. */
export async function removeDeadExecSessions(sessionsDir: string, socketDir: string): Promise<string[]> {
  const dead: string[] = [];
  for (const name of readdirOrNone(sessionsDir)) {
    const owner = sessionOwner(name);
    if (owner && !(await creatorAlive(owner))) dead.push(join(sessionsDir, name));
  }
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

function readdirOrNone(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
