// The fast path's pure parts: which calls it takes, its hand-written protobuf
// decoding against protobufjs's (the full CLI's) on the same bytes, HPACK
// field values, and its unary call against scripted HTTP/2 peers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAST_TRANSPORTS, useFastTransport } from '../rig/fast-transport.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Http2Server } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fastCall, runFastCall, FAST_DEFAULT_CONFIG_PATH, FAST_DEFAULT_TIMEOUT_MS } from '../../src/fast/fast-cli.js';
import { probedNote } from '../../src/client/known-endpoints.js';
import { decodeContainers, decodePods, decodeVersion, listContainersRequest, LIST_PODS_REQUEST, VERSION_REQUEST } from '../../src/fast/cri-wire.js';
import { GrpcStatus, grpcTimeout, hpackDecode, unaryCall } from '../../src/fast/h2-unary.js';
import { MAX_RPC_TIMEOUT_MS } from '../../src/util/timer-delay.js';
import { DEFAULT_CONFIG_PATH } from '../../src/client/config-file.js';
import { DEFAULT_TIMEOUT_MS } from '../../src/cli/context.js';
import { decodeMessage, encodeMessage, loadProtoRoot } from '../../src/api/proto.js';
import { decodeMessage as byDescriptor } from '../../src/fast/proto-decode.js';
import { statusTypes } from '../../src/fast/fast-inspect.js';

const EP = 'unix:///run/containerd/containerd.sock';

describe('which calls the fast path takes', () => {
  it('repeats the full CLI\'s defaults', () => {
    expect(FAST_DEFAULT_CONFIG_PATH).toBe(DEFAULT_CONFIG_PATH);
    expect(FAST_DEFAULT_TIMEOUT_MS).toBe(DEFAULT_TIMEOUT_MS);
  });

  it.each([
    [['-r', EP, 'version'], { verb: 'version', socket: '/run/containerd/containerd.sock', timeoutMs: 2000 }],
    [[`--runtime-endpoint=${EP}`, '-t', '5s', 'pods', '-q'], { verb: 'pods', quiet: true, timeoutMs: 5000 }],
    [['-r', '/run/x.sock', '--timeout=0', 'ps', '-aq', '--no-trunc'], { verb: 'ps', socket: '/run/x.sock', all: true, quiet: true, noTrunc: true, timeoutMs: 2000 }],
    [['-r', EP, 'containers', '--all'], { verb: 'ps', all: true }],
  ])('takes %j', (argv, want) => {
    expect(fastCall(argv, {})).toMatchObject(want);
  });

  it('takes CONTAINER_RUNTIME_ENDPOINT, and -r over it', () => {
    expect(fastCall(['ps'], { CONTAINER_RUNTIME_ENDPOINT: EP })).toMatchObject({ socket: '/run/containerd/containerd.sock' });
    expect(fastCall(['-r', '/a.sock', 'ps'], { CONTAINER_RUNTIME_ENDPOINT: EP })).toMatchObject({ socket: '/a.sock' });
  });

  it('probes the known sockets in the full CLI\'s order when no endpoint is named', () => {
    expect(fastCall(['version'], { ISULATS_DAEMON_SOCKET: 'unix:///d.sock', ISULATS_KNOWN_ENDPOINTS: 'unix:///a.sock,unix:///b.sock' }))
      .toMatchObject({ verb: 'version', socket: '', probe: ['unix:///d.sock', 'unix:///a.sock', 'unix:///b.sock'] });
  });

  it.each([
    [['-r', 'tcp://127.0.0.1:1', 'version']],
    [['-r', 'embedded', 'pods']],
    [['-r', EP, 'version', '-o', 'json']],
    [['-r', EP, 'pods', '-v']],
    [['-r', EP, 'ps', '-r']], // ps's own -r (--resolve-image-path)
    [['-r', EP, 'ps', '--name', 'x']],
    [['-r', EP, 'ps', 'extra']],
    [['-D', '-r', EP, 'ps']],
    [['-r', EP, '-t', 'soon', 'ps']],
    [['-r', EP, 'inspect', '-o', 'yaml', 'abc']],
    [['-r', EP, 'inspect', '-o', 'go-template', '--template', '{{.}}', 'abc']],
    [['-r', EP, 'inspectp']],
    [['-r', EP, 'inspect', '-qq', 'abc']],
    [['-r', EP, 'inspect', '--', 'abc']],
    [['-r']],
  ])('declines %j', (argv) => {
    expect(fastCall(argv, {})).toBeUndefined();
  });

  it.each([
    [['-r', EP, 'inspect', 'abc'], { verb: 'inspect', inspect: { ids: ['abc'], table: false, verbose: true } }],
    [['-r', EP, 'inspect', '-o', 'table', 'a', 'b', '-q'], { verb: 'inspect', inspect: { ids: ['a', 'b'], table: true, verbose: false } }],
    [['-r', EP, 'inspectp', '--output=json', '--quiet', 'p'], { verb: 'inspectp', inspect: { ids: ['p'], table: false, verbose: false } }],
    [['-r', EP, 'inspecti', 'busybox:1.36'], { verb: 'inspecti', inspect: { ids: ['busybox:1.36'], table: false, verbose: true } }],
  ])('takes %j', (argv, want) => {
    expect(fastCall(argv, {})).toMatchObject(want);
  });

  it('leaves inspecti to the full CLI when the image service is elsewhere', () => {
    expect(fastCall(['-r', EP, 'inspecti', 'busybox'], { IMAGE_SERVICE_ENDPOINT: 'unix:///other.sock' })).toBeUndefined();
  });

  it('declines where a config file would be read', () => {
    expect(fastCall(['-r', EP, 'ps'], { CRI_CONFIG_FILE: '/etc/crictl.yaml' })).toBeUndefined();
  });
});

describe('CRI messages by hand', () => {
  const pod = (i: number) => ({
    id: `${i}`.repeat(64).slice(0, 64),
    metadata: { name: `coredns-5d78c9869d-${i}x7kq`, uid: `a3f0c2d1-8b4e-4f5a-9c6d-00000000000${i}`, namespace: 'kube-system', attempt: i },
    state: i % 2 ? 'SANDBOX_NOTREADY' : 'SANDBOX_READY',
    createdAt: '1733560000123456789',
    labels: { 'io.kubernetes.pod.name': `coredns-${i}`, 'k8s-app': 'kube-dns' },
    annotations: { 'kubernetes.io/config.seen': '2026-12-07T04:00:00.000000000Z' },
    runtimeHandler: i === 2 ? 'crun' : '',
  });

  it('decodes what protobufjs encodes, to the shapes protobufjs decodes', async () => {
    const root = await loadProtoRoot('cri-v1');
    const check = (type: string, obj: object, mine: (b: Buffer) => unknown) => {
      const bytes = Buffer.from(encodeMessage(root, `runtime.v1.${type}`, obj));
      const theirs = decodeMessage(root, `runtime.v1.${type}`, bytes);
      return [mine(bytes), theirs];
    };
    const [v1, v2] = check('VersionResponse', { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.7.24', runtimeApiVersion: 'v1' }, (b) => decodeVersion(b));
    expect(v1).toEqual(v2);
    const [p1, p2] = check('ListPodSandboxResponse', { items: [pod(0), pod(1), pod(2), { id: 'bare' }] }, (b) => ({ items: decodePods(b) }));
    expect(p1).toEqual(p2);
    const ctr = {
      id: 'c'.repeat(64), podSandboxId: 'p'.repeat(64), metadata: { name: 'coredns', attempt: 3 },
      image: { image: 'sha256:' + 'e'.repeat(64), annotations: { a: 'b' }, userSpecifiedImage: 'registry.k8s.io/coredns/coredns:v1.11.1' },
      imageRef: 'registry.k8s.io/coredns/coredns@sha256:' + 'f'.repeat(64), state: 'CONTAINER_EXITED', createdAt: '-1',
      labels: { 'io.kubernetes.pod.name': 'coredns-0' }, annotations: {}, imageId: 'sha256:' + 'e'.repeat(64),
    };
    const [c1, c2] = check('ListContainersResponse', { containers: [ctr, { id: 'x', state: 'CONTAINER_RUNNING' }] }, (b) => ({ containers: decodeContainers(b) }));
    expect(c1).toEqual(c2);
  });

  it('encodes the requests the full CLI sends', async () => {
    const root = await loadProtoRoot('cri-v1');
    const enc = (type: string, obj: object) => Buffer.from(encodeMessage(root, `runtime.v1.${type}`, obj));
    expect(VERSION_REQUEST).toEqual(enc('VersionRequest', { version: 'v1' }));
    expect(LIST_PODS_REQUEST).toEqual(enc('ListPodSandboxRequest', { filter: {} }));
    expect(listContainersRequest(true)).toEqual(enc('ListContainersRequest', { filter: {} }));
    expect(listContainersRequest(false)).toEqual(enc('ListContainersRequest', { filter: { state: { state: 'CONTAINER_RUNNING' } } }));
  });

  it('decodes the status answers by the descriptor\'s types exactly as protobufjs does', async () => {
    const root = await loadProtoRoot('cri-v1');
    const ns = statusTypes();
    const same = (type: string, obj: object) => {
      const bytes = Buffer.from(encodeMessage(root, `runtime.v1.${type}`, obj));
      expect(byDescriptor(ns, type, bytes)).toStrictEqual(decodeMessage(root, `runtime.v1.${type}`, bytes));
    };
    const spec = { image: 'sha256:' + 'e'.repeat(64), annotations: { a: 'b' }, userSpecifiedImage: 'busybox', runtimeHandler: 'crun' };
    same('ContainerStatusResponse', {});
    same('ContainerStatusResponse', { status: { id: 'c' } });
    same('ContainerStatusResponse', {
      status: {
        id: 'c'.repeat(64), metadata: { name: 'app', attempt: 4 }, state: 'CONTAINER_EXITED', createdAt: '1733560000123456789',
        startedAt: '-5', finishedAt: '9223372036854775807', exitCode: -2, image: spec, imageRef: 'sha256:' + 'f'.repeat(64),
        reason: 'Error', message: 'ü ☃', labels: { x: 'y', '': 'empty key' }, annotations: { z: '' },
        mounts: [
          { containerPath: '/a', hostPath: '/h', readonly: true, selinuxRelabel: true, propagation: 'PROPAGATION_BIDIRECTIONAL', uidMappings: [{ hostId: 4294967295, containerId: 0, length: 1 }], gidMappings: [], recursiveReadOnly: true, image: spec, imageSubPath: 'sub', mountOptions: ['ro', 'nosuid'] },
          { containerPath: '/b' },
        ],
        logPath: '/var/log/x.log',
        resources: { linux: { cpuPeriod: '100000', cpuQuota: '-1', cpuShares: '2', memoryLimitInBytes: '1073741824', oomScoreAdj: '-997', cpusetCpus: '0-1', hugepageLimits: [{ pageSize: '2MB', limit: '18446744073709551615' }], unified: { 'memory.high': 'max' }, memorySwapLimitInBytes: '0' } },
        user: { linux: { uid: '0', gid: '65534', supplementalGroups: ['1', '-2', '4294967296'] } },
        stopSignal: 'SIGNAL_SIGTERM',
      },
      info: { info: '{"pid": 42, "runtimeSpec": {"ociVersion": "1.0.2"}}', plain: '"quoted"' },
    });
    same('PodSandboxStatusResponse', {
      status: {
        id: 'p', metadata: { name: 'pod', uid: 'u', namespace: 'ns', attempt: 1 }, state: 'SANDBOX_NOTREADY', createdAt: '1',
        network: { ip: '10.88.0.2', additionalIps: [{ ip: 'fd00::2' }] },
        linux: { namespaces: { options: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD', targetId: 't', usernsOptions: { mode: 'POD', uids: [{ hostId: 100000, containerId: 0, length: 65536 }], gids: [] } } } },
        labels: { a: 'b' }, annotations: {}, runtimeHandler: 'runc',
      },
      info: { info: '{}' }, containersStatuses: [{ id: 'c', state: 'CONTAINER_RUNNING' }], timestamp: '17',
    });
    same('ImageStatusResponse', { image: { id: 'sha256:1', repoTags: ['a:1', 'b:2'], repoDigests: [], size: '18446744073709551615', uid: { value: '0' }, username: '', spec, pinned: true }, info: {} });
    same('ImageStatusResponse', { image: { id: 'i', size: '5', uid: null } });
  });

  it('keeps an enum value the descriptor does not name as its number, as protobufjs does', async () => {
    const root = await loadProtoRoot('cri-v1');
    // ContainerStatus{state: 9} (field 3, varint).
    const bytes = Buffer.from([0x0a, 0x02, 0x18, 0x09]);
    const mine = byDescriptor(statusTypes(), 'ContainerStatusResponse', bytes);
    expect(mine).toStrictEqual(decodeMessage(root, 'runtime.v1.ContainerStatusResponse', bytes));
    expect((mine!.status as { state: unknown }).state).toBe(9);
  });

  it('refuses a truncated message', () => {
    expect(byDescriptor(statusTypes(), 'ContainerStatusResponse', Buffer.from([0x0a, 0x05, 0x0a]))).toBeUndefined();
    expect(decodePods(Buffer.from([0x0a, 0x05, 0x0a]))).toBeUndefined();
  });
});

// Both transports unix-stream.ts has: libuv's pipe handle (the default) and node:net (ISULATS_FAST_NET=1).
describe.each(FAST_TRANSPORTS)('unary call over hand-made HTTP/2 %s', (_name, net) => {
  let dir: string;
  let server: Http2Server | undefined;
  useFastTransport(net);
  afterEach(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** A peer that answers with `body` (gRPC-framed) and `trailers`, or trailers only. */
  async function peer(answer: { body?: Buffer; trailers: Record<string, string>; hang?: boolean }): Promise<{ sock: string; seen: { path?: string; body?: Buffer } }> {
    dir = mkdtempSync(join(tmpdir(), 'isf-'));
    const sock = join(dir, 'p.sock');
    const seen: { path?: string; body?: Buffer } = {};
    server = createServer();
    server.on('stream', (stream, headers) => {
      seen.path = String(headers[':path']);
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        seen.body = Buffer.concat(chunks);
        if (answer.hang) return;
        if (!answer.body) {
          stream.respond({ ':status': 200, 'content-type': 'application/grpc', ...answer.trailers }, { endStream: true });
          return;
        }
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers(answer.trailers));
        const framed = Buffer.alloc(5 + answer.body.length);
        framed.writeUInt32BE(answer.body.length, 1);
        answer.body.copy(framed, 5);
        stream.end(framed);
      });
    });
    await new Promise<void>((r) => server!.listen(sock, r));
    return { sock, seen };
  }

  it('returns the message of a success (grpc-js\'s "OK" message too) and sends the request framed', async () => {
    const big = Buffer.alloc(200_000, 7); // beyond the default 64 KiB windows
    const { sock, seen } = await peer({ body: big, trailers: { 'grpc-status': '0', 'grpc-message': 'OK' } });
    const got = await unaryCall({ socket: sock, path: '/runtime.v1.RuntimeService/ListPodSandbox', message: LIST_PODS_REQUEST, timeoutMs: 30_000 });
    expect(Buffer.isBuffer(got) && got.equals(big)).toBe(true);
    expect(seen.path).toBe('/runtime.v1.RuntimeService/ListPodSandbox');
    expect(seen.body).toEqual(Buffer.from([0, 0, 0, 0, 2, 0x0a, 0x00]));
  });

  it.each([
    [{ body: Buffer.from([0x0a, 0x00]), trailers: { 'grpc-status': '0', 'grpc-message': 'something odd' } }],
    [{ trailers: { 'grpc-status': '0' } }],
    [{ body: Buffer.from([0x0a, 0x00]), trailers: { 'grpc-message': 'no status' } }],
  ])('returns nothing for an answer that is neither a plain success nor an error status: %j', async (answer) => {
    const { sock } = await peer(answer);
    expect(await unaryCall({ socket: sock, path: '/runtime.v1.RuntimeService/Version', message: VERSION_REQUEST, timeoutMs: 30_000 })).toBeUndefined();
  });

  it.each([
    [{ body: Buffer.from([0x0a, 0x00]), trailers: { 'grpc-status': '2', 'grpc-message': '0' } }, 2, '0'],
    [{ trailers: { 'grpc-status': '12', 'grpc-message': 'unknown service runtime.v1.RuntimeService' } }, 12, 'unknown service runtime.v1.RuntimeService'],
    // Percent-encoded as the gRPC spec says, decoded as grpc-js decodes it.
    [{ trailers: { 'grpc-status': '5', 'grpc-message': 'container %22x%22: not found %E2%98%83' } }, 5, 'container "x": not found ☃'],
  ])('returns the status of an error answer, its header blocks decoded in full (Huffman, tables): %j', async (answer, code, details) => {
    const { sock } = await peer(answer);
    const got = await unaryCall({ socket: sock, path: '/runtime.v1.RuntimeService/Version', message: VERSION_REQUEST, timeoutMs: 30_000 });
    expect(got).toBeInstanceOf(GrpcStatus);
    expect({ ...(got as GrpcStatus) }).toEqual({ code, details });
  });

  it('decodes HPACK blocks as the reference decoder does: grpc-go\'s and nghttp2\'s encodings, dynamic table across blocks', () => {
    // grpc-go's trailers (names Huffman-coded, indexed into the dynamic table), then the same names by index.
    const first = Buffer.from('40889acac8b21234da8f013040899acac8b5254207317f00', 'hex');
    expect(hpackDecode([first])).toEqual([[['grpc-status', '0'], ['grpc-message', '']]]);
    // Indexed 62 and 63: the dynamic table's newest first (grpc-message, then grpc-status).
    expect(hpackDecode([first, Buffer.from([0xbe, 0xbf])])).toEqual([[['grpc-status', '0'], ['grpc-message', '']], [['grpc-message', ''], ['grpc-status', '0']]]);
    // :status 200 (static 8), content-type with a static name and a Huffman value.
    expect(hpackDecode([Buffer.from('885f8b1d75d0620d263d4c4d6564', 'hex')])).toEqual([[[':status', '200'], ['content-type', 'application/grpc']]]);
    expect(hpackDecode([Buffer.from('4088', 'hex')])).toBeUndefined();
    expect(hpackDecode([Buffer.from([0xc0])])).toBeUndefined(); // index 64: nothing there
  });

  it('probes like the full CLI: passes over absent sockets, uses the first that answers, declines on a stale one', async () => {
    const version = Buffer.from('0a05302e312e3012026d65', 'hex'); // version "0.1.0", runtimeName "me"
    const { sock } = await peer({ body: version, trailers: { 'grpc-status': '0' } });
    const call = fastCall(['version'], { ISULATS_DAEMON_SOCKET: join(dir, 'absent.sock'), ISULATS_KNOWN_ENDPOINTS: `unix://${sock}` })!;
    expect(await runFastCall(call)).toEqual({
      stdout: 'Version:  0.1.0\nRuntimeName:  me\nRuntimeVersion:  \nRuntimeApiVersion:  \n',
      stderr: `${probedNote(`unix://${sock}`)}\n`,
    });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'stale.sock'), '');
    expect(await runFastCall(fastCall(['version'], { ISULATS_DAEMON_SOCKET: join(dir, 'stale.sock'), ISULATS_KNOWN_ENDPOINTS: `unix://${sock}` })!)).toBeUndefined();
    expect(await runFastCall(fastCall(['ps'], { ISULATS_DAEMON_SOCKET: join(dir, 'absent.sock'), ISULATS_KNOWN_ENDPOINTS: '' })!)).toBeUndefined();
  });

  it('gives up at the deadline, and at once on a socket nothing listens on', async () => {
    const { sock } = await peer({ trailers: {}, hang: true });
    expect(await unaryCall({ socket: sock, path: '/runtime.v1.RuntimeService/Version', message: VERSION_REQUEST, timeoutMs: 50 })).toBeUndefined();
    expect(await unaryCall({ socket: join(dir, 'none.sock'), path: '/x/Y', message: VERSION_REQUEST, timeoutMs: 30_000 })).toBeUndefined();
  });
});

describe('deadlines past what a timer holds', () => {
  it('caps -t at the longest RPC timeout and sends it as at most 8 digits', () => {
    const call = fastCall(['-t', '99999999999h', 'pods'], {});
    expect(call?.timeoutMs).toBe(MAX_RPC_TIMEOUT_MS);
    expect(grpcTimeout(2000)).toBe('2000m');
    expect(grpcTimeout(99_999_999)).toBe('99999999m');
    expect(grpcTimeout(MAX_RPC_TIMEOUT_MS)).toBe('2147483S');
    expect(grpcTimeout(0)).toBe('1m');
  });
});
