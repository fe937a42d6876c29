import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog, type ContainerEvent } from '../../src/runtime/container/event-log.js';

const event = (i: number): ContainerEvent => ({ containerId: `c${i}`.padEnd(64, 'x'), podSandboxId: 'p'.repeat(64), type: 'CONTAINER_CREATED_EVENT', createdAt: String(i) });

describe('EventLog', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('rotates past its size and a tailing reader still sees every event once, in order', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ist-evlog-'));
    const file = join(dir, 'events.log');
    // About three lines a generation.
    const log = new EventLog(file, 500);
    const abort = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const e of log.tail(abort.signal, 5)) seen.push(e.createdAt);
    })();
    await sleep(20);
    for (let i = 0; i < 12; i++) {
      await log.append(event(i));
      await sleep(25);
    }
    for (let i = 0; i < 100 && seen.length < 12; i++) await sleep(10);
    abort.abort();
    await reading;
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => String(i)));
    // Bounded: the live file and its one kept generation stay near the limit.
    expect(existsSync(file) ? statSync(file).size : 0).toBeLessThanOrEqual(500);
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(500 + 200);
  });

  it('starts a reader at the end: events from before it subscribed are not replayed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ist-evlog-'));
    const log = new EventLog(join(dir, 'events.log'));
    await log.append(event(1));
    const abort = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const e of log.tail(abort.signal, 5)) seen.push(e.createdAt);
    })();
    await sleep(20);
    await log.append(event(2));
    for (let i = 0; i < 100 && seen.length < 1; i++) await sleep(10);
    abort.abort();
    await reading;
    expect(seen).toEqual(['2']);
  });
});
