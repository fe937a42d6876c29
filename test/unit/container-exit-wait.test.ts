// waitForExit: the exit counts once conmon recorded it, or once conmon and the container's init are
// both gone (a conmon killed with SIGKILL never writes the record); otherwise it waits to the deadline.
import { describe, expect, it } from 'vitest';
import { waitForExit, type ExitProbe } from '../../src/runtime/container/exit-wait.js';

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
  it('returns once the monitor has recorded the exit', async () => {
    const p = probe({ recordedAfter: 3 });
    expect(await waitForExit(p, 5_000)).toBe(true);
    expect(p.calls).toBe(4);
  });

  it('returns when the monitor is gone and so is the init', async () => {
    expect(await waitForExit(probe({ monitor: false, initGoneAfter: 2 }), 5_000)).toBe(true);
  });

  it('keeps waiting while the monitor is gone but the init runs, until the deadline', async () => {
    const t = Date.now();
    expect(await waitForExit(probe({ monitor: false }), 150)).toBe(false);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
  });

  it('gives up at the deadline while the monitor runs and records nothing', async () => {
    expect(await waitForExit(probe({}), 100)).toBe(false);
  });
});
