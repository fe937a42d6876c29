import { describe, expect, it } from 'vitest';
import { SharedWork } from '../../src/runtime/image/shared-work.js';

/** Work that runs until its signal aborts or `finish` is called; records how it ended. */
function controllable() {
  const log: string[] = [];
  let finish!: (error?: Error) => void;
  const start = (signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      log.push('started');
      finish = (error) => (error ? reject(error) : resolve());
      signal.addEventListener('abort', () => {
        log.push('aborted');
        reject(signal.reason);
      });
    });
  return { log, start, finish: (error?: Error) => finish(error) };
}

describe('shared work', () => {
  it('runs once for every caller that waits, and gives each its result or error', async () => {
    const shared = new SharedWork();
    const work = controllable();
    const a = shared.join('k', work.start);
    const b = shared.join('k', work.start);
    await Promise.resolve();
    expect(shared.waiters('k')).toBe(2);
    work.finish(new Error('registry said no'));
    await expect(a).rejects.toThrow('registry said no');
    await expect(b).rejects.toThrow('registry said no');
    expect(work.log).toEqual(['started']);
    expect(shared.waiters('k')).toBe(0);
  });

  it('goes on while one caller waits; the last one to leave stops it, and the next caller starts it anew', async () => {
    const shared = new SharedWork();
    const work = controllable();
    const first = new AbortController();
    const second = new AbortController();
    const a = shared.join('k', work.start, first.signal);
    const b = shared.join('k', work.start, second.signal);
    await Promise.resolve();
    first.abort(new Error('first gone'));
    await expect(a).rejects.toThrow('first gone');
    expect(work.log).toEqual(['started']);
    expect(shared.waiters('k')).toBe(1);
    second.abort(new Error('second gone'));
    await expect(b).rejects.toThrow('second gone');
    expect(work.log).toEqual(['started', 'aborted']);
    const again = controllable();
    const c = shared.join('k', again.start);
    await Promise.resolve();
    again.finish();
    await expect(c).resolves.toBeUndefined();
    expect(again.log).toEqual(['started']);
  });

  it('refuses a caller that has already gone, starting nothing', async () => {
    const shared = new SharedWork();
    const work = controllable();
    expect(() => shared.join('k', work.start, AbortSignal.abort(new Error('gone')))).toThrow('gone');
    expect(work.log).toEqual([]);
  });
});
