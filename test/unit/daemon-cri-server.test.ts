// Code mapping, request validation and version gating of the daemon's CRI
// handlers, over a real unix socket, with a fake backend (pure logic: no engine).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { loadCriServices, type CriVersion } from '../../src/api/proto.js';
import type { CriBackend } from '../../src/client/backend.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { toGrpcStatus } from '../../src/daemon/cri-server.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';
import { IsulatsError, type ErrorKind } from '../../src/runtime/errors.js';

interface Answer { code: number; details?: string; res?: any }

function call(socket: string, version: CriVersion, service: 'RuntimeService' | 'ImageService', method: string, req: object): Promise<Answer> {
  return loadCriServices(version).then((svc) => new Promise<Answer>((resolve) => {
    const client = new (svc[service] as any)(`unix://${socket}`, grpc.credentials.createInsecure());
    client[method](req, { deadline: Date.now() + 5000 }, (err: grpc.ServiceError | null, res: any) => {
      client.close();
      resolve(err ? { code: err.code, details: err.details } : { code: 0, res });
    });
  }));
}

const calls: string[] = [];
const listRequests: unknown[] = [];
let releasePull: () => void = () => undefined;

function fakeBackend(): CriBackend {
  const fail = (kind: ErrorKind) => async () => { throw new IsulatsError(kind, `failed with ${kind}`); };
  return {
    kind: 'remote', target: 'fake', apiVersion: async () => 'v1', close: async () => undefined,
    version: async () => ({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1.0', runtimeApiVersion: 'v1' }),
    listPodSandbox: async (req: unknown) => {
      calls.push('listPodSandbox');
      listRequests.push(req);
      return { items: [{ id: 'p1', metadata: { name: 'n', uid: 'u', namespace: 'ns', attempt: 0 }, state: 'SANDBOX_READY', createdAt: '1700000000000000000', labels: { a: 'b' }, annotations: {}, runtimeHandler: '' }] };
    },
    containerStatus: fail('not-found'),
    listContainers: async () => ({ containers: [] }),
    listImages: async () => ({
      images: Array.from({ length: 20_000 }, (_, i) => ({ id: `sha256:${String(i).padStart(64, '0')}`, repoTags: [`registry.example/img${i}:latest`], repoDigests: [], size: '1', uid: null, username: '', spec: null, pinned: false })),
    }),
    listContainerStats: fail('unavailable'),
    startContainer: fail('failed-precondition'),
    stopContainer: fail('deadline-exceeded'),
    removeContainer: async () => { throw new Error('disk on fire'); },
    createContainer: fail('already-exists'),
    reopenContainerLog: fail('unimplemented'),
    execSync: fail('invalid-argument'),
    async *getContainerEvents() {
      for (const id of ['c1', 'c2']) yield { containerId: id, containerEventType: 'CONTAINER_STARTED_EVENT', createdAt: '1', podSandboxStatus: null, containersStatuses: [] };
    },
    pullImage: () => new Promise((resolve) => { releasePull = () => resolve({ imageRef: 'sha256:1' } as any); }),
  } as unknown as CriBackend;
}

async function start(enableCriV1: boolean): Promise<{ daemon: Daemon; socket: string; dir: string }> {
  const dir = mkdtempSync('/tmp/ist-dcs-');
  const config = { ...resolveDaemonConfig({}, { socket: `${dir}/d.sock`, pidfile: `${dir}/d.pid`, root: dir, state: dir }), enableCriV1 };
  const daemon = await startDaemon({ config, backendFactory: async () => fakeBackend(), log: createLogger('error', () => undefined), shutdownGraceMs: 2000 });
  return { daemon, socket: `${dir}/d.sock`, dir };
}

describe('error kinds to gRPC codes', () => {
  it.each([
    ['not-found', 5], ['invalid-argument', 3], ['already-exists', 6], ['deadline-exceeded', 4],
    ['failed-precondition', 9], ['unimplemented', 12], ['unavailable', 14], ['internal', 13],
  ] as const)('maps %s to %i', (kind, code) => {
    expect(toGrpcStatus(new IsulatsError(kind, 'x'))).toEqual({ code, details: 'x' });
  });

  it('maps anything else to Internal with its message', () => {
    expect(toGrpcStatus(new TypeError('boom'))).toEqual({ code: 13, details: 'boom' });
  });
});

describe('CRI handlers over a fake backend', () => {
  let d: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => { d = await start(true); });
  afterAll(async () => { await d.daemon.stop(); rmSync(d.dir, { recursive: true, force: true }); });

  it.each([
    ['ContainerStatus', { containerId: 'nope' }, 5],
    ['StartContainer', { containerId: 'c' }, 9],
    ['StopContainer', { containerId: 'c' }, 4],
    ['RemoveContainer', { containerId: 'c' }, 13],
    ['CreateContainer', { podSandboxId: 'p', config: { metadata: { name: 'c' } } }, 6],
    ['ReopenContainerLog', { containerId: 'c' }, 12],
    ['ExecSync', { containerId: 'c', cmd: ['true'] }, 3],
  ])('answers %s with the code of the engine error', async (method, req, code) => {
    expect((await call(d.socket, 'v1', 'RuntimeService', method, req)).code).toBe(code);
  });

  it.each([
    ['ContainerStatus', { containerId: '' }, /container ID must not be empty/],
    ['StopPodSandbox', {}, /pod sandbox ID must not be empty/],
    ['RunPodSandbox', {}, /config is required/],
    ['ExecSync', { containerId: 'c', cmd: [] }, /cmd must not be empty/],
  ])('rejects %s with an empty ID or config as InvalidArgument', async (method, req, details) => {
    const a = await call(d.socket, 'v1', 'RuntimeService', method, req);
    expect(a.code).toBe(3);
    expect(a.details).toMatch(details);
  });

  it('rejects an empty image reference as InvalidArgument', async () => {
    expect((await call(d.socket, 'v1', 'ImageService', 'ImageStatus', { image: { image: '' } })).code).toBe(3);
  });

  it.each(['v1', 'v1alpha2'] as const)('rejects an unknown enum value over %s as InvalidArgument', async (version) => {
    const bad = await call(d.socket, version, 'RuntimeService', 'ListContainers', { filter: { state: { state: 99 } } });
    expect(bad.code).toBe(3);
    expect(bad.details).toBe('unknown enum value: filter.state.state = 99');
    const good = await call(d.socket, version, 'RuntimeService', 'ListContainers', { filter: { state: { state: 'CONTAINER_RUNNING' } } });
    expect(good.code).toBe(0);
  });

  it('answers Unimplemented for RPCs the backend lacks and for v1-only extras', async () => {
    expect((await call(d.socket, 'v1', 'RuntimeService', 'Status', {})).code).toBe(12);
    expect((await call(d.socket, 'v1', 'RuntimeService', 'CheckpointContainer', { containerId: 'c' })).code).toBe(12);
  });

  it('converts v1alpha2 at the edge (bytes label values become strings)', async () => {
    const a = await call(d.socket, 'v1alpha2', 'RuntimeService', 'ListPodSandbox', {});
    expect(a.code).toBe(0);
    expect(a.res.items[0]).toMatchObject({ id: 'p1', state: 'SANDBOX_READY', labels: { a: 'b' } });
    const v = (await call(d.socket, 'v1alpha2', 'RuntimeService', 'Version', {})).res;
    expect(v).toMatchObject({ runtimeName: 'fake', runtimeApiVersion: 'v1alpha2' });
  });

  /** All responses of a server-streaming call, or its error. */
  async function collect(method: string, req: object): Promise<{ responses: any[]; error?: grpc.ServiceError }> {
    const svc = await loadCriServices('v1');
    const service = method === 'StreamImages' ? svc.ImageService : svc.RuntimeService;
    const client = new (service as any)(`unix://${d.socket}`, grpc.credentials.createInsecure());
    const responses: any[] = [];
    try {
      for await (const r of client[method](req)) responses.push(r);
      return { responses };
    } catch (error) {
      return { responses, error: error as grpc.ServiceError };
    } finally {
      client.close();
    }
  }

  it('streams the items of the list call in batches of 100, all of them, in order', async () => {
    const { responses, error } = await collect('StreamImages', {});
    expect(error).toBeUndefined();
    expect(responses).toHaveLength(200);
    expect(responses.every((r) => r.images.length === 100)).toBe(true);
    const ids = responses.flatMap((r) => r.images.map((i: { id: string }) => i.id));
    expect(ids).toHaveLength(20_000);
    expect(ids[0]).toBe(`sha256:${'0'.repeat(64)}`);
    expect(ids[19_999]).toBe(`sha256:${'19999'.padStart(64, '0')}`);
  });

  it('passes the stream request\'s filter to the list call and ends an empty list with no response', async () => {
    listRequests.length = 0;
    const pods = await collect('StreamPodSandboxes', { filter: { labelSelector: { a: 'b' } } });
    expect(pods.responses.map((r) => r.podSandboxes.map((p: { id: string }) => p.id))).toEqual([['p1']]);
    expect(listRequests).toEqual([expect.objectContaining({ filter: expect.objectContaining({ labelSelector: { a: 'b' } }) })]);
    expect(await collect('StreamContainers', {})).toEqual({ responses: [] });
  });

  it('ends a stream with the code of the list call\'s error, and refuses unknown enum values', async () => {
    const failed = await collect('StreamContainerStats', {});
    expect(failed.error?.code).toBe(14);
    expect(failed.error?.details).toBe('failed with unavailable');
    const badEnum = await collect('StreamContainers', { filter: { state: { state: 42 } } });
    expect(badEnum.error?.code).toBe(3);
    expect(badEnum.error?.details).toBe('unknown enum value: filter.state.state = 42');
  });

  it('streams GetContainerEvents from the backend to the end', async () => {
    const svc = await loadCriServices('v1');
    const client = new (svc.RuntimeService as any)(`unix://${d.socket}`, grpc.credentials.createInsecure());
    const ids: string[] = [];
    try {
      for await (const ev of client.GetContainerEvents({})) ids.push(ev.containerId);
    } finally {
      client.close();
    }
    expect(ids).toEqual(['c1', 'c2']);
  });

  it('creates the socket with mode 0660', () => {
    expect(statSync(d.socket).mode & 0o777).toBe(0o660);
  });

  it('carries multi-megabyte answers and requests through the unix socket intact', async () => {
    const a = await call(d.socket, 'v1', 'ImageService', 'ListImages', { filter: { image: { image: 'x'.repeat(3 * 1024 * 1024) } } });
    expect(a.code).toBe(0);
    expect(a.res.images).toHaveLength(20_000);
    expect(a.res.images[19_999].repoTags).toEqual(['registry.example/img19999:latest']);
  });

  it('serves short calls while a pull is in flight', async () => {
    const pull = call(d.socket, 'v1', 'ImageService', 'PullImage', { image: { image: 'busybox' } });
    await new Promise((r) => setTimeout(r, 100));
    const list = await call(d.socket, 'v1', 'RuntimeService', 'ListPodSandbox', {});
    expect(list.code).toBe(0);
    releasePull();
    expect((await pull).res.imageRef).toBe('sha256:1');
  });
});

describe('enable-cri-v1 = false', () => {
  it('serves only runtime.v1alpha2', async () => {
    const d = await start(false);
    try {
      expect(d.daemon.apiVersions).toEqual(['v1alpha2']);
      expect((await call(d.socket, 'v1', 'RuntimeService', 'Version', {})).code).toBe(12);
      expect((await call(d.socket, 'v1alpha2', 'RuntimeService', 'Version', {})).code).toBe(0);
    } finally {
      await d.daemon.stop();
      rmSync(d.dir, { recursive: true, force: true });
    }
  });
});
