// Client-chosen durations past what a Node timer holds (2^31-1 ms) must mean "a long time",
// never "now": the incoming grpc-timeout header, the CLI's RPC deadline, and the timer of a
// process run with a timeout (ExecSync's int64 seconds), on both spawn paths.
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { clampIncomingDeadlines, clampTimeoutHeader } from '../../src/daemon/deadline-clamp.js';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';
import { MAX_RPC_TIMEOUT_MS, MAX_TIMER_MS, rpcDeadline, timerDelay } from '../../src/util/timer-delay.js';

describe('grpc-timeout headers', () => {
  it.each([
    ['2147484S', '2147483S'], // crictl -t 2147484s
    ['99999999H', '2147483S'],
    ['35792M', '2147483S'],
    ['2147483648m', '2147483S'],
    ['2147483S', '2147483S'],
    ['2147483000m', '2147483000m'],
    ['120S', '120S'],
    ['1999999m', '1999999m'],
    ['99999999n', '99999999n'],
    ['0S', '0S'],
    ['soon', 'soon'],
  ])('%s becomes %s', (value, clamped) => {
    expect(clampTimeoutHeader(value)).toBe(clamped);
  });

  it('are rewritten before any listener of the HTTP/2 server reads them', () => {
    const server = new EventEmitter();
    const seen: unknown[] = [];
    server.on('stream', (_s, headers: Record<string, unknown>) => seen.push(headers['grpc-timeout']));
    clampIncomingDeadlines(server);
    server.emit('stream', {}, { ':path': '/x', 'grpc-timeout': '2147484S' });
    server.emit('stream', {}, { ':path': '/x', 'grpc-timeout': '5S' });
    server.emit('stream', {}, { ':path': '/x' });
    expect(seen).toEqual(['2147483S', '5S', undefined]);
  });
});

describe('timer caps', () => {
  it('keep delays in the range setTimeout honours', () => {
    expect(timerDelay(2 ** 31)).toBe(MAX_TIMER_MS);
    expect(timerDelay(9.2e21)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Infinity)).toBe(MAX_TIMER_MS);
    expect(timerDelay(1500)).toBe(1500);
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(Number.NaN)).toBe(0);
  });

  it('give RPC deadlines a grpc-timeout a grpc-js peer can hold', () => {
    const now = 1_700_000_000_000;
    expect(rpcDeadline(99999999999 * 3_600_000, now)).toBe(now + MAX_RPC_TIMEOUT_MS);
    expect(rpcDeadline(2000, now)).toBe(now + 2000);
    expect(MAX_RPC_TIMEOUT_MS).toBe(2_147_483_000);
  });
});

describe.each([
  ['native', '1'],
  ['node', '0'],
])('a process run with a timeout past 2^31 ms, through %s spawning', (_path, flag) => {
  it.each([2 ** 31, 2147484 * 1000, 9223372036854775807 * 1000])('runs to its end (timeout %d ms)', async (timeoutMs) => {
    const saved = process.env.ISULATS_NATIVE_SPAWN;
    process.env.ISULATS_NATIVE_SPAWN = flag;
    try {
      const r = await new ProcessRunner().run({ cmd: 'sh', args: ['-c', 'sleep 0.2; echo done'], timeoutMs });
      expect({ timedOut: r.timedOut, code: r.code, stdout: r.stdout.toString() }).toEqual({ timedOut: false, code: 0, stdout: 'done\n' });
    } finally {
      if (saved === undefined) delete process.env.ISULATS_NATIVE_SPAWN;
      else process.env.ISULATS_NATIVE_SPAWN = saved;
    }
  });
});
