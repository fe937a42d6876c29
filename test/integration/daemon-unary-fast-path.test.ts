// Unary CRI calls served on the HTTP/2 stream (src/daemon/unary-fast-path.ts) against a real
// `isulats daemon`, through the Go client kubelet's calls are made with, the rig's grpc-js client
// and raw HTTP/2: the answers match those of a daemon with ISULATS_GRPC_FAST_PATH=0 (grpc-js
// serves every call), a refused request leaves the connection serving, and a call whose deadline
// passes or whose client goes stops its work (the exec'd process is killed). Which server answered
// is shown in test/unit/unary-fast-path.test.ts (an in-process daemon's counter).
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCriServices } from '../../src/api/proto.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { connectUnix, grpcFrame, rawGrpcCall, type RawAnswer } from '../rig/raw-grpc.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { inCgroupOf, listProcesses } from '../rig/host-cleanup.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { signalPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';

const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Code and details of a failed call, or the answer. */
async function outcome(p: Promise<unknown>): Promise<unknown> {
  return p.then((res) => ({ res }), (err: grpc.ServiceError) => ({ code: err.code, details: err.details }));
}


/** PIDs of processes in the container's cgroup running `sleep <marker>`. */
async function sleeps(containerId: string, marker: string): Promise<number[]> {
  const ids = new Set([containerId]);
  return (await listProcesses()).filter((p) => inCgroupOf(p, ids) && p.argv.join(' ') === `sleep ${marker}`).map((p) => p.pid);
}

const marker = () => String(50_000 + Math.floor(Math.random() * 40_000));

describe('unary calls served on the HTTP/2 stream', () => {
  let fast: IsulatsDaemon;
  let slow: IsulatsDaemon;
  let fastClient: RawCriClient;
  let slowClient: RawCriClient;
  let containerId = '';
  const go = (d: IsulatsDaemon, args: string[]) => runGoCriClient(goToolPath('go-cri-client'), ['-endpoint', d.endpoint, ...args]);

  beforeAll(async () => {
    const env = rigEnv();
    [fast, slow] = await Promise.all([
      startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE }),
      startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE, env: { ISULATS_GRPC_FAST_PATH: '0' } }),
    ]);
    fastClient = openCriClient(fast.endpoint);
    slowClient = openCriClient(slow.endpoint);
    expect((await go(fast, ['-timeout', '120s', 'pull', '-image', env.ISULATS_TEST_BUSYBOX])).code).toBe(0);
    const started = await go(fast, ['-timeout', '120s', 'run-pod-container', '-name', 'fastpath', '-label', 'fastpath', '-image', env.ISULATS_TEST_BUSYBOX, '--', 'sleep', '3600']);
    expect(started.stderr).toBe('');
    containerId = (JSON.parse(started.stdout) as { containerId: string }).containerId;
  }, 180_000);

  afterAll(async () => {
    fastClient?.close();
    slowClient?.close();
    await Promise.all([fast?.cleanup(), slow?.cleanup()]);
  }, 180_000);

  it('a read call and a NotFound answer the same through the Go client with and without the fast path', async () => {
    for (const args of [['version'], ['list', '-label', 'none-here'], ['container-status', '-id', 'no-such-container'], ['image-status', '-image', 'example.invalid/none:1']]) {
      const [a, b] = await Promise.all([go(fast, args), go(slow, args)]);
      expect(a, args.join(' ')).toEqual(b);
    }
    const notFound = await go(fast, ['container-status', '-id', 'no-such-container']);
    expect(notFound.code).not.toBe(0);
    expect(notFound.stderr).toMatch(/code = NotFound/);
  });

  it('a read call and a NotFound answer the same through the rig\'s grpc-js client', async () => {
    for (const [method, req] of [['Version', {}], ['ListPodSandbox', { filter: { id: 'nope' } }], ['ContainerStatus', { containerId: 'no-such-container' }]] as const) {
      const [a, b] = await Promise.all([outcome(fastClient.runtime(method, req)), outcome(slowClient.runtime(method, req))]);
      expect(a, method).toEqual(b);
    }
    expect(await outcome(fastClient.runtime('ContainerStatus', { containerId: 'no-such-container' }))).toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it('answers the same bytes over raw HTTP/2, refuses an oversized declared length, serves gzip, and the connection keeps serving', async () => {
    const svc = await loadCriServices('v1');
    const statusReq = (svc.RuntimeService.service as any).ContainerStatus.requestSerialize({ containerId: 'no-such-container' }) as Buffer;
    const listReq = (svc.RuntimeService.service as any).ListPodSandbox.requestSerialize({}) as Buffer;
    const oversized = Buffer.alloc(5);
    oversized.writeUInt32BE(MAX_MESSAGE_BYTES + 1, 1);
    const answers = await Promise.all([fast, slow].map(async (d) => {
      const session = connectUnix(d.socket);
      try {
        const out = [];
        out.push(await rawGrpcCall(session, '/runtime.v1.RuntimeService/Version', grpcFrame(Buffer.alloc(0)), { keepError: true }));
        out.push(await rawGrpcCall(session, '/runtime.v1.RuntimeService/ContainerStatus', grpcFrame(statusReq), { keepError: true }));
        out.push(await rawGrpcCall(session, '/runtime.v1.RuntimeService/Version', oversized, { keepError: true }));
        out.push(await rawGrpcCall(session, '/runtime.v1.RuntimeService/ListPodSandbox', grpcFrame(gzipSync(listReq), 1), { headers: { 'grpc-encoding': 'gzip' }, keepError: true }));
        out.push(await rawGrpcCall(session, '/runtime.v1.RuntimeService/Version', grpcFrame(Buffer.alloc(0)), { keepError: true }));
        return out;
      } finally {
        session.close();
      }
    }));
    const [f, s] = answers as [RawAnswer[], RawAnswer[]];
    // Only the pod list differs (the fast daemon has the test's pod): compare it by status.
    expect(f[3]!.trailers).toEqual(s[3]!.trailers);
    expect(f[3]!.data).not.toBe('');
    f.splice(3, 1);
    s.splice(3, 1);
    expect(f).toEqual(s);
    expect(f[1]!.headers).toMatchObject({ 'grpc-status': '5' });
    expect(f[2]!.headers).toMatchObject({ 'grpc-status': '8', 'grpc-message': encodeURI(`Received message larger than max (${MAX_MESSAGE_BYTES + 1} vs ${MAX_MESSAGE_BYTES})`) });
    expect(f[3]!.trailers).toMatchObject({ 'grpc-status': '0' });
  });

  it('an ExecSync whose deadline passes answers DeadlineExceeded and its process is killed', async () => {
    const m = marker();
    const call = go(fast, ['-timeout', '4s', 'exec-sync', '-id', containerId, '--', 'sleep', m]);
    await waitFor(async () => (await sleeps(containerId, m)).length > 0, { timeoutMs: 10_000, intervalMs: 50, what: 'the exec\'d sleep running' });
    const r = await call;
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/code = DeadlineExceeded/);
    const left = await waitFor(async () => ((await sleeps(containerId, m)).length === 0 ? [] : false), { timeoutMs: 5_000, intervalMs: 100, what: 'the sleep gone' })
      .catch(() => sleeps(containerId, m));
    expect(left, 'processes the timed-out ExecSync left').toEqual([]);
  });

  it('an ExecSync the grpc-js client cancels has its process killed', async () => {
    const m = marker();
    const svc = await loadCriServices('v1');
    const client = new (svc.RuntimeService as any)(fast.endpoint, grpc.credentials.createInsecure()) as grpc.Client & Record<string, any>;
    try {
      let settled: unknown;
      const call = client.ExecSync({ containerId, cmd: ['sleep', m] }, { deadline: Date.now() + 120_000 }, (err: grpc.ServiceError | null) => (settled = err?.code ?? 0));
      await waitFor(async () => (await sleeps(containerId, m)).length > 0, { timeoutMs: 10_000, intervalMs: 50, what: 'the exec\'d sleep running' });
      call.cancel();
      const left = await waitFor(async () => ((await sleeps(containerId, m)).length === 0 ? [] : false), { timeoutMs: 5_000, intervalMs: 100, what: 'the sleep gone' })
        .catch(() => sleeps(containerId, m));
      expect(left, 'processes the cancelled ExecSync left').toEqual([]);
      expect(settled).toBe(grpc.status.CANCELLED);
    } finally {
      client.close();
    }
  });

  it('an ExecSync whose Go client is killed has its process killed', async () => {
    const m = marker();
    const child = spawn(goToolPath('go-cri-client'), ['-endpoint', fast.endpoint, '-timeout', '120s', 'exec-sync', '-id', containerId, '--', 'sleep', m], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await waitFor(async () => (await sleeps(containerId, m)).length > 0, { timeoutMs: 10_000, intervalMs: 50, what: 'the exec\'d sleep running' });
    } finally {
      signalPid(child.pid!, 'SIGKILL');
      await exited;
    }
    const left = await waitFor(async () => ((await sleeps(containerId, m)).length === 0 ? [] : false), { timeoutMs: 5_000, intervalMs: 100, what: 'the sleep gone' })
      .catch(() => sleeps(containerId, m));
    expect(left, 'processes the abandoned ExecSync left').toEqual([]);
  });
});
