// The daemon's process guard: an uncaught exception or unhandled rejection is one error line
// with its stack, and the process goes on; removing the guard leaves Node's own handling.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/daemon/logger.js';
import { guardProcess } from '../../src/daemon/process-guard.js';

describe('guardProcess', () => {
  it('logs an uncaught exception and an unhandled rejection with their stacks, and is removed by its stop', () => {
    const lines: Array<Record<string, string>> = [];
    const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
    const stop = guardProcess(createLogger('info', (l) => lines.push(JSON.parse(l) as Record<string, string>)));
    try {
      const err = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' });
      // As Node emits them (emit's typing does not list these events).
      const emit = process.emit.bind(process) as (event: string, ...args: unknown[]) => boolean;
      emit('uncaughtException', err, 'uncaughtException');
      emit('unhandledRejection', new Error('rejected'), Promise.resolve());
    } finally {
      stop();
    }
    expect(lines.map((l) => [l.level, l.msg, l.error])).toEqual([
      ['error', 'survived an error no code caught; the daemon goes on serving', 'accept EMFILE'],
      ['error', 'survived a promise rejection no code handled; the daemon goes on serving', 'rejected'],
    ]);
    expect(lines[0]!.stack).toMatch(/^Error: accept EMFILE\n\s+at /);
    expect([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')]).toEqual(before);
  });
});
