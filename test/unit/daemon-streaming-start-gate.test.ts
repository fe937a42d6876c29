import { describe, expect, it, vi } from 'vitest';
import { StartGate } from '../../src/daemon/streaming/start-gate.js';

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
