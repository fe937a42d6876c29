// How the daemon plugs in its streaming server and admin service, over its
// real unix socket, with fake backends (pure logic: no engine): Exec/Attach/
// PortForward answer with our one-time URLs only for a backend that streams
// in-process, the admin service serves the backend's extras, and a runtime
// without the admin service reads as "not supported".
import { mkdtempSync, rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CriBackend, StreamIO } from '../../src/client/backend.js';
import { adminExtras, adminInfo, probeAdminExtras } from '../../src/client/admin-client.js';
import { RemoteBackend } from '../../src/client/remote.js';
import { runRemoteCommand } from '../../src/client/streaming/index.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';
import { notFound } from '../../src/runtime/errors.js';

const RUNNING = 'a'.repeat(64);
const EXITED = 'b'.repeat(64);
const POD = 'c'.repeat(64);

function fakeBackend(inProcess: boolean): CriBackend {
  const backend = {
    kind: inProcess ? 'embedded' : 'remote', target: 'fake', apiVersion: async () => 'v1', close: async () => undefined,
    version: async () => ({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1', runtimeApiVersion: 'v1' }),
    status: async () => ({ status: { conditions: [{ type: 'RuntimeReady', status: true, reason: '', message: '' }] }, info: {} }),
    containerStatus: async ({ containerId }: { containerId: string }) => {
      if (RUNNING.startsWith(containerId)) return { status: { id: RUNNING, state: 'CONTAINER_RUNNING' } };
      if (containerId === EXITED) return { status: { id: EXITED, state: 'CONTAINER_EXITED' } };
      throw notFound(`container ${containerId} not found`);
    },
    podSandboxStatus: async () => ({ status: { id: POD, state: 'SANDBOX_READY' } }),
    exec: async () => ({ url: 'http://proxied.example/exec/abc' }),
    attach: async () => ({ url: 'http://proxied.example/attach/abc' }),
    portForward: async () => ({ url: 'http://proxied.example/portforward/abc' }),
    extras: inProcess ? { topContainer: async (id: string) => (id === RUNNING ? [11, 12] : []) } : undefined,
  } as Record<string, unknown>;
  if (inProcess) {
    backend.streamInProcess = async (_kind: string, req: { containerId: string; cmd?: string[] }, io: StreamIO) => {
      io.stdout?.write(`${req.containerId.slice(0, 4)} ${(req.cmd ?? []).join(' ')}`);
      return 0;
    };
  }
  return backend as unknown as CriBackend;
}

async function start(inProcess: boolean): Promise<{ daemon: Daemon; dir: string; client: RemoteBackend }> {
  const dir = mkdtempSync('/tmp/ist-dsa-');
  const base = resolveDaemonConfig({}, { socket: `${dir}/d.sock`, pidfile: `${dir}/d.pid`, root: dir, state: dir });
  const daemon = await startDaemon({
    config: { ...base, websocketServerListeningPort: 0 },
    backendFactory: async () => fakeBackend(inProcess),
    log: createLogger('error', () => undefined),
    shutdownGraceMs: 2000,
  });
  return { daemon, dir, client: new RemoteBackend({ runtimeEndpoint: daemon.endpoints[0]!, timeoutMs: 5000 }) };
}

describe('daemon with a backend that streams in-process', () => {
  let d: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => { d = await start(true); });
  afterAll(async () => {
    await d?.client.close();
    await d?.daemon.stop();
    if (d) rmSync(d.dir, { recursive: true, force: true });
  });

  it('answers Exec with a one-time URL of its streaming server, for the full container ID', async () => {
    const { url } = await d.client.exec({ containerId: 'aaaa', cmd: ['echo', 'hi'], stdout: true });
    expect(url.startsWith(`${d.daemon.streamingUrl}/exec/`)).toBe(true);
    const out = new PassThrough();
    const parts: Buffer[] = [];
    out.on('data', (b: Buffer) => parts.push(b));
    expect((await runRemoteCommand(url, { transport: 'spdy', stdout: out, tty: false })).exitCode).toBe(0);
    expect(Buffer.concat(parts).toString()).toBe('aaaa echo hi');
  });

  it('answers Attach and PortForward with its own URLs', async () => {
    expect((await d.client.attach({ containerId: RUNNING, stdout: true })).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/attach\//);
    expect((await d.client.portForward({ podSandboxId: POD, port: [80] })).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/portforward\//);
  });

  it.each([
    ['an unknown container', { containerId: 'f'.repeat(64), cmd: ['true'], stdout: true }, 'not-found'],
    ['an exited container', { containerId: EXITED, cmd: ['true'], stdout: true }, 'failed-precondition'],
    ['tty with stderr', { containerId: RUNNING, cmd: ['true'], stdout: true, stderr: true, tty: true }, 'invalid-argument'],
    ['no streams', { containerId: RUNNING, cmd: ['true'] }, 'invalid-argument'],
  ])('refuses Exec for %s', async (_what, req, kind) => {
    await expect(d.client.exec(req)).rejects.toMatchObject({ kind });
  });

  it('serves Info with the config, endpoints, streaming URL and conditions', async () => {
    const info = await adminInfo(d.daemon.endpoints[0]!, 5000);
    expect(info).toMatchObject({ pid: process.pid, endpoints: d.daemon.endpoints, streamingUrl: d.daemon.streamingUrl, backend: 'fake' });
    expect(info.config.websocketServerListeningPort).toBe(0);
    expect(info.conditions).toEqual([{ type: 'RuntimeReady', status: true, reason: '', message: '' }]);
  });

  it('serves the backend extras and says which ones the backend lacks', async () => {
    const extras = (await probeAdminExtras(d.daemon.endpoints[0]!, 5000))!;
    expect(await extras.topContainer!(RUNNING)).toEqual([11, 12]);
    await expect(extras.pauseContainer!(RUNNING)).rejects.toThrow(/PauseContainer is not supported by this runtime/);
  });
});

describe('daemon proxying a runtime that hands out its own URLs', () => {
  let d: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => { d = await start(false); });
  afterAll(async () => {
    await d?.client.close();
    await d?.daemon.stop();
    if (d) rmSync(d.dir, { recursive: true, force: true });
  });

  it('runs no streaming server and passes the URLs through', async () => {
    expect(d.daemon.streamingUrl).toBeUndefined();
    expect((await d.client.exec({ containerId: RUNNING, cmd: ['true'], stdout: true })).url).toBe('http://proxied.example/exec/abc');
  });
});

describe('admin client against a runtime without the admin service', () => {
  let server: grpc.Server;
  let endpoint: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync('/tmp/ist-dsf-');
    server = new grpc.Server();
    endpoint = `unix://${dir}/f.sock`;
    await new Promise<void>((resolve, reject) => server.bindAsync(endpoint, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports every extra as not supported by this runtime', async () => {
    await expect(adminInfo(endpoint, 5000)).rejects.toThrow(/Info is not supported by this runtime/);
    expect(await probeAdminExtras(endpoint, 5000)).toBeUndefined();
    await expect(adminExtras(endpoint, 5000)!.nriPlugins!()).rejects.toMatchObject({ kind: 'unimplemented', message: expect.stringMatching(/ListNriPlugins is not supported by this runtime/) });
  });

  it('has no extras for a malformed endpoint', () => {
    expect(adminExtras('ftp://nowhere', 1000)).toBeUndefined();
  });
});
