// The relay that reaches a port inside a pod's network namespace (port-forward to services the host
// cannot reach by IP): real nsenter and busybox nc in a network namespace this test makes.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayInNetns } from '../../src/runtime/network/pod-port.js';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';

/** Writes `chunks` at once, then reads until the relay ends or fails. */
function converse(relay: Duplex, chunks: string[]): Promise<{ data: string; error?: string }> {
  return new Promise((resolve) => {
    let data = '';
    relay.on('data', (b: Buffer) => { data += b.toString(); });
    relay.once('error', (err) => resolve({ data, error: err.message }));
    relay.once('end', () => resolve({ data }));
    for (const c of chunks) relay.write(c);
    relay.end();
  });
}

describe('relay into a pod network namespace', () => {
  let holder: ChildProcess;
  let netns: string;
  const runner = new ProcessRunner();

  beforeAll(async () => {
    // A namespace with loopback up and an echo service on 8098 (nothing on 8099).
    holder = spawn('unshare', ['--net', 'sh', '-c',
      'ip link set lo up && exec busybox nc -ll -p 8098 -e cat'], { stdio: 'ignore' });
    netns = `/proc/${holder.pid}/ns/net`;
    for (let i = 0; i < 50; i++) {
      const probe = await relayInNetns(runner, netns, 8098).then((r) => converse(r, ['ping\n']));
      if (probe.data === 'ping\n') return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('echo service in the test namespace never answered');
  });
  afterAll(() => { holder?.kill('SIGKILL'); });

  it('carries bytes both ways and ends when the service closes', async () => {
    expect(await converse(await relayInNetns(runner, netns, 8098), ['hello ', 'pod\n'])).toEqual({ data: 'hello pod\n' });
  });

  it('fails a refused port with nc\'s reason even when the client writes before nc exits', async () => {
    // The client's bytes race nc's exit: a write into the dead pipe must not replace the reason with EPIPE.
    for (let i = 0; i < 25; i++) {
      const r = await converse(await relayInNetns(runner, netns, 8099), Array.from({ length: 64 }, () => 'x'.repeat(4096)));
      expect(r.data).toBe('');
      expect(r.error).toMatch(/refused/i);
    }
  });
});
