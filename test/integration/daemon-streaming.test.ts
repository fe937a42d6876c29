// The daemon's streaming server end to end: the daemon runs in-process over
// the embedded engine (temp root/state, our own CNI bridge, a busybox image
// built from busybox-static), a client drives it over gRPC (RemoteBackend to
// the daemon socket) and streams over WebSocket and SPDY with our own
// streaming client, into real containers run by runc and conmon.
import http from 'node:http';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteBackend } from '../../src/client/remote.js';
import { EmbeddedBackend } from '../../src/client/embedded.js';
import { adminExtras, adminInfo } from '../../src/client/admin-client.js';
import { runRemoteCommand, startPortForward, upgradeToSpdy } from '../../src/client/streaming/index.js';
import { HEADER_STREAM_TYPE, SPDY_REMOTECOMMAND_PROTOCOLS, STREAM_TYPE } from '../../src/protocols/remotecommand/index.js';
import type { SpdyConnection } from '../../src/protocols/spdy/index.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';
import { IsulatsError } from '../../src/runtime/errors.js';
import { processesMentioning } from '../rig/host-cleanup.js';
import { BUSYBOX_REF, leases, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

// Short enough to test expiry, long enough for 100 sessions started at once on 2 cores (10 s
// was not, on a machine busy with other work: the last URLs were used after they expired).
const TOKEN_TTL_MS = 20_000;

function sink(): { stream: PassThrough; text: () => string; bytes: () => Buffer } {
  const stream = new PassThrough();
  const parts: Buffer[] = [];
  stream.on('data', (b: Buffer) => parts.push(b));
  return { stream, text: () => Buffer.concat(parts).toString(), bytes: () => Buffer.concat(parts) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('isulats daemon: streaming over the embedded engine', () => {
  let fx: RuntimeFixture;
  let daemon: Daemon;
  let client: RemoteBackend;
  let endpoint: string;
  let podSandboxId = '';
  let web = '';
  const logs: string[] = [];

  beforeAll(async () => {
    fx = await openFixture();
    const base = resolveDaemonConfig({}, {
      socket: join(fx.dir, 'd.sock'), pidfile: join(fx.dir, 'd.pid'), root: fx.options.root, state: fx.options.state,
    });
    daemon = await startDaemon({
      // Port 0: a free port, so tests never clash with a daemon on 10350.
      config: { ...base, websocketServerListeningPort: 0 },
      backendFactory: async () => new EmbeddedBackend(fx.engine, `embedded (${fx.options.root})`),
      log: createLogger('debug', (line) => logs.push(line)),
      shutdownGraceMs: 5_000,
      streaming: { tokenTtlMs: TOKEN_TTL_MS },
    });
    endpoint = daemon.endpoints[0]!;
    client = new RemoteBackend({ runtimeEndpoint: endpoint, timeoutMs: 30_000 });
    const pod = podConfig('stream');
    ({ podSandboxId } = await client.runPodSandbox({ config: pod }));
    ({ containerId: web } = await client.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: {
        metadata: { name: 'web' },
        image: { image: BUSYBOX_REF },
        command: ['sh', '-c', 'mkdir -p /www && echo hello-from-pod > /www/index.html && httpd -p 8080 -h /www && httpd -p 127.0.0.1:8081 -h /www && exec sleep 3600'],
      },
    }));
    await client.startContainer({ containerId: web });
  }, 180_000);

  afterAll(async () => {
    if (podSandboxId) {
      await client?.stopPodSandbox({ podSandboxId }).catch(() => undefined);
      await client?.removePodSandbox({ podSandboxId }).catch(() => undefined);
    }
    await client?.close();
    await daemon?.stop();
    if (fx) {
      // The daemon closed the engine it served; clean up through a fresh one.
      await fx.reopen();
      const net = fx.net;
      const dir = fx.dir;
      const state = fx.options.state;
      expect(await readdir(join(state, 'exec')).catch(() => [])).toEqual([]);
      expect(await leases(net)).toEqual([]);
      await fx.dispose();
      expect(await mountsUnder(dir)).toEqual([]);
      expect(await processesMentioning(dir)).toEqual([]);
    }
  }, 120_000);

  it('serves its streaming URLs from 127.0.0.1 on the configured port', () => {
    expect(daemon.streamingUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  for (const transport of ['websocket', 'spdy'] as const) {
    it(`runs exec with stdin, stdout, stderr and the exit code over ${transport}`, async () => {
      const { url } = await client.exec({ containerId: web, cmd: ['sh', '-c', 'cat; echo to-stderr >&2; exit 3'], stdin: true, stdout: true, stderr: true });
      expect(url.startsWith(`${daemon.streamingUrl}/exec/`)).toBe(true);
      const out = sink();
      const err = sink();
      const res = await runRemoteCommand(url, { transport, stdin: Readable.from([Buffer.from(`piped over ${transport}\n`)]), stdout: out.stream, stderr: err.stream, tty: false });
      expect(res).toEqual({ exitCode: 3, transport });
      expect(out.text()).toBe(`piped over ${transport}\n`);
      expect(err.text()).toBe('to-stderr\n');
    });

    it(`runs exec on a TTY and applies resizes over ${transport}`, async () => {
      const { url } = await client.exec({ containerId: web, cmd: ['sh'], stdin: true, stdout: true, tty: true });
      const stdin = new PassThrough();
      const out = sink();
      let resized!: () => void;
      const second = new Promise<void>((r) => (resized = r));
      async function* sizes() {
        yield { width: 90, height: 33 };
        await second;
        yield { width: 120, height: 50 };
      }
      const done = runRemoteCommand(url, { transport, stdin, stdout: out.stream, tty: true, resize: sizes() });
      await sleep(700);
      stdin.write('[ -t 0 ] && echo is-a-tty; stty size\n');
      await waitText(out.text, '33 90');
      resized();
      await sleep(500);
      stdin.write('stty size; exit 5\n');
      expect((await done).exitCode).toBe(5);
      expect(out.text()).toContain('is-a-tty');
      expect(out.text()).toContain('50 120');
    });
  }

  for (const transport of ['websocket', 'spdy'] as const) {
    it(`attaches to a container with stdin over ${transport} until it exits`, async () => {
      const pod = podConfig('stream');
      const { containerId } = await client.createContainer({
        podSandboxId,
        sandboxConfig: pod,
        config: {
          metadata: { name: `reader-${transport}` },
          image: { image: BUSYBOX_REF },
          command: ['sh', '-c', 'while read l; do echo "got $l"; [ "$l" = quit ] && exit 4; done'],
          stdin: true,
        },
      });
      await client.startContainer({ containerId });
      try {
        const out = sink();
        const stdin = new PassThrough();
        const { url } = await client.attach({ containerId, stdin: true, stdout: true });
        expect(url.startsWith(`${daemon.streamingUrl}/attach/`)).toBe(true);
        const session = runRemoteCommand(url, { transport, stdin, stdout: out.stream, tty: false });
        await sleep(300);
        stdin.write('one\n');
        await waitText(out.text, 'got one');
        stdin.write('quit\n');
        // Attach reports Success as kubelet does; the exit code is the container's status.
        expect((await session).exitCode).toBe(0);
        expect(out.text()).toBe('got one\ngot quit\n');
        expect((await client.containerStatus({ containerId })).status?.exitCode).toBe(4);
      } finally {
        await client.removeContainer({ containerId }).catch(() => undefined);
      }
    });
  }

  for (const transport of ['spdy', 'websocket'] as const) {
    it(`forwards a port to busybox httpd in the pod over ${transport}`, async () => {
      const { url } = await client.portForward({ podSandboxId, port: [8080] });
      expect(url.startsWith(`${daemon.streamingUrl}/portforward/`)).toBe(true);
      const session = await startPortForward(url, [{ localPort: 0, remotePort: 8080 }], { transport });
      try {
        const body = await waitForHttp(session.ports[0]!.localPort);
        expect(body).toBe('hello-from-pod\n');
      } finally {
        await session.close();
      }
    });
  }

  it('forwards a port bound only to the pod\'s loopback (through the netns relay)', async () => {
    const { url } = await client.portForward({ podSandboxId, port: [8081] });
    const session = await startPortForward(url, [{ localPort: 0, remotePort: 8081 }], { transport: 'spdy' });
    try {
      expect(await waitForHttp(session.ports[0]!.localPort)).toBe('hello-from-pod\n');
    } finally {
      await session.close();
    }
  });

  it('accepts a streaming URL once, and not after it expired', async () => {
    const req = { containerId: web, cmd: ['true'], stdout: true };
    const { url } = await client.exec(req);
    expect((await runRemoteCommand(url, { transport: 'websocket', stdout: sink().stream, tty: false })).exitCode).toBe(0);
    await expect(runRemoteCommand(url, { transport: 'websocket', stdout: sink().stream, tty: false })).rejects.toThrow(/404/);
    const { url: late } = await client.exec(req);
    // A TTY exec starts with its URL (its monitor, ttyexec, starts at once); left unused, it is ended at expiry.
    const marker = `/tmp/unused-${process.pid}`;
    const { url: unused } = await client.exec({ containerId: web, cmd: ['sh', '-c', `touch ${marker}`], stdout: true, tty: true });
    const links = async () => (await readdir(join(fx.options.state, 'sk'))).filter((n) => n.startsWith(`${web.slice(0, 12)}-`));
    await waitUntil(async () => (await links()).length === 1, 'the unused exec\'s monitor');
    await sleep(TOKEN_TTL_MS + 200);
    await expect(runRemoteCommand(late, { transport: 'spdy', stdout: sink().stream, tty: false })).rejects.toThrow(/404/);
    await expect(runRemoteCommand(unused, { transport: 'spdy', stdout: sink().stream, tty: true })).rejects.toThrow(/404/);
    await waitUntil(async () => (await links()).length === 0 && (await readdir(join(fx.options.state, 'exec'))).length === 0, 'the unused session cleaned up');
    await waitUntil(async () => (await processesMentioning(join(fx.options.state, 'exec'))).length === 0, 'the unused exec monitor gone');
    expect((await client.execSync({ containerId: web, cmd: ['test', '-e', marker] })).exitCode).toBe(1);
  }, 60_000);

  it('hands out streaming URLs to a runtime.v1alpha2 client too', async () => {
    const old = new RemoteBackend({ runtimeEndpoint: endpoint, timeoutMs: 30_000, apiVersion: 'v1alpha2' });
    try {
      const { url } = await old.exec({ containerId: web, cmd: ['echo', 'from-v1alpha2'], stdout: true });
      const out = sink();
      expect((await runRemoteCommand(url, { transport: 'spdy', stdout: out.stream, tty: false })).exitCode).toBe(0);
      expect(out.text()).toBe('from-v1alpha2\n');
    } finally {
      await old.close();
    }
  });

  it('reports 137 for a TTY exec killed by SIGKILL', async () => {
    const { url } = await client.exec({ containerId: web, cmd: ['sh', '-c', 'echo up; kill -9 $$'], stdout: true, tty: true });
    const out = sink();
    expect((await runRemoteCommand(url, { transport: 'spdy', stdout: out.stream, tty: true })).exitCode).toBe(137);
    expect(out.text()).toBe('up\r\n');
  });

  describe('a TTY exec over SPDY whose client opens its streams one at a time', () => {
    // The exec's monitor starts from the Exec answer on, while client-go comes and opens error, stdout
    // and resize streams one reply after another; the command waits until all of them are open.
    const links = async () => (await readdir(join(fx.options.state, 'sk'))).filter((n) => n.startsWith(`${web.slice(0, 12)}-`));
    const ran = async (marker: string) => (await client.execSync({ containerId: web, cmd: ['test', '-e', marker] })).exitCode === 0;
    async function openWithErrorStreamOnly(marker: string): Promise<SpdyConnection> {
      const { url } = await client.exec({ containerId: web, cmd: ['sh', '-c', `touch ${marker}; echo ran-${marker}`], stdout: true, tty: true });
      const { connection } = await upgradeToSpdy(url, SPDY_REMOTECOMMAND_PROTOCOLS, { method: 'POST' });
      connection.on('error', () => {});
      await connection.createStream({ [HEADER_STREAM_TYPE]: STREAM_TYPE.error }).waitReply(10_000);
      // The exec's monitor and its session link are up while two streams are still missing.
      await waitUntil(async () => (await links()).length === 1, 'the exec session\'s link');
      return connection;
    }

    it('boots the monitor before the last stream opens and runs the command once it has', async () => {
      const marker = `/tmp/early-${process.pid}-a`;
      const connection = await openWithErrorStreamOnly(marker);
      try {
        await sleep(300);
        expect(await ran(marker)).toBe(false);
        const stdout = connection.createStream({ [HEADER_STREAM_TYPE]: STREAM_TYPE.stdout });
        const out = sink();
        stdout.pipe(out.stream);
        const resize = connection.createStream({ [HEADER_STREAM_TYPE]: STREAM_TYPE.resize });
        await resize.waitReply(10_000);
        await waitText(out.text, `ran-${marker}`);
        expect(out.text()).toBe(`ran-${marker}\r\n`);
        expect(await ran(marker)).toBe(true);
      } finally {
        connection.destroy();
      }
      await waitUntil(async () => (await links()).length === 0 && (await readdir(join(fx.options.state, 'exec'))).length === 0, 'the session cleaned up');
    });

    it('runs nothing and leaves nothing behind when the client leaves before opening them all', async () => {
      const marker = `/tmp/early-${process.pid}-b`;
      const connection = await openWithErrorStreamOnly(marker);
      connection.destroy();
      await waitUntil(async () => (await links()).length === 0 && (await readdir(join(fx.options.state, 'exec'))).length === 0, 'the session cleaned up');
      await waitUntil(async () => (await processesMentioning(join(fx.options.state, 'exec'))).length === 0, 'the exec monitor gone');
      await sleep(500);
      expect(await ran(marker)).toBe(false);
    });
  });

  it('answers Exec for unknown containers and bad stream options with the right codes', async () => {
    await expect(client.exec({ containerId: 'f'.repeat(64), cmd: ['true'], stdout: true })).rejects.toMatchObject({ kind: 'not-found' });
    await expect(client.exec({ containerId: web, cmd: ['true'], stdout: true, stderr: true, tty: true })).rejects.toMatchObject({ kind: 'invalid-argument' });
    await expect(client.portForward({ podSandboxId: 'f'.repeat(64), port: [80] })).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('carries 100 concurrent exec sessions, each payload byte for byte', async () => {
    const runs = Array.from({ length: 100 }, async (_, i) => {
      const payload = Buffer.from(`${i}:`.padEnd(4096 + i * 13, String.fromCharCode(97 + (i % 26))));
      const { url } = await client.exec({ containerId: web, cmd: ['cat'], stdin: true, stdout: true });
      const out = sink();
      const transport = i % 2 ? 'spdy' : 'websocket';
      // WebSocket v5 half-closes stdin; SPDY sends FIN: both let cat see EOF.
      const res = await runRemoteCommand(url, { transport, stdin: Readable.from([payload]), stdout: out.stream, tty: false, timeoutMs: 120_000 });
      return res.exitCode === 0 && out.bytes().equals(payload);
    });
    const results = await Promise.all(runs);
    expect(results.filter((ok) => !ok).length).toBe(0);
  }, 240_000);

  it('serves the admin service next to CRI', async () => {
    const info = await adminInfo(endpoint, 10_000);
    expect(info.streamingUrl).toBe(daemon.streamingUrl);
    expect(info.endpoints).toEqual(daemon.endpoints);
    expect(info.conditions.map((c) => c.type)).toEqual(['RuntimeReady', 'NetworkReady']);
    const extras = adminExtras(endpoint, 10_000)!;
    const pids = await extras.topContainer!(web);
    expect(pids.length).toBeGreaterThan(0);
    await expect(extras.killContainer!('f'.repeat(64), 'SIGTERM')).rejects.toBeInstanceOf(IsulatsError);
  });
});


async function waitText(text: () => string, needle: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!text().includes(needle)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(needle)} in ${JSON.stringify(text())}`);
    await sleep(50);
  }
}

/** GET / through the forwarded port; httpd may still be starting, so a few bounded tries. */
async function waitForHttp(port: number): Promise<string> {
  let last: unknown;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      return await new Promise<string>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 5_000 }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(parts).toString()) : reject(new Error(`HTTP ${res.statusCode}`))));
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', reject);
      });
    } catch (err) {
      last = err;
      await sleep(250);
    }
  }
  throw last;
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
