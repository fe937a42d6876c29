// Exec session dirs left by a process SIGKILLed mid-session: removed at engine open once their
// owner (named in the dir's name) is dead, judged as recovery judges a creator: PID, start time
// and boot ID, a zombie counting as dead. Real processes stand for the owners.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentCreator, processStartTime, type Creator } from '../../src/runtime/recovery/creator.js';
import { removeDeadExecSessions } from '../../src/runtime/recovery/exec-sessions.js';
import { makeSession, sessionName, sessionOwner, sessionPrefix } from '../../src/runtime/exec/session-dir.js';
import { startStranger, startZombie, type HeldProcess } from '../rig/zombie.js';

const held: HeldProcess[] = [];
let dir = '';

afterEach(() => {
  for (const p of held.splice(0)) p.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function ownerOf(pid: number): Promise<Creator> {
  return { pid, startTime: await processStartTime(pid), bootId: currentCreator().bootId };
}

/** A process that has exited and been reaped: its PID names nobody. */
async function deadOwner(): Promise<Creator> {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  const owner = await ownerOf(child.pid!);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  return owner;
}

/** A session dir of `owner` with its files and its socket-dir link, as a session makes them. */
function session(sessions: string, sockets: string, owner: Creator): { session: string; link: string } {
  const session = mkdtempSync(join(sessions, sessionPrefix(owner)));
  writeFileSync(join(session, 'process.json'), '{}');
  const link = join(sockets, sessionName('f'.repeat(64), session));
  symlinkSync(session, link);
  return { session, link };
}

describe('exec session dirs', () => {
  it('name their owner, read back as recovery compares it', () => {
    const me = currentCreator();
    const name = basename(makeSession(join((dir = mkdtempSync(join(tmpdir(), 'ist-xs-'))), 'exec')));
    expect(sessionOwner(name)).toEqual(me);
    expect(sessionOwner('xAbC123')).toBeUndefined();
  });

  it('of dead owners (reaped, zombie, PID reused) go with their links at open; live owners\' and older unnamed ones stay', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ist-xs-'));
    const sessions = join(dir, 'exec');
    const sockets = join(dir, 'sk');
    mkdirSync(sessions);
    mkdirSync(sockets);
    const stranger = startStranger();
    const zombie = await startZombie();
    held.push(stranger, zombie);
    const live = session(sessions, sockets, await ownerOf(stranger.pid));
    const self = session(sessions, sockets, currentCreator());
    const dead = session(sessions, sockets, await deadOwner());
    const zombieOwned = session(sessions, sockets, await ownerOf(zombie.pid));
    const reused = session(sessions, sockets, { ...(await ownerOf(stranger.pid)), startTime: '1' });
    const otherBoot = session(sessions, sockets, { ...currentCreator(), bootId: '00000000-0000-4000-8000-000000000000' });
    const older = mkdtempSync(join(sessions, 'x'));
    const containerSocketDir = join(sockets, 'c'.repeat(12));
    mkdirSync(containerSocketDir);

    const removed = await removeDeadExecSessions(sessions, sockets);

    expect(removed.sort()).toEqual([dead.session, zombieOwned.session, reused.session, otherBoot.session].sort());
    for (const s of [dead, zombieOwned, reused, otherBoot]) {
      expect(existsSync(s.session)).toBe(false);
      expect(existsSync(s.link) || isLink(s.link)).toBe(false);
    }
    for (const s of [live, self]) {
      expect(existsSync(join(s.session, 'process.json'))).toBe(true);
      expect(existsSync(s.link)).toBe(true);
    }
    expect(existsSync(older)).toBe(true);
    expect(existsSync(containerSocketDir)).toBe(true);
  });
});

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
