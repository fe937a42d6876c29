// Exec output to a client that reads slowly, against a real `isulats daemon`: every byte the
// process wrote reaches the client before the exit status, and the daemon does not hold the
// output meanwhile (the process waits on a full pipe). Clients: client-go's remotecommand over
// SPDY and WebSocket (test/go-cri-client), a raw WebSocket client on the older channel
// protocols, and our own CLI, and TTY exec (the terminal's master) and attach (conmon's attach
// socket); each pipes into a reader that takes one byte, then pauses.
import { readFile, writeFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChannelMessage } from '../../src/protocols/k8s-channel/index.js';
import { STREAM_CHANNELS } from '../../src/protocols/remotecommand/index.js';
import { REPO_ROOT } from '../rig/cli.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { run } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';

const OUTPUT_BYTES = 30 * 1024 * 1024;
// Loopback TCP buffers hold up to ~36 MiB here (tcp_rmem max 32 MiB): only a larger output shows
// whether the daemon holds the process back or buffers what the socket cannot take.
const LARGE_OUTPUT_BYTES = 128 * 1024 * 1024;
const MAX_RSS_GROWTH = 24 * 1024 * 1024;
const PAUSE_S = 3;
const writeOutput = (bytes: number): string[] => ['sh', '-c', `head -c ${bytes} /dev/zero`];
// A terminal passes ~8 MB/s here: a longer pause, for it to produce more than loopback TCP holds.
const TTY_PAUSE_S = 10;
// Takes the first byte (so the pause starts once output flows), pauses, then counts the rest.
const slowReader = (pauseS: number): string =>
  `first=$(dd bs=1 count=1 status=none | wc -c); sleep ${pauseS}; rest=$(wc -c); echo $((first + rest))`;

const quote = (args: string[]): string => args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');

/** Runs `client | slow reader` in bash; the client's exit code and the count the reader printed. */
async function throughSlowReader(client: string[], pauseS = PAUSE_S): Promise<{ bytes: number; code: number; stderr: string }> {
  const script = `${quote(client)} | (${slowReader(pauseS)}); echo "exit=\${PIPESTATUS[0]}"`;
  const r = await run('bash', ['-c', script], { cwd: REPO_ROOT, timeoutMs: 90_000, check: false });
  const m = /^(\d+)\nexit=(\d+)\n$/.exec(r.stdout);
  if (!m) throw new Error(`unexpected output ${JSON.stringify(r.stdout)} (stderr ${r.stderr})`);
  return { bytes: Number(m[1]), code: Number(m[2]), stderr: r.stderr };
}

async function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

/** How far the daemon's RSS rose above where it was before `work` (its high-water mark, reset first). */
async function rssGrowthDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  // Writing 5 to clear_refs resets VmHWM to the current RSS.
  await writeFile(`/proc/${pid}/clear_refs`, '5');
  const base = await statusKb(pid, 'VmRSS');
  const result = await work();
  return { result, growth: (await statusKb(pid, 'VmHWM')) - base };
}

/** Reads an exec URL over WebSocket `protocol`, pausing the socket for PAUSE_S at the first output; counts stdout. */
function readPausingWebSocket(url: string, protocol: string): Promise<{ bytes: number; error: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), [protocol], { perMessageDeflate: false });
    let bytes = 0;
    let error = '';
    let paused = false;
    ws.on('message', (payload: Buffer, isBinary: boolean) => {
      const base64 = protocol.startsWith('base64') && !isBinary;
      const msg = decodeChannelMessage(base64 ? payload.toString('latin1') : payload, base64);
      if (msg.channel === STREAM_CHANNELS.stdout) bytes += msg.data.length;
      if (msg.channel === STREAM_CHANNELS.error) error += msg.data.toString();
      if (!paused && bytes > 0) {
        paused = true;
        ws.pause();
        setTimeout(() => ws.resume(), PAUSE_S * 1000);
      }
    });
    ws.on('error', reject);
    ws.on('close', () => resolve({ bytes, error }));
  });
}

describe('isulats daemon: exec output to a slow reader', () => {
  let daemon: IsulatsDaemon | undefined;
  let cri: RawCriClient;
  let bin: string;
  let containerId = '';
  let podId = '';

  beforeAll(async () => {
    bin = goToolPath('go-cri-client');
    const env = rigEnv();
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    cri = openCriClient(daemon.endpoint);
    const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', daemon!.endpoint, ...args]);
    expect((await go(['pull', '-image', env.ISULATS_TEST_BUSYBOX])).code).toBe(0);
    const r = await go(['run-pod-container', '-name', `slow-reader-${process.pid}-8f3c2a41-5d6e-4b7f-9a10-2c3d4e5f6a7b`,
      '-label', 'slow-reader', '-image', env.ISULATS_TEST_BUSYBOX, '--', 'sleep', '3600']);
    expect(r.stderr).toBe('');
    ({ containerId, podId } = JSON.parse(r.stdout) as { containerId: string; podId: string });
  });

  afterAll(async () => {
    cri?.close();
    await daemon?.cleanup();
  });

  for (const transport of ['spdy', 'websocket']) {
    it(`delivers all ${OUTPUT_BYTES} bytes over ${transport} to client-go, then exit 0`, async () => {
      const result = await throughSlowReader(
        [bin, '-endpoint', daemon!.endpoint, 'exec', '-id', containerId, '-transport', transport, '--', ...writeOutput(OUTPUT_BYTES)]);
      expect(result).toEqual({ bytes: OUTPUT_BYTES, code: 0, stderr: '' });
    });
  }

  for (const protocol of ['channel.k8s.io', 'base64.channel.k8s.io']) {
    it(`delivers all bytes over WebSocket ${protocol} to a client that pauses, then the status`, async () => {
      const { url } = await cri.runtime('Exec', { containerId, cmd: writeOutput(OUTPUT_BYTES), stdout: true, stderr: true });
      // Before v4 the error channel carries only a failure's message: nothing on success.
      expect(await readPausingWebSocket(url, protocol)).toEqual({ bytes: OUTPUT_BYTES, error: '' });
    });
  }

  it(`holds the process back instead of buffering: ${LARGE_OUTPUT_BYTES} bytes to client-go over WebSocket`, async () => {
    const { result, growth } = await rssGrowthDuring(daemon!.pid, () => throughSlowReader(
      [bin, '-endpoint', daemon!.endpoint, 'exec', '-id', containerId, '-transport', 'websocket', '--', ...writeOutput(LARGE_OUTPUT_BYTES)]));
    expect(result).toEqual({ bytes: LARGE_OUTPUT_BYTES, code: 0, stderr: '' });
    expect(growth).toBeLessThan(MAX_RSS_GROWTH);
  });

  for (const [how, flags] of [['WebSocket', []], ['SPDY (piped stdin)', ['-i']]] as const) {
    it(`our CLI gets all bytes over ${how}, exit 0, and warns about nothing`, async () => {
      const result = await throughSlowReader(
        [process.execPath, 'bin/isulats', '-r', daemon!.endpoint, 'exec', ...flags, containerId, ...writeOutput(OUTPUT_BYTES)]);
      expect(result.stderr).not.toMatch(/MaxListenersExceededWarning/);
      expect(result).toEqual({ bytes: OUTPUT_BYTES, code: 0, stderr: '' });
    });
  }

  // A TTY exec reads its terminal's master and attach conmon's attach socket, each from a thread of
  // the addon: while the client is slow, reading stops and the output waits in the container's terminal. Zeros pass a terminal
  // unchanged (onlcr touches only newlines), so the count is exact.
  it(`holds a TTY exec back instead of buffering: ${LARGE_OUTPUT_BYTES} bytes to client-go over SPDY`, async () => {
    const { result, growth } = await rssGrowthDuring(daemon!.pid, () => throughSlowReader(
      [bin, '-endpoint', daemon!.endpoint, 'exec', '-tty', '-id', containerId, '--', ...writeOutput(LARGE_OUTPUT_BYTES)], TTY_PAUSE_S));
    expect(result).toEqual({ bytes: LARGE_OUTPUT_BYTES, code: 0, stderr: '' });
    expect(growth).toBeLessThan(MAX_RSS_GROWTH);
  });

  it(`holds a TTY container back instead of buffering: ${LARGE_OUTPUT_BYTES} bytes to an attached client-go`, async () => {
    const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', daemon!.endpoint, ...args]);
    // The container waits long enough for the attach to be in place before it writes, then exits.
    const r = await go(['run-container', '-pod', podId, '-name', `tty-writer-${process.pid}-3b9d6c1e-7a2f-4e80-b5c4-9d1e2f3a4b5c`,
      '-tty', '-stdin', '-image', rigEnv().ISULATS_TEST_BUSYBOX, '--', 'sh', '-c', `sleep 4; head -c ${LARGE_OUTPUT_BYTES} /dev/zero`]);
    expect(r.stderr).toBe('');
    const { containerId: writer } = JSON.parse(r.stdout) as { containerId: string };
    const { result, growth } = await rssGrowthDuring(daemon!.pid, () => throughSlowReader(
      [bin, '-endpoint', daemon!.endpoint, 'attach', '-tty', '-id', writer], TTY_PAUSE_S));
    expect(result).toEqual({ bytes: LARGE_OUTPUT_BYTES, code: 0, stderr: '' });
    expect(growth).toBeLessThan(MAX_RSS_GROWTH);
  });
});
