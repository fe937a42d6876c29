// Creator identity of records marked `creating`: recovery must take a zombie, a reused PID and a
// PID of another boot for a dead creator, and only the real creator for a live one.
import { afterEach, describe, expect, it } from 'vitest';
import { creatorAlive, currentCreator, parseProcStat, processStartTime } from '../../src/runtime/recovery/creator.js';
import { startStranger, startZombie, type HeldProcess } from '../rig/zombie.js';

const held: HeldProcess[] = [];
afterEach(() => {
  for (const p of held.splice(0)) p.stop();
});

describe('parseProcStat', () => {
  it('reads state and start time past a name with spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[0] = 'S';
    fields[19] = '987654';
    expect(parseProcStat(`42 (a) b (c)) ${fields.join(' ')}`)).toEqual({ state: 'S', startTime: '987654' });
    expect(parseProcStat('')).toBeUndefined();
  });
});

describe('creatorAlive', () => {
  it('knows this process', async () => {
    const me = currentCreator();
    expect(me.startTime).toMatch(/^\d+$/);
    expect(me.bootId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await creatorAlive(me)).toBe(true);
  });

  it('takes our own PID with another start time for a dead creator (a PID reused)', async () => {
    const me = currentCreator();
    expect(await creatorAlive({ ...me, startTime: String(BigInt(me.startTime!) + 1n) })).toBe(false);
  });

  it('takes a live process that is not the creator for a dead creator', async () => {
    const stranger = startStranger();
    held.push(stranger);
    const { startTime, bootId } = currentCreator();
    expect(await creatorAlive({ pid: stranger.pid, startTime, bootId })).toBe(false);
    // Named with its own start time it is the creator.
    expect(await creatorAlive({ pid: stranger.pid, startTime: await processStartTime(stranger.pid), bootId })).toBe(true);
  });

  it('takes a zombie for a dead creator, even with its own start time', async () => {
    const zombie = await startZombie();
    held.push(zombie);
    const startTime = await processStartTime(zombie.pid);
    expect(startTime).toMatch(/^\d+$/);
    expect(await creatorAlive({ pid: zombie.pid, startTime, bootId: currentCreator().bootId })).toBe(false);
    expect(await creatorAlive({ pid: zombie.pid })).toBe(false);
  });

  it('takes a creator of another boot for a dead one', async () => {
    expect(await creatorAlive({ ...currentCreator(), bootId: '00000000-0000-0000-0000-000000000000' })).toBe(false);
  });

  it('takes a PID that no process has for a dead creator', async () => {
    expect(await creatorAlive({ pid: 0x3fffff + 1 })).toBe(false);
  });
});
