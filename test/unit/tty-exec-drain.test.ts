// After a TTY exec's process exits, what it wrote last may still be on its way from the terminal's
// reader thread (late on a loaded node): the session must wait for the terminal's end, or for a
// quiet period counted from the exit report, before it sends the exit status. The terminal here is
// an EventEmitter standing in for the addon's reader; the timing logic is what is tested.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NativeSeqpacketSocket } from '../../src/runtime/exec/seqpacket-native.js';
import { wireTerminal } from '../../src/runtime/exec/tty-exec.js';

class FakeTerminal extends EventEmitter {
  pause(): void {}
  resume(): void {}
  write(): void {}
  destroy(): void {
    this.emit('close');
  }
}

function wire() {
  const term = new FakeTerminal();
  const stdout = new PassThrough();
  const chunks: string[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c.toString()));
  const wired = wireTerminal(term as unknown as NativeSeqpacketSocket, -1, { stdout, tty: true });
  return { term, chunks, wired };
}

// A fake clock: the waits are about which comes first, the terminal's end or its quiet period.
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('TTY exec: the terminal after the exit', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('forwards output that arrives after the exit report, though the terminal was quiet long before it', async () => {
    const { term, chunks, wired } = wire();
    await sleep(1500); // the process waited for input: no terminal data for longer than the quiet period
    let done = false;
    const quiet = wired.quiet().then(() => { done = true; });
    await sleep(900); // the reader thread delivers late, though within the quiet period after the exit
    expect(done).toBe(false);
    term.emit('data', Buffer.from('got hello\r\n'));
    term.emit('end');
    await quiet;
    expect(chunks.join('')).toBe('got hello\r\n');
  });

  it('stops waiting once the terminal ends', async () => {
    const { term, wired } = wire();
    let done = false;
    const quiet = wired.quiet().then(() => { done = true; });
    term.emit('end');
    await sleep(999); // short of the quiet period: what ends the wait is the terminal's end
    expect(done).toBe(true);
    await quiet;
  });

  it('otherwise stops after the quiet period, counted from the exit', async () => {
    const { wired } = wire();
    let done = false;
    const quiet = wired.quiet().then(() => { done = true; });
    await sleep(999);
    expect(done).toBe(false);
    await sleep(1);
    expect(done).toBe(true);
    await quiet;
  });
});
