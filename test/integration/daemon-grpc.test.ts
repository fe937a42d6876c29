// The daemon end to end: it serves a RemoteBackend proxy to the rig's real
// containerd, so every call here crosses the daemon's gRPC edge (both CRI
// versions, the :authority fix, limits) and reaches a real runtime.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:http2';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCriServices, type CriVersion } from '../../src/api/proto.js';
import { RemoteBackend } from '../../src/client/remote.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';
import { runCli } from '../rig/cli.js';
import { bundleDaemonFromSource } from '../rig/isulats-daemon.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

interface Answer { code: number; details?: string; res?: any }

/** One raw CRI call, so tests see the gRPC code itself. */
async function rawCall(
  socket: string, version: CriVersion, service: 'RuntimeService' | 'ImageService', method: string, req: object,
  options: grpc.ChannelOptions = {},
): Promise<Answer> {
  const svc = await loadCriServices(version);
  return new Promise((resolve) => {
    const client = new (svc[service] as any)(`unix://${socket}`, grpc.credentials.createInsecure(), options);
    client[method](req, { deadline: Date.now() + 20_000 }, (err: grpc.ServiceError | null, res: any) => {
      client.close();
      resolve(err ? { code: err.code, details: err.details } : { code: 0, res });
    });
  });
}

describe('isulats daemon over a real runtime', () => {
  let dir: string;
  let socket: string;
  let daemon: Daemon;
  const logs: string[] = [];

  beforeAll(async () => {
    const rig = rigEnv();
    dir = await makeTempDir('ist-dg-');
    socket = join(dir, 'd.sock');
    const config = resolveDaemonConfig({}, { socket, pidfile: join(dir, 'd.pid'), root: join(dir, 'root'), state: join(dir, 'state') });
    daemon = await startDaemon({
      config,
      backendFactory: async () => new RemoteBackend({ runtimeEndpoint: rig.ISULATS_TEST_CONTAINERD, timeoutMs: 60_000 }),
      log: createLogger('debug', (line) => logs.push(line)),
      shutdownGraceMs: 5_000,
    });
  });

  afterAll(async () => {
    await daemon?.stop();
    if (dir) await removeTempDir(dir);
  });

  it('answers Version over runtime.v1', async () => {
    const client = new RemoteBackend({ runtimeEndpoint: `unix://${socket}`, timeoutMs: 10_000 });
    try {
      const v = await client.version({ version: 'v1' });
      expect(v.runtimeName).toBe('containerd');
      expect(await client.apiVersion()).toBe('v1');
    } finally {
      await client.close();
    }
  });

  it('answers a client forced to runtime.v1alpha2, converting at the edge', async () => {
    const client = new RemoteBackend({ runtimeEndpoint: `unix://${socket}`, timeoutMs: 10_000, apiVersion: 'v1alpha2' });
    try {
      expect((await client.version({})).runtimeName).toBe('containerd');
      const pods = await client.listPodSandbox({});
      expect(Array.isArray(pods.items)).toBe(true);
    } finally {
      await client.close();
    }
    const served = logs.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request' && e.api === 'v1alpha2').map((e) => e.rpc);
    expect(served).toEqual(expect.arrayContaining(['Version', 'ListPodSandbox']));
  });

  it('runs a pod and a container end to end for a runtime.v1alpha2 client', async () => {
    const rig = rigEnv();
    const client = new RemoteBackend({ runtimeEndpoint: `unix://${socket}`, timeoutMs: 60_000, apiVersion: 'v1alpha2' });
    const config = {
      metadata: { name: 'dg-pod', uid: `uid-dg-${process.pid}`, namespace: 'daemon-test', attempt: 0 },
      logDirectory: join(dir, 'logs'),
      labels: { app: 'dg' },
      linux: { securityContext: { namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' } } },
    } as const;
    let podId = '';
    try {
      await client.pullImage({ image: { image: rig.ISULATS_TEST_BUSYBOX }, sandboxConfig: config });
      podId = (await client.runPodSandbox({ config })).podSandboxId;
      const { containerId } = await client.createContainer({
        podSandboxId: podId,
        config: { metadata: { name: 'sleeper', attempt: 0 }, image: { image: rig.ISULATS_TEST_BUSYBOX }, command: ['sleep', '3600'], labels: { role: 'sleeper' }, logPath: 'sleeper.log' },
        sandboxConfig: config,
      });
      await client.startContainer({ containerId });
      const exec = await client.execSync({ containerId, cmd: ['echo', 'hi'], timeout: '10' });
      expect(exec.stdout.toString()).toBe('hi\n');
      expect(exec.exitCode).toBe(0);
      const status = await client.containerStatus({ containerId });
      expect(status.status).toMatchObject({ id: containerId, state: 'CONTAINER_RUNNING', labels: { role: 'sleeper' } });
      const listed = await client.listContainers({ filter: { podSandboxId: podId } });
      expect(listed.containers.map((c: { id: string }) => c.id)).toEqual([containerId]);
      const pod = await client.podSandboxStatus({ podSandboxId: podId });
      expect(pod.status?.labels).toMatchObject({ app: 'dg' });
    } finally {
      if (podId) {
        await client.stopPodSandbox({ podSandboxId: podId });
        await client.removePodSandbox({ podSandboxId: podId });
      }
      await client.close();
    }
    expect((await rawCall(socket, 'v1', 'RuntimeService', 'PodSandboxStatus', { podSandboxId: podId })).code).toBe(grpc.status.NOT_FOUND);
  });

  it('lists the same pods as the runtime itself', async () => {
    const viaDaemon = await rawCall(socket, 'v1', 'RuntimeService', 'ListPodSandbox', {});
    const direct = await rawCall(rigEnv().ISULATS_TEST_CONTAINERD.slice('unix://'.length), 'v1', 'RuntimeService', 'ListPodSandbox', {});
    expect(viaDaemon.code).toBe(0);
    expect(viaDaemon.res.items.map((p: any) => p.id).sort()).toEqual(direct.res.items.map((p: any) => p.id).sort());
  });

  it('answers NotFound for an unknown container ID', async () => {
    const a = await rawCall(socket, 'v1', 'RuntimeService', 'ContainerStatus', { containerId: 'f'.repeat(64) });
    expect(a.code).toBe(grpc.status.NOT_FOUND);
  });

  it('answers InvalidArgument for empty IDs without asking the runtime', async () => {
    for (const [method, req] of [['ContainerStatus', { containerId: '' }], ['StopPodSandbox', { podSandboxId: '' }], ['RemoveContainer', {}]] as const) {
      const a = await rawCall(socket, 'v1', 'RuntimeService', method, req);
      expect(a.code, method).toBe(grpc.status.INVALID_ARGUMENT);
    }
    expect((await rawCall(socket, 'v1alpha2', 'RuntimeService', 'PodSandboxStatus', { podSandboxId: '' })).code).toBe(grpc.status.INVALID_ARGUMENT);
  });

  it('rejects a request over the message size limit and keeps serving', async () => {
    const huge = 'x'.repeat(17 * 1024 * 1024);
    const a = await rawCall(socket, 'v1', 'RuntimeService', 'ExecSync', { containerId: 'c', cmd: [huge] });
    expect(a.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect((await rawCall(socket, 'v1', 'RuntimeService', 'Version', {})).code).toBe(0);
  });

  it('serves a request whose :authority is the socket path (curl, as old Go clients send it)', async () => {
    // Exactly the reproduction from docs: without the fix this ends in RST_STREAM PROTOCOL_ERROR (curl exit 92).
    const out = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '--http2-prior-knowledge', '--unix-socket', socket, '-H', 'Host: /run/x.sock', 'http://localhost/'], { timeout: 10_000 })
      .then((r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }), (e) => ({ code: e.code as number, stdout: String(e.stdout), stderr: String(e.stderr) }));
    expect(out.stderr).not.toMatch(/PROTOCOL_ERROR/);
    expect(out.code).toBe(0);
    // A gRPC-level answer: grpc-js refuses a GET without application/grpc as 415.
    expect(out.stdout).toBe('415');
  });

  it('serves a raw HTTP/2 request and a real gRPC call with :authority set to the socket path', async () => {
    const session = connect('http://localhost', { createConnection: () => netConnect(socket) });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = session.request({ ':method': 'POST', ':path': '/runtime.v1.RuntimeService/Version', ':authority': socket, 'content-type': 'application/grpc', te: 'trailers' });
        req.setTimeout(10_000, () => reject(new Error('no answer within 10 s')));
        req.on('response', (h) => resolve(Number(h[':status'])));
        req.on('error', reject);
        req.end(Buffer.from([0, 0, 0, 0, 0]));
      });
      expect(status).toBe(200);
    } finally {
      session.close();
    }
    const a = await rawCall(socket, 'v1', 'RuntimeService', 'Version', {}, { 'grpc.default_authority': socket });
    expect(a.code).toBe(0);
    expect(a.res.runtimeName).toBe('containerd');
  });
});

describe('a daemon serving only runtime.v1alpha2 (enable-cri-v1: false)', () => {
  let dir: string;
  let socket: string;
  let daemon: Daemon;

  beforeAll(async () => {
    const rig = rigEnv();
    dir = await makeTempDir('ist-da-');
    socket = join(dir, 'd.sock');
    const config = resolveDaemonConfig({ enableCriV1: false }, { socket, pidfile: join(dir, 'd.pid'), root: join(dir, 'root'), state: join(dir, 'state') });
    daemon = await startDaemon({
      config,
      backendFactory: async () => new RemoteBackend({ runtimeEndpoint: rig.ISULATS_TEST_CONTAINERD, timeoutMs: 60_000 }),
      log: createLogger('error', () => {}),
      shutdownGraceMs: 5_000,
    });
  });

  afterAll(async () => {
    await daemon?.stop();
    if (dir) await removeTempDir(dir);
  });

  it('is found by a client that tries v1 first and falls back on UNIMPLEMENTED', async () => {
    const client = new RemoteBackend({ runtimeEndpoint: `unix://${socket}`, timeoutMs: 10_000 });
    try {
      const v = await client.version({ version: 'v1' });
      expect(v.runtimeApiVersion).toBe('v1alpha2');
      expect(await client.apiVersion()).toBe('v1alpha2');
      expect(Array.isArray((await client.listImages({})).images)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('serves the CLI unchanged: version and pods through the fallback', async () => {
    const v = await runCli(['-r', `unix://${socket}`, 'version']);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/RuntimeApiVersion:\s+v1alpha2/);
    const pods = await runCli(['-r', `unix://${socket}`, 'pods', '-o', 'json']);
    expect(pods.code).toBe(0);
    expect(JSON.parse(pods.stdout)).toHaveProperty('items');
  });
});

describe('isulats daemon as a process', () => {
  let dir: string;
  let bundle: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    dir = await makeTempDir('ist-dp-');
    // A runnable `isulats daemon` without the CLI registry.
    bundle = join(REPO, '.tmp', `ist-daemon-${process.pid}.mjs`);
    await bundleDaemonFromSource(bundle);
  });

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (bundle) await rm(bundle, { force: true });
    if (dir) await removeTempDir(dir);
  });

  it('validates a configuration and exits 0 or 1', async () => {
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    await writeFile(good, JSON.stringify({ 'log-level': 'warn', 'enable-cri-v1': true }));
    await writeFile(bad, JSON.stringify({ 'log-level': 'loud', colour: true }));
    const ok = await run(process.execPath, [bundle, '--config-file', good, '--root', join(dir, 'r'), '--validate']);
    expect(ok.stdout).toMatch(/configuration is valid/);
    const failed = await run(process.execPath, [bundle, '--config-file', bad, '--validate']).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/"log-level": expected one of/);
    expect(failed.stderr).toMatch(/"colour": unknown key/);
    const badFlag = await run(process.execPath, [bundle, '--config-file', good, '--root', 'relative', '--validate']).catch((e) => e);
    expect(badFlag.code).toBe(1);
    expect(badFlag.stderr).toMatch(/"--root": path must be absolute/);
  });

  it('appears when ready, holds the pid file, reloads the log level on SIGHUP and cleans up on SIGTERM', async () => {
    const socket = join(dir, 'p.sock');
    const pidfile = join(dir, 'p.pid');
    const configFile = join(dir, 'daemon.json');
    await writeFile(configFile, JSON.stringify({ 'log-level': 'info', hosts: [`unix://${socket}`], pidfile }));
    let stdout = '';
    child = spawn(process.execPath, [bundle, '--config-file', configFile, '--backend-endpoint', rigEnv().ISULATS_TEST_CONTAINERD], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (b) => (stdout += b));
    child.stderr!.on('data', (b) => (stdout += b));
    await waitFor(async () => existsSync(socket), { timeoutMs: 30_000, what: 'daemon socket' });
    // The socket is the readiness signal; the log line follows it through a pipe.
    await waitFor(async () => stdout.includes('"msg":"daemon ready"'), { timeoutMs: 5_000, what: 'ready log line' });
    expect((await readFile(pidfile, 'utf8')).trim()).toBe(String(child.pid));

    // A second instance on the same pid file is refused.
    const second = await run(process.execPath, [bundle, '--socket', join(dir, 'q.sock'), '--pidfile', pidfile, '--backend-endpoint', rigEnv().ISULATS_TEST_CONTAINERD]).catch((e) => e);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/another isulats daemon .*holds the lock/);
    expect(existsSync(join(dir, 'q.sock'))).toBe(false);

    expect((await rawCall(socket, 'v1', 'RuntimeService', 'Version', {})).code).toBe(0);
    expect(stdout).not.toMatch(/"msg":"request"/);
    await writeFile(configFile, JSON.stringify({ 'log-level': 'debug', hosts: [`unix://${socket}`], pidfile }));
    child.kill('SIGHUP');
    await waitFor(async () => stdout.includes('"msg":"log level changed"'), { timeoutMs: 10_000, what: 'reload' });
    expect((await rawCall(socket, 'v1', 'RuntimeService', 'Version', {})).code).toBe(0);
    await waitFor(async () => stdout.includes('"msg":"request","rpc":"Version"'), { timeoutMs: 5_000, what: 'debug request log' });

    // 'close' rather than 'exit': it comes after the child's output has all been read.
    const exited = new Promise<number | null>((resolve) => child!.once('close', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(pidfile)).toBe(false);
    expect(stdout).toMatch(/"msg":"stopped"/);
  });
});
