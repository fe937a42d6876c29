import { describe, expect, it, vi } from 'vitest';
import { KeyedStartGate, StartGate } from '../../src/daemon/streaming/start-gate.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('StartGate', () => {
  it('lets `limit` sessions start at once and the next one when a place is released', async () => {
    const gate = new StartGate(2, 60_000);
    const entered: number[] = [];
    const releases: Array<() => void> = [];
    for (let i = 0; i < 4; i++) void gate.enter().then((r) => { entered.push(i); releases.push(r); });
    await tick();
    expect(entered).toEqual([0, 1]);
    releases[0]!();
    releases[0]!(); // twice is once
    await tick();
    expect(entered).toEqual([0, 1, 2]);
    for (const r of [...releases]) r();
    await tick();
    expect(entered).toEqual([0, 1, 2, 3]);
  });

  it('gives a place back after its window, so a long session does not block the others', async () => {
    vi.useFakeTimers();
    try {
      const gate = new StartGate(1, 60_000);
      await gate.enter(); // never released by hand: an interactive shell
      let entered = false;
      const next = gate.enter().then(() => { entered = true; });
      await vi.advanceTimersByTimeAsync(59_999);
      expect(entered).toBe(false); // the place is held for the whole window
      await vi.advanceTimersByTimeAsync(1);
      expect(entered).toBe(true);
      await next;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('KeyedStartGate', () => {
  it('queues a key\'s sessions behind that key\'s places only, and forgets a key once it is idle', async () => {
    const gate = new KeyedStartGate(2, 60_000);
    const entered: string[] = [];
    const releases: Array<() => void> = [];
    // One client's sessions on container a: two start, eight wait.
    for (let i = 0; i < 10; i++) void gate.enter('container:a').then((r) => { entered.push(`a${i}`); releases.push(r); });
    await tick();
    expect(entered).toEqual(['a0', 'a1']);
    // Another container's session starts at once, ahead of a's queue.
    const b = await gate.enter('container:b');
    expect(entered).toEqual(['a0', 'a1']);
    b();
    expect(gate.size).toBe(1);
    while (releases.length) {
      releases.shift()!();
      await tick();
    }
    expect(entered).toHaveLength(10);
    expect(gate.size).toBe(0);
  });
});
