// waitForExit: the exit counts once conmon recorded it, or once conmon and the container's init are
// both gone (a conmon killed with SIGKILL never writes the record); otherwise it waits to the deadline.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processRuns, waitForExit, type ExitProbe } from '../../src/runtime/container/exit-wait.js';
import { startStranger, startZombie } from '../rig/zombie.js';

function probe(o: { recordedAfter?: number; monitor?: boolean; initGoneAfter?: number }): ExitProbe & { calls: number } {
  const p = {
    calls: 0,
    recorded: async () => ++p.calls > (o.recordedAfter ?? Infinity),
    monitorAlive: async () => o.monitor ?? true,
    initAlive: async () => p.calls <= (o.initGoneAfter ?? Infinity),
  };
  return p;
}

describe('waitForExit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('returns once the monitor has recorded the exit', async () => {
    const p = probe({ recordedAfter: 3 });
    expect(await waitForExit(p, 5_000)).toBe(true);
    expect(p.calls).toBe(4);
  });

  it('returns when the monitor is gone and so is the init', async () => {
    expect(await waitForExit(probe({ monitor: false, initGoneAfter: 2 }), 5_000)).toBe(true);
  });

  it('keeps waiting while the monitor is gone but the init runs, until the deadline', async () => {
    // A fake clock that each look at the init moves on by 10 ms: the wait gives up exactly when the
    // 150 ms have passed on it (15 rounds), neither at the first sight of a gone monitor nor later.
    vi.useFakeTimers({ toFake: ['Date'] });
    const p = probe({ monitor: false });
    const initAlive = p.initAlive;
    p.initAlive = async () => {
      vi.setSystemTime(Date.now() + 10);
      return initAlive();
    };
    expect(await waitForExit(p, 150)).toBe(false);
    expect(p.calls).toBe(15);
  });

  it('gives up at the deadline while the monitor runs and records nothing', async () => {
    expect(await waitForExit(probe({}), 100)).toBe(false);
  });
});

describe('processRuns', () => {
  it('says a live process runs, and a zombie or a missing PID does not (the /proc/PID/exe fast path must not count a zombie)', async () => {
    const zombie = await startZombie(); // its parent, a live sleep, never reaps it
    const live = startStranger();
    try {
      expect(processRuns(zombie.pid)).toBe(false);
      expect(processRuns(live.pid)).toBe(true);
      expect(processRuns(process.pid)).toBe(true);
      expect(processRuns(2 ** 22 + 1)).toBe(false); // above pid_max's ceiling: never a process
    } finally {
      zombie.stop();
      live.stop();
    }
  }, 30_000);
});
