// After a TTY exec's process exits, what it wrote last may still be on its way from the terminal's
// reader thread (late on a loaded node): the session must wait for the terminal's end, or for a
// quiet period counted from the exit report, before it sends the exit status. The terminal here is
// an EventEmitter standing in for the addon's reader; the timing logic is what is tested.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('TTY exec: the terminal after the exit', () => {
  it('forwards output that arrives after the exit report, though the terminal was quiet long before it', async () => {
    const { term, chunks, wired } = wire();
    await sleep(400); // the process waited for input: no terminal data for a while
    let done = false;
    const quiet = wired.quiet().then(() => { done = true; });
    await sleep(100); // the reader thread delivers late
    expect(done).toBe(false);
    term.emit('data', Buffer.from('got hello\r\n'));
    term.emit('end');
    await quiet;
    expect(chunks.join('')).toBe('got hello\r\n');
  });

  it('stops waiting once the terminal ends', async () => {
    const { term, wired } = wire();
    const started = Date.now();
    const quiet = wired.quiet();
    term.emit('end');
    await quiet;
    expect(Date.now() - started).toBeLessThan(500);
  });
});
