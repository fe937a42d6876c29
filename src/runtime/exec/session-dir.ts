// The per-session dir of a streaming TTY exec (its process spec, pid file, and the link that keeps
// its sockets' paths short). Its few small files are made and removed synchronously: each is a
// single cheap syscall, and every thread-pool round trip costs more than it (milliseconds per step
// when the pool is busy), on a path a client waits on before and after its command runs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** A session dir under `sessionsDir`, which is made only when missing (not on every exec). */
export function makeSession(sessionsDir: string): string {
  try {
    return mkdtempSync(join(sessionsDir, 'x'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(sessionsDir, { recursive: true, mode: 0o700 });
    return mkdtempSync(join(sessionsDir, 'x'));
  }
}

/** The session's name under the socket dir: the container's short ID and the dir's suffix. */
export function sessionName(containerId: string, session: string): string {
  return `${containerId.slice(0, 12)}-${session.slice(-6)}`;
}

/** Removes the session dir and the link to it in the socket dir. */
export function removeSession(session: string, link: string): void {
  rmSync(session, { recursive: true, force: true });
  rmSync(link, { force: true });
}
