// Exec session dirs left by a process SIGKILLed mid-session: removed at engine open once their
// owner (named in the dir's name) is dead, judged as recovery judges a creator: PID, start time
// and boot ID, a zombie counting as dead; dirs named before owners were, once unchanged for a
// minute; either kind only while no live process (a session's monitor) names it in its
// arguments. Real processes stand for the owners and the monitors.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentCreator, processStartTime, type Creator } from '../../src/runtime/recovery/creator.js';
import { removeDeadExecSessions, UNNAMED_SESSION_GRACE_MS } from '../../src/runtime/recovery/exec-sessions.js';
import { makeSession, sessionName, sessionOwner, sessionPrefix } from '../../src/runtime/exec/session-dir.js';
import { startStranger, startZombie, type HeldProcess } from '../rig/zombie.js';

const held: HeldProcess[] = [];
const monitors: ChildProcess[] = [];
let dir = '';

afterEach(async () => {
  for (const p of held.splice(0)) p.stop();
  for (const m of monitors.splice(0)) await stopMonitor(m);
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

/**
 * A process whose arguments name `args` as a session's monitor does (conmon: `-b <dir>`, ttyexec:
 * `<dir>/pid`); a shell waiting on its stdin, so it has no child of its own.
 */
async function startMonitor(...args: string[]): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', 'read line', 'conmon', ...args], { stdio: ['pipe', 'ignore', 'ignore'] });
  monitors.push(child);
  await new Promise((r) => child.once('spawn', r));
  return child;
}

async function stopMonitor(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** A dir named as sessions were before they named their owner (mkdtemp of `x`), last changed `ageMs` ago. */
function unnamedSession(sessions: string, sockets: string, ageMs: number): { session: string; link: string } {
  const s = session(sessions, sockets, undefined);
  const then = (Date.now() - ageMs) / 1000;
  utimesSync(s.session, then, then);
  return s;
}

/** A session dir of `owner` with its files and its socket-dir link, as a session makes them. */
function session(sessions: string, sockets: string, owner: Creator | undefined): { session: string; link: string } {
  const session = mkdtempSync(join(sessions, owner ? sessionPrefix(owner) : 'x'));
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

  it('of dead owners (reaped, zombie, PID reused) go with their links at open; live owners\' and fresh unnamed ones stay', async () => {
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
    const fresh = unnamedSession(sessions, sockets, 5_000);
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
    expect(existsSync(fresh.session)).toBe(true);
    expect(existsSync(fresh.link)).toBe(true);
    expect(existsSync(containerSocketDir)).toBe(true);
  });

  it('named before owners were go with their links once unchanged for a minute', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ist-xs-'));
    const sessions = join(dir, 'exec');
    const sockets = join(dir, 'sk');
    mkdirSync(sessions);
    mkdirSync(sockets);
    const old = unnamedSession(sessions, sockets, UNNAMED_SESSION_GRACE_MS + 60_000);
    const recent = unnamedSession(sessions, sockets, UNNAMED_SESSION_GRACE_MS - 10_000);
    // Not a session dir of either format: not ours to judge.
    const other = join(sessions, 'notes');
    mkdirSync(other);
    utimesSync(other, 0, 0);

    expect(await removeDeadExecSessions(sessions, sockets)).toEqual([old.session]);
    expect(existsSync(old.session)).toBe(false);
    expect(isLink(old.link)).toBe(false);
    expect(existsSync(join(recent.session, 'process.json'))).toBe(true);
    expect(existsSync(recent.link)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it('stay, whatever their name, while a live process names them in its arguments (a dead owner\'s detached conmon), and go once it has gone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ist-xs-'));
    const sessions = join(dir, 'exec');
    const sockets = join(dir, 'sk');
    mkdirSync(sessions);
    mkdirSync(sockets);
    const deadOwners = session(sessions, sockets, await deadOwner());
    const unnamed = unnamedSession(sessions, sockets, UNNAMED_SESSION_GRACE_MS + 60_000);
    const conmon = await startMonitor('-b', deadOwners.session, '--exit-dir', deadOwners.session);
    const ttyexec = await startMonitor(join(unnamed.session, 'pid'), '/usr/sbin/runc', 'exec');
    // A path that merely starts like the dir's does not hold it.
    const lookalike = session(sessions, sockets, await deadOwner());
    await startMonitor(`${lookalike.session}x/pid`);

    expect(await removeDeadExecSessions(sessions, sockets)).toEqual([lookalike.session]);
    for (const s of [deadOwners, unnamed]) {
      expect(existsSync(join(s.session, 'process.json'))).toBe(true);
      expect(existsSync(s.link)).toBe(true);
    }

    await stopMonitor(conmon);
    await stopMonitor(ttyexec);
    expect((await removeDeadExecSessions(sessions, sockets)).sort()).toEqual([deadOwners.session, unnamed.session].sort());
    for (const s of [deadOwners, unnamed]) {
      expect(existsSync(s.session)).toBe(false);
      expect(isLink(s.link)).toBe(false);
    }
  });
});

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
