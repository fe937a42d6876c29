// Hostile clients against a real `isulats daemon`, each at the limit the daemon puts on it
// (src/daemon/limits.ts): connections that never send a request, connections idle after
// their calls, more connections than the cap, the process out of file descriptors, a SPDY
// header block that inflates past 1 MiB and WebSocket messages past 32 MiB. Each time the
// daemon keeps answering other clients and is left with nothing behind (no descriptors held,
// no socket in CLOSE-WAIT), its socket and pid file in place.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import http2 from 'node:http2';
import net from 'node:net';
import zlib from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame, encodeHeaderBlock, SPDY3_DICTIONARY } from '../../src/protocols/spdy/index.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { processesMentioning } from '../rig/host-cleanup.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { run } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';

const HANDSHAKE_MS = 10_000;
const IDLE_MS = 6_000;
const MAX_CONNECTIONS = 48;
const STREAM_IDLE_MS = 8_000;
const MiB = 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let daemon: IsulatsDaemon;
let cri: RawCriClient;
let containerId = '';
let podId = '';

beforeAll(async () => {
  const env = rigEnv();
  daemon = await startIsulatsDaemon({
    podSandboxImage: env.ISULATS_TEST_PAUSE,
    env: {
      ISULATS_GRPC_HANDSHAKE_TIMEOUT_MS: String(HANDSHAKE_MS),
      ISULATS_GRPC_IDLE_TIMEOUT_MS: String(IDLE_MS),
      ISULATS_MAX_GRPC_CONNECTIONS: String(MAX_CONNECTIONS),
      ISULATS_STREAM_IDLE_TIMEOUT_MS: String(STREAM_IDLE_MS),
    },
  });
  cri = openCriClient(daemon.endpoint);
  const bin = goToolPath('go-cri-client');
  const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', daemon.endpoint, ...args]);
  expect((await go(['pull', '-image', env.ISULATS_TEST_BUSYBOX])).code).toBe(0);
  const r = await go(['run-pod-container', '-name', `limits-${process.pid}-3b1c9e52-7a4d-4f60-8e21-5c6d7e8f9a0b`,
    '-label', 'limits', '-image', env.ISULATS_TEST_BUSYBOX, '--', 'sleep', '3600']);
  expect(r.stderr).toBe('');
  ({ containerId, podId } = JSON.parse(r.stdout) as { containerId: string; podId: string });
}, 180_000);

afterAll(async () => {
  cri?.close();
  await daemon?.cleanup();
}, 120_000);

function connectRaw(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(daemon.socket, () => resolve(s));
    // Read (and drop) what the daemon sends, so its close is seen.
    s.resume();
    s.once('error', reject);
  });
}

function closed(s: net.Socket): Promise<void> {
  return s.destroyed ? Promise.resolve() : once(s, 'close').then(() => undefined);
}

/** Resolves with `what` once `p` settles within `ms`, else with 'timeout' (bounded waits, no timing assertions). */
function within<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)))]).finally(() => clearTimeout(timer));
}

async function openFds(pid: number): Promise<number> {
  return (await readdir(`/proc/${pid}/fd`)).length;
}

async function rssBytes(pid: number): Promise<number> {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

/** The daemon's TCP sockets in CLOSE-WAIT (a peer left and the daemon never closed its side). */
async function closeWaitSockets(): Promise<number> {
  const r = await run('ss', ['-Htnp', 'state', 'close-wait'], { check: false });
  return r.stdout.split('\n').filter((l) => l.includes(`pid=${daemon.pid},`)).length;
}

async function version(client: RawCriClient = cri): Promise<string> {
  return (await client.runtime('Version', {}, 10_000)).runtimeName as string;
}

/** A Version call on a connection of its own (grpc-js would otherwise share the open one); 'ok' or the error. */
function versionOnNewConnection(): Promise<string> {
  const client = new grpc.Client(daemon.endpoint, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  return new Promise<string>((resolve) => {
    client.makeUnaryRequest('/runtime.v1.RuntimeService/Version', (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0),
      { deadline: Date.now() + 10_000 }, (err) => resolve(err ? `${grpc.status[err.code]}: ${err.details}` : 'ok'));
  }).finally(() => client.close());
}

describe('gRPC connections', () => {
  it('closes a connection that sends nothing, or only the HTTP/2 preface, within the handshake timeout', async () => {
    const silent = await connectRaw();
    const prefaceOnly = await connectRaw();
    prefaceOnly.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    expect(await within(Promise.all([closed(silent), closed(prefaceOnly)]), HANDSHAKE_MS * 6)).not.toBe('timeout');
    expect(await version()).toBe('isulats');
  }, 120_000);

  it('closes a connection idle after its last call with GOAWAY (no error), and a new one is served', async () => {
    const session = http2.connect('http://localhost', { createConnection: () => net.connect(daemon.socket) });
    session.on('error', () => undefined);
    const goaway = once(session, 'goaway') as Promise<[number]>;
    const req = session.request({ ':method': 'POST', ':path': '/runtime.v1.RuntimeService/Version', 'content-type': 'application/grpc', te: 'trailers' });
    const trailers = once(req, 'trailers') as Promise<[Record<string, string>]>;
    req.end(Buffer.alloc(5));
    req.resume();
    expect((await trailers)[0]['grpc-status']).toBe('0');
    const got = await within(goaway, IDLE_MS * 10);
    expect(got).not.toBe('timeout');
    expect((got as [number])[0]).toBe(http2.constants.NGHTTP2_NO_ERROR);
    expect(await within(once(session, 'close'), 30_000)).not.toBe('timeout');
    expect(await version()).toBe('isulats');
  }, 120_000);

  it(`refuses connections past ${MAX_CONNECTIONS} with GOAWAY ENHANCE_YOUR_CALM naming the reason, and serves again once they close`, async () => {
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS; i++) held.push(await connectRaw());
      for (const s of held) s.on('error', () => undefined);
      const probe = await connectRaw();
      const bytes: Buffer[] = [];
      probe.on('data', (b: Buffer) => bytes.push(b));
      expect(await within(closed(probe), 30_000)).not.toBe('timeout');
      const all = Buffer.concat(bytes);
      // SETTINGS (9 bytes, empty), then GOAWAY: last stream 0, ENHANCE_YOUR_CALM, the reason.
      expect(all[3]).toBe(0x4);
      expect(all[9 + 3]).toBe(0x7);
      expect(all.readUInt32BE(9 + 9 + 4)).toBe(0xb);
      expect(all.subarray(9 + 9 + 8).toString()).toBe(`isulats: too many connections (at most ${MAX_CONNECTIONS} at once); try again later`);
      // A gRPC client is told so: grpc-js answers the call RESOURCE_EXHAUSTED (ENHANCE_YOUR_CALM), not UNAVAILABLE.
      expect(await versionOnNewConnection()).toMatch(/^RESOURCE_EXHAUSTED: /);
    } finally {
      for (const s of held) s.destroy();
    }
    await waitFor(async () => (await versionOnNewConnection()) === 'ok', { timeoutMs: 30_000, what: 'a new client served' });
    expect(await readFile(daemon.logPath, 'utf8')).toMatch(/"msg":"refused connections: too many open"/);
  }, 120_000);
});

describe('out of file descriptors', () => {
  it('keeps answering on open connections while it has none left, then new ones, its socket and pid file in place', async () => {
    const pid = daemon.pid;
    expect(await version()).toBe('isulats');
    const before = await openFds(pid);
    const limits = (await run('prlimit', ['--pid', String(pid), '--nofile', '--raw', '--noheadings', '--output', 'SOFT,HARD'])).stdout.trim().split(/\s+/);
    const held = new Set<net.Socket>();
    let holding = true;
    // Keep ~80 connections pending for 25 s (two idle-trim periods): the daemon can accept only a
    // few of them, and each it drops (handshake timeout) is replaced at once.
    const holder = (async () => {
      while (holding) {
        while (holding && held.size < 80) {
          const s = net.connect(daemon.socket);
          s.on('error', () => undefined);
          s.once('close', () => held.delete(s));
          held.add(s);
        }
        await sleep(200);
      }
    })();
    await run('prlimit', ['--pid', String(pid), `--nofile=${before + 12}:${limits[1]}`]);
    const answers: string[] = [];
    try {
      const until = Date.now() + 25_000;
      while (Date.now() < until) {
        answers.push(await version().catch((e: Error) => `failed: ${e.message}`));
        await sleep(1_000);
      }
    } finally {
      holding = false;
      await holder;
      for (const s of held) s.destroy();
      await run('prlimit', ['--pid', String(pid), `--nofile=${limits[0]}:${limits[1]}`], { check: false });
    }
    expect(answers.length).toBeGreaterThan(5);
    expect(answers.filter((a) => a !== 'isulats')).toEqual([]);
    expect(daemon.pid).toBe(pid);
    expect(existsSync(`/proc/${pid}`)).toBe(true);
    expect(existsSync(daemon.socket)).toBe(true);
    expect(existsSync(daemon.pidfile)).toBe(true);
    // A new client is served, and the descriptors the flood took are given back.
    await waitFor(async () => (await versionOnNewConnection()) === 'ok', { timeoutMs: 30_000, what: 'a new client served' });
    await waitFor(async () => (await openFds(pid)) <= before + 4, { timeoutMs: HANDSHAKE_MS * 6, what: 'the daemon\'s descriptors back to where they were' });
    const log = await readFile(daemon.logPath, 'utf8');
    expect(log).not.toMatch(/survived an error no code caught/);
  }, 180_000);
});

/** Upgrades a port-forward URL to SPDY/3.1 by hand; the socket once the server said 101. */
async function spdyUpgrade(url: string): Promise<net.Socket> {
  const u = new URL(url);
  const socket = net.connect(Number(u.port), u.hostname);
  await once(socket, 'connect');
  socket.write(`POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: portforward.k8s.io\r\nContent-Length: 0\r\n\r\n`);
  let head = '';
  while (!head.includes('\r\n\r\n')) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    head += chunk.toString('latin1');
  }
  expect(head).toMatch(/^HTTP\/1\.1 101/);
  return socket;
}

describe('streaming', () => {
  it('closes a SPDY session whose header block inflates past 1 MiB, leaving no socket in CLOSE-WAIT, and keeps serving others', async () => {
    const bomb = zlib.deflateSync(encodeHeaderBlock({ streamtype: 'data', port: '80', x: 'a'.repeat(8 * MiB) }),
      { dictionary: SPDY3_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const sessions: net.Socket[] = [];
    const ended: Array<Promise<unknown>> = [];
    for (let i = 0; i < 10; i++) {
      const { url } = await cri.runtime('PortForward', { podSandboxId: podId, port: [80] });
      const socket = await spdyUpgrade(url as string);
      socket.on('error', () => undefined);
      ended.push(once(socket, 'end'));
      socket.resume();
      socket.write(encodeFrame({ type: 'syn_stream', streamId: 1, associatedId: 0, priority: 0, slot: 0, flags: 0, headerBlock: bomb }));
      sessions.push(socket);
    }
    // The daemon ends each session itself (GOAWAY, then its FIN): the client has not left.
    expect(await within(Promise.all(ended), 30_000)).not.toBe('timeout');
    for (const s of sessions) s.destroy();
    await waitFor(async () => (await closeWaitSockets()) === 0, { timeoutMs: 30_000, what: 'no daemon socket in CLOSE-WAIT' });
    expect(await version()).toBe('isulats');
  }, 120_000);

  it('closes a WebSocket session sent a message past 32 MiB with 1009, that session only, and holds no memory for it', async () => {
    const pid = daemon.pid;
    const base = await rssBytes(pid);
    const huge = Buffer.alloc(48 * MiB);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const { url } = await cri.runtime('Exec', { containerId, cmd: ['sleep', '600'], stdin: true, stdout: true });
      const ws = new WebSocket((url as string).replace(/^http/, 'ws'), ['v5.channel.k8s.io'], { perMessageDeflate: false });
      ws.on('error', () => undefined);
      await once(ws, 'open');
      const closeCode = once(ws, 'close') as Promise<[number]>;
      ws.send(huge);
      const got = await within(closeCode, 30_000);
      codes.push(got === 'timeout' ? 0 : got[0]);
      ws.terminate();
    }
    expect(codes).toEqual([1009, 1009, 1009, 1009]);
    // Another session on the same server still runs to its end.
    const { url } = await cri.runtime('Exec', { containerId, cmd: ['echo', 'still-here'], stdout: true });
    const ws = new WebSocket((url as string).replace(/^http/, 'ws'), ['v5.channel.k8s.io'], { perMessageDeflate: false });
    const out: Buffer[] = [];
    ws.on('message', (m: Buffer) => { if (m[0] === 1) out.push(m.subarray(1)); });
    await once(ws, 'close');
    expect(Buffer.concat(out).toString()).toBe('still-here\n');
    // Refused at the frame header: the payload was never buffered.
    expect(await rssBytes(pid)).toBeLessThan(base + 64 * MiB);
  }, 240_000);

  /** Starts `sleep <seconds>` over a WebSocket exec; the socket once the process runs. */
  async function sleepingExec(seconds: number): Promise<WebSocket> {
    const { url } = await cri.runtime('Exec', { containerId, cmd: ['sleep', String(seconds)], stdout: true, stderr: true });
    const ws = new WebSocket((url as string).replace(/^http/, 'ws'), ['v5.channel.k8s.io'], { perMessageDeflate: false });
    ws.on('error', () => undefined);
    await once(ws, 'open');
    await waitFor(async () => (await processesMentioning(`sleep\0${seconds}`)).length === 1, { timeoutMs: 30_000, what: `sleep ${seconds} running` });
    return ws;
  }

  it('ends an exec\'s process when its client goes away', async () => {
    const ws = await sleepingExec(6173);
    ws.terminate();
    await waitFor(async () => (await processesMentioning('sleep\x006173')).length === 0, { timeoutMs: 30_000, what: 'the exec\'d process to end' });
  }, 120_000);

  it('closes a session with no byte either way for the idle timeout, and ends its process', async () => {
    const ws = await sleepingExec(6174);
    const got = await within(once(ws, 'close'), STREAM_IDLE_MS * 8);
    expect(got).not.toBe('timeout');
    await waitFor(async () => (await processesMentioning('sleep\x006174')).length === 0, { timeoutMs: 30_000, what: 'the exec\'d process to end' });
  }, 120_000);

  it('closes an attach\'s connection to conmon when its client goes away, with the container still running', async () => {
    const pid = daemon.pid;
    await sleep(500);
    const before = await openFds(pid);
    const { url } = await cri.runtime('Attach', { containerId, stdout: true, stderr: true });
    const ws = new WebSocket((url as string).replace(/^http/, 'ws'), ['v5.channel.k8s.io'], { perMessageDeflate: false });
    ws.on('error', () => undefined);
    await once(ws, 'open');
    // The session holds its socket and the attach socket to conmon.
    await waitFor(async () => (await openFds(pid)) >= before + 2, { timeoutMs: 30_000, what: 'the attach session\'s descriptors' });
    ws.terminate();
    await waitFor(async () => (await openFds(pid)) <= before, { timeoutMs: 30_000, what: 'the attach session\'s descriptors closed' });
    const status = await cri.runtime('ContainerStatus', { containerId });
    expect(status.status.state).toBe('CONTAINER_RUNNING');
  }, 120_000);
});
