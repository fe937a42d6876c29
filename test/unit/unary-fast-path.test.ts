// The unary fast path (src/daemon/unary-fast-path.ts) against grpc-js itself: two in-process
// daemons over the same fake backend, one with the fast path and one without, asked the same raw
// HTTP/2 requests (node:http2 client, so odd frames can be sent): headers, message bytes and
// trailers must match, and the fast-path daemon's counter says it served the unary ones.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import * as http2 from 'node:http2';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCriServices } from '../../src/api/proto.js';
import type { CallOptions, CriBackend } from '../../src/client/backend.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { MAX_MESSAGE_BYTES } from '../../src/daemon/cri-server.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';
import { IsulatsError } from '../../src/runtime/errors.js';
import { connectUnix, grpcFrame, rawGrpcCall, type RawAnswer } from '../rig/raw-grpc.js';

/** Calls whose signal aborted, by name. */
const aborted: string[] = [];
/** Events GetContainerEvents yields. */
let eventCount = 1;
/** Calls started, by name. */
const started: string[] = [];
/** The type of the first env value each CreateContainer reached the backend with. */
const createValueTypes: string[] = [];

/** Waits for the caller to go, then fails as the engine does. */
function untilAborted(name: string) {
  return (_req: unknown, call: CallOptions) => new Promise((_resolve, reject) => {
    started.push(name);
    call.signal!.addEventListener('abort', () => {
      aborted.push(name);
      reject(call.signal!.reason);
    });
  });
}

function fakeBackend(): CriBackend {
  return {
    kind: 'remote', target: 'fake', apiVersion: async () => 'v1', close: async () => undefined,
    version: async () => ({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1.0', runtimeApiVersion: 'v1' }),
    listPodSandbox: async (req: any) => ({
      items: [{ id: req?.filter?.id || 'p1', metadata: { name: 'n', uid: 'u', namespace: 'ns', attempt: 0 }, state: 'SANDBOX_READY', createdAt: '1700000000000000000', labels: { a: 'b c%' }, annotations: {}, runtimeHandler: '' }],
    }),
    containerStatus: async (req: any) => { throw new IsulatsError('not-found', `container "${req.containerId}" not found: ünïcode 100%`); },
    listContainers: async () => ({ containers: [] }),
    createContainer: async (req: any) => {
      const envs = req.config.envs as { key: string; value: string | Buffer }[];
      createValueTypes.push(Buffer.isBuffer(envs[0]!.value) ? 'Buffer' : typeof envs[0]!.value);
      const last = envs[envs.length - 1]!;
      return { containerId: `${envs.length}:${last.key}=${last.value.toString()}` };
    },
    // An answer just over the message limit: Sent message larger than max.
    listImages: async () => ({ images: [{ id: 'x'.repeat(MAX_MESSAGE_BYTES), repoTags: [], repoDigests: [], size: '1', uid: null, username: '', spec: null, pinned: false }] }),
    pullImage: untilAborted('pull'),
    execSync: untilAborted('exec'),
    async *getContainerEvents() {
      for (let i = 0; i < eventCount; i++) yield { containerId: `c${i + 1}`, containerEventType: 'CONTAINER_STARTED_EVENT', createdAt: '1', podSandboxStatus: null, containersStatuses: [] };
    },
  } as unknown as CriBackend;
}

interface Side { daemon: Daemon; socket: string; dir: string; session: http2.ClientHttp2Session }

async function start(grpcFastPath: boolean, h2Transport = true): Promise<Side> {
  const dir = mkdtempSync('/tmp/ist-ufp-');
  const socket = `${dir}/d.sock`;
  const config = { ...resolveDaemonConfig({}, { socket, pidfile: `${dir}/d.pid`, root: dir, state: dir }), enableCriV1: true };
  const daemon = await startDaemon({ config, backendFactory: async () => fakeBackend(), log: createLogger('error', () => undefined), shutdownGraceMs: 2000, grpcFastPath, h2Transport });
  return { daemon, socket, dir, session: connectUnix(socket) };
}


async function encode(version: 'v1' | 'v1alpha2', service: 'RuntimeService' | 'ImageService', rpc: string, req: object): Promise<Buffer> {
  const svc = await loadCriServices(version);
  return (svc[service].service as any)[rpc].requestSerialize(req);
}

const V1 = '/runtime.v1.RuntimeService';

// The fast side: the hand-framed transport on the unix socket (h2/), then grpc-js's HTTP/2 server
// with the dispatcher (ISULATS_H2_TRANSPORT=0, and TCP listeners).
describe.each([['the hand-framed transport', true], ['grpc-js\'s HTTP/2 server', false]])('unary calls served on the HTTP/2 stream: %s', (_name, h2Transport) => {
  let fast: Side;
  let slow: Side;
  beforeAll(async () => {
    [fast, slow] = await Promise.all([start(true, h2Transport), start(false)]);
  });
  afterAll(async () => {
    for (const s of [fast, slow]) {
      if (!s) continue;
      s.session.close();
      await s.daemon.stop();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });

  /** The same request to both daemons; the answers must be the same. Returns the fast path's, with how many calls it served. */
  async function both(path: string, body: Buffer, extra?: Record<string, string>): Promise<RawAnswer & { served: number }> {
    const before = fast.daemon.fastPathCalls();
    const [a, b] = await Promise.all([rawGrpcCall(fast.session, path, body, { headers: extra }), rawGrpcCall(slow.session, path, body, { headers: extra })]);
    expect(a).toEqual(b);
    expect(slow.daemon.fastPathCalls()).toBe(0);
    return { ...a, served: fast.daemon.fastPathCalls() - before };
  }

  it('answers a read call with grpc-js\'s headers, bytes and trailers, over v1 and v1alpha2', async () => {
    for (const version of ['v1', 'v1alpha2'] as const) {
      const r = await both(`/runtime.${version}.RuntimeService/ListPodSandbox`, grpcFrame(await encode(version, 'RuntimeService', 'ListPodSandbox', { filter: { id: 'pod-1' } })));
      expect(r.served).toBe(1);
      expect(r.headers).toMatchObject({ ':status': 200, 'content-type': 'application/grpc+proto', 'grpc-encoding': 'identity' });
      expect(r.trailers).toMatchObject({ 'grpc-status': '0', 'grpc-message': 'OK' });
      expect(Buffer.from(r.data, 'hex').toString()).toContain('pod-1');
      const v = await both(`/runtime.${version}.RuntimeService/Version`, grpcFrame(Buffer.alloc(0)));
      expect(Buffer.from(v.data, 'hex').toString()).toContain(version);
    }
  });

  it('answers an engine error as a trailers-only response with the percent-encoded message', async () => {
    const r = await both(`${V1}/ContainerStatus`, grpcFrame(await encode('v1', 'RuntimeService', 'ContainerStatus', { containerId: 'nope' })));
    expect(r.served).toBe(1);
    expect(r.headers).toMatchObject({ 'grpc-status': '5', 'grpc-message': encodeURI('container "nope" not found: ünïcode 100%') });
    expect(r.trailers).toBeUndefined();
  });

  it('refuses a declared length over the limit without reading it, and the connection keeps serving', async () => {
    const big = Buffer.alloc(5);
    big.writeUInt32BE(MAX_MESSAGE_BYTES + 1, 1);
    const r = await both(`${V1}/Version`, big);
    expect(r.served).toBe(1);
    expect(r.headers).toMatchObject({ 'grpc-status': '8', 'grpc-message': encodeURI(`Received message larger than max (${MAX_MESSAGE_BYTES + 1} vs ${MAX_MESSAGE_BYTES})`) });
    expect((await both(`${V1}/Version`, grpcFrame(Buffer.alloc(0)))).trailers).toMatchObject({ 'grpc-status': '0' });
  });

  it('reads a request split across many DATA frames', async () => {
    const body = grpcFrame(await encode('v1', 'RuntimeService', 'ListPodSandbox', { filter: { id: 'split-pod' } }));
    const answers = await Promise.all([fast, slow].map((side) => new Promise<string>((resolve) => {
      const req = side.session.request({ ':method': 'POST', ':path': `${V1}/ListPodSandbox`, 'content-type': 'application/grpc', te: 'trailers' });
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('close', () => resolve(Buffer.concat(chunks).toString()));
      // One byte a frame, each after the last went out.
      let i = 0;
      const next = () => (i < body.length ? req.write(body.subarray(i, ++i), next) : req.end());
      next();
    })));
    expect(answers[0]).toContain('split-pod');
    expect(answers[0]).toBe(answers[1]);
  });

  it('decodes a large CreateContainer in slices (env values as strings) with the same answer', async () => {
    const envs = Array.from({ length: 20_000 }, (_, i) => ({ key: `SVC_${i}_SERVICE_PORT`, value: Buffer.from(String(10000 + i)) }));
    const body = grpcFrame(await encode('v1', 'RuntimeService', 'CreateContainer', { podSandboxId: 'p1', config: { metadata: { name: 'big' }, envs } }));
    createValueTypes.length = 0;
    const r = await both(`${V1}/CreateContainer`, body);
    expect(r.served).toBe(1);
    expect(r.trailers).toMatchObject({ 'grpc-status': '0' });
    expect(Buffer.from(r.data, 'hex').toString()).toContain('20000:SVC_19999_SERVICE_PORT=29999');
    // grpc-js's path keeps protobufjs's Buffers; the fast path read the envs itself.
    expect(createValueTypes.sort()).toEqual(['Buffer', 'string']);
  });

  it('refuses an answer over the limit as grpc-js does', async () => {
    const r = await both('/runtime.v1.ImageService/ListImages', grpcFrame(Buffer.alloc(0)));
    expect(r.served).toBe(1);
    expect(r.headers['grpc-status']).toBe('8');
    expect(decodeURI(String(r.headers['grpc-message']))).toMatch(/^Sent message larger than max \(\d+ vs\. 16777216\)$/);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
  ] as const)('serves a %s-compressed request', async (encoding, compress) => {
    const message = await encode('v1', 'RuntimeService', 'ListPodSandbox', { filter: { id: 'zipped-pod' } });
    const r = await both(`${V1}/ListPodSandbox`, grpcFrame(compress(message), 1), { 'grpc-encoding': encoding });
    expect(r.served).toBe(1);
    expect(r.trailers).toMatchObject({ 'grpc-status': '0' });
    expect(Buffer.from(r.data, 'hex').toString()).toContain('zipped-pod');
  });

  it.each([
    ['an unknown compression', grpcFrame(Buffer.from([1, 2]), 1), { 'grpc-encoding': 'snappy' }, '12'],
    ['a corrupt gzip message', grpcFrame(Buffer.from('not gzip'), 1), { 'grpc-encoding': 'gzip' }, '13'],
    ['a gzip bomb', grpcFrame(gzipSync(Buffer.alloc(MAX_MESSAGE_BYTES + 1)), 1), { 'grpc-encoding': 'gzip' }, '8'],
    ['no message', Buffer.alloc(0), {}, '12'],
    ['two messages', Buffer.concat([grpcFrame(Buffer.alloc(0)), grpcFrame(Buffer.alloc(0))]), {}, '12'],
    ['a message that is not protobuf', grpcFrame(Buffer.from([0xff, 0xff, 0xff])), {}, '13'],
    ['a malformed grpc-timeout', grpcFrame(Buffer.alloc(0)), { 'grpc-timeout': 'soon' }, '13'],
  ])('answers %s as grpc-js does', async (_what, body, extra, code) => {
    const r = await both(`${V1}/Version`, body, extra);
    expect(r.served).toBe(1);
    expect(r.headers['grpc-status']).toBe(code);
  });

  it('leaves streaming calls, unknown methods and other content types to grpc-js', async () => {
    const events = await both(`${V1}/GetContainerEvents`, grpcFrame(Buffer.alloc(0)));
    expect(events.trailers).toMatchObject({ 'grpc-status': '0' });
    expect(Buffer.from(events.data, 'hex').toString()).toContain('c1');
    const unknown = await both(`${V1}/NoSuchMethod`, grpcFrame(Buffer.alloc(0)));
    expect(unknown.headers).toMatchObject({ 'grpc-status': '12', 'grpc-message': 'The server does not implement the method /runtime.v1.RuntimeService/NoSuchMethod' });
    const other = await both(`${V1}/Version`, grpcFrame(Buffer.alloc(0)), { 'content-type': 'application/grpc+json' });
    expect([events.served, unknown.served, other.served]).toEqual([0, 0, 0]);
  });

  it('answers DEADLINE_EXCEEDED when the deadline passes, and aborts the call\'s work', async () => {
    const body = grpcFrame(await encode('v1', 'ImageService', 'PullImage', { image: { image: 'example/slow' } }));
    aborted.length = 0;
    const r = await both('/runtime.v1.ImageService/PullImage', body, { 'grpc-timeout': '300m' });
    expect(r.served).toBe(1);
    expect(r.headers).toMatchObject({ 'grpc-status': '4', 'grpc-message': 'Deadline%20exceeded' });
    for (let i = 0; i < 100 && aborted.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(aborted).toEqual(['pull', 'pull']);
  });

  it('aborts the call\'s work when the client cancels it, and the connection keeps serving', async () => {
    const body = grpcFrame(await encode('v1', 'RuntimeService', 'ExecSync', { containerId: 'c', cmd: ['sleep', '5'] }));
    for (const side of [fast, slow]) {
      aborted.length = 0;
      started.length = 0;
      const before = side.daemon.fastPathCalls();
      let req: http2.ClientHttp2Stream | undefined;
      const done = rawGrpcCall(side.session, `${V1}/ExecSync`, body, { onRequest: (r) => (req = r) });
      for (let i = 0; i < 200 && started.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(started).toEqual(['exec']);
      req!.close(http2.constants.NGHTTP2_CANCEL);
      expect((await done).rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
      for (let i = 0; i < 200 && aborted.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(aborted).toEqual(['exec']);
      expect((await rawGrpcCall(side.session, `${V1}/Version`, grpcFrame(Buffer.alloc(0)))).trailers).toMatchObject({ 'grpc-status': '0' });
      expect(side.daemon.fastPathCalls() - before).toBe(side === fast ? 2 : 0);
    }
  });

  it('curl --http2-prior-knowledge gets an HTTP/2 answer, the same from both, with any Host', async () => {
    const { execFile } = await import('node:child_process');
    const curl = (socket: string, args: string[]) => new Promise<string>((resolve) => {
      execFile('curl', ['-s', '-o', '/dev/null', '-w', '%{http_version} %{http_code}', '--max-time', '10', '--http2-prior-knowledge', '--unix-socket', socket, ...args], (_err, stdout) => resolve(stdout));
    });
    for (const args of [['http://localhost/'], ['-H', 'Host: /run/x.sock', 'http://localhost/'], ['-X', 'POST', '-H', 'content-type: application/grpc', '--data-binary', '@/dev/null', `http://localhost${V1}/Version`]]) {
      const [a, b] = await Promise.all([curl(fast.socket, args), curl(slow.socket, args)]);
      expect(a, args.join(' ')).toMatch(/^2 \d{3}$/);
      expect(a, args.join(' ')).toBe(b);
    }
  });

  it('relays a streamed answer larger than the client\'s window, read slowly, whole and the same as grpc-js\'s', async () => {
    eventCount = 20_000;
    try {
      const read = (socket: string) => new Promise<Buffer>((resolve) => {
        const session = http2.connect('http://localhost', { createConnection: () => connect(socket), settings: { initialWindowSize: 4096 } });
        session.on('error', () => undefined);
        const req = session.request({ ':method': 'POST', ':path': `${V1}/GetContainerEvents`, 'content-type': 'application/grpc', te: 'trailers' });
        const chunks: Buffer[] = [];
        let trailers = '';
        req.on('data', (c: Buffer) => {
          chunks.push(c);
          // A slow reader: the window stays shut for a while now and then.
          if (chunks.length % 50 === 0) {
            req.pause();
            setTimeout(() => req.resume(), 5);
          }
        });
        req.on('trailers', (t) => (trailers = String(t['grpc-status'])));
        req.on('close', () => {
          session.close();
          resolve(Buffer.concat([Buffer.from(trailers), ...chunks]));
        });
        req.end(grpcFrame(Buffer.alloc(0)));
      });
      const [a, b] = await Promise.all([read(fast.socket), read(slow.socket)]);
      expect(a.subarray(0, 1).toString()).toBe('0');
      expect(a.length).toBeGreaterThan(300_000);
      expect(a.equals(b)).toBe(true);
    } finally {
      eventCount = 1;
    }
  }, 30_000);
});
