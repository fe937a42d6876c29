// The per-session dir of a streaming TTY exec (its process spec, pid file, and the link that keeps
// its sockets' paths short). Its few small files are made and removed synchronously: each is a
// single cheap syscall, and every thread-pool round trip costs more than it (milliseconds per step
// when the pool is busy), on a path a client waits on before and after its command runs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { currentCreator, type Creator } from '../recovery/creator.js';

/**
 * A session dir's name starts with its owner, the process running the session (PID, start time,
 * boot ID, as recovery/creator.ts judges a creator): a process SIGKILLed mid-session leaves it,
 * and the next engine to open removes it once that owner is dead (recovery/exec-sessions.ts).
 */
export function sessionPrefix(owner: Creator): string {
  return `${owner.pid}.${owner.startTime ?? ''}.${(owner.bootId ?? '').replace(/-/g, '')}-`;
}

const SESSION_NAME = /^(\d+)\.(\d*)\.([0-9a-f]*)-[A-Za-z0-9]{6}$/;

/** The owner a session dir's name gives; undefined for other names (dirs of older versions). */
export function sessionOwner(name: string): Creator | undefined {
  const m = SESSION_NAME.exec(name);
  if (!m) return undefined;
  const boot = m[3]!;
  const bootId = boot.length === 32 ? `${boot.slice(0, 8)}-${boot.slice(8, 12)}-${boot.slice(12, 16)}-${boot.slice(16, 20)}-${boot.slice(20)}` : undefined;
  return { pid: Number(m[1]), startTime: m[2] || undefined, bootId };
}

/** A session dir under `sessionsDir`, which is made only when missing (not on every exec). */
export function makeSession(sessionsDir: string): string {
  const prefix = join(sessionsDir, sessionPrefix(currentCreator()));
  try {
    return mkdtempSync(prefix);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(sessionsDir, { recursive: true, mode: 0o700 });
    return mkdtempSync(prefix);
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
