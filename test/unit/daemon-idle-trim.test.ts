import { describe, expect, it } from 'vitest';
import { IdleTrimmer, startIdleTrim } from '../../src/daemon/idle-trim.js';

/** A trimmer on a CPU clock the test moves; counts the trims. */
function trimmerOnClock(periodMs = 10_000) {
  let cpu = 1_000;
  let trims = 0;
  const trimmer = new IdleTrimmer({ trim: () => trims++, cpuMs: () => cpu, periodMs });
  return {
    trimmer,
    use: (ms: number) => (cpu += ms),
    get trims() { return trims; },
  };
}

describe('idle trim', () => {
  it('trims once after start-up, then not while the daemon stays idle', () => {
    const t = trimmerOnClock();
    expect(t.trimmer.tick()).toBe(true);
    t.use(0.5); // timers, nothing else
    expect(t.trimmer.tick()).toBe(false);
    expect(t.trimmer.tick()).toBe(false);
    expect(t.trims).toBe(1);
  });

  it('waits for a burst to end, then trims once', () => {
    const t = trimmerOnClock();
    t.trimmer.tick();
    t.use(4_000); // 50 pods at once: 40% of a core over the period
    expect(t.trimmer.tick()).toBe(false);
    t.use(3_000);
    expect(t.trimmer.tick()).toBe(false);
    t.use(30); // the burst's last calls
    expect(t.trimmer.tick()).toBe(true);
    expect(t.trimmer.tick()).toBe(false);
    expect(t.trims).toBe(2);
  });

  it('trims after a few calls that never made a burst', () => {
    const t = trimmerOnClock();
    t.trimmer.tick();
    t.use(40); // a pull and a pod in one period
    expect(t.trimmer.tick()).toBe(true);
  });

  it('does not count its own trim as activity', () => {
    let cpu = 0;
    let trims = 0;
    const trimmer = new IdleTrimmer({ trim: () => { trims++; cpu += 5; }, cpuMs: () => cpu });
    trimmer.tick();
    trimmer.tick();
    trimmer.tick();
    expect(trims).toBe(1);
  });

  it('reports a look that throws (RSS unreadable when out of descriptors) and tries again the next period', async () => {
    const errors: string[] = [];
    let trims = 0;
    const stop = startIdleTrim({
      periodMs: 40,
      trim: () => {
        trims++;
        if (trims === 1) throw Object.assign(new Error('EMFILE: too many open files, uv_resident_set_memory'), { code: 'EMFILE' });
      },
      cpuMs: (() => { let cpu = 0; return () => (cpu += 3); })(), // some activity every period, never a burst
      onError: (err) => errors.push((err as Error).message),
    });
    try {
      for (let i = 0; i < 200 && trims < 2; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      stop();
    }
    expect(errors).toEqual(['EMFILE: too many open files, uv_resident_set_memory']);
    expect(trims).toBeGreaterThanOrEqual(2);
  });
});
