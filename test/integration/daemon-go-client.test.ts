// Interop with the Kubernetes Go client libraries kubelet and crictl are built on: our small
// client (test/go-cri-client: k8s.io/cri-api runtime/v1 over grpc-go, client-go's remotecommand
// SPDY and WebSocket executors, client-go's portforward over SPDY) drives a real `isulats daemon`
// through a pod's whole life, then containerd 1.6 the same way, to show the client itself is right.
// Needs the binary from scripts/build-go-test-tools.sh: without it every test fails, saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goToolPath, runGoCriClient, type GoRunOptions } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import type { RunResult } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';

// httpd on the pod's IP (8080) and on its loopback only (8081, which a runtime reaches only from inside the netns).
const WEB_CMD = ['sh', '-c', 'mkdir -p /www && echo hello-from-pod > /www/index.html && httpd -p 127.0.0.1:8081 -h /www && exec httpd -f -p 8080 -h /www'];
// Echoes lines on stdin until "quit", then exits 4: what an attach session drives.
const READER_CMD = ['sh', '-c', 'while read l; do echo "got:$l"; [ "$l" = quit ] && exit 4; done'];
// The same for containerd 1.6, which lingers a second before the exit: its attach can end the
// stream at the exit before the last line reaches the client (got:hello without got:quit, once in
// a CI run). isulats is held to the strict form: the last line before an exit is delivered.
const LINGERING_READER_CMD = ['sh', '-c', 'while read l; do echo "got:$l"; [ "$l" = quit ] && sleep 1 && exit 4; done'];
// A size the client sends once; the shell polls for it since it may land after the shell starts.
const WAIT_SIZE = 'for i in $(seq 50); do s=$(stty size); [ "$s" = "37 101" ] && break; sleep 0.1; done; echo "size=$s"';

/** A Go client bound to one endpoint; `ok` expects exit 0 and no stderr. */
function clientFor(endpoint: string, global: string[] = []) {
  const bin = goToolPath('go-cri-client');
  const go = (args: string[], opts?: GoRunOptions): Promise<RunResult> =>
    runGoCriClient(bin, ['-endpoint', endpoint, ...global, ...args], opts);
  const ok = async (args: string[], opts?: GoRunOptions): Promise<string> => {
    const r = await go(args, opts);
    expect({ code: r.code, stderr: r.stderr }, `go-cri-client ${args.join(' ')}`).toEqual({ code: 0, stderr: '' });
    return r.stdout;
  };
  const json = async <T = Record<string, unknown>>(args: string[]): Promise<T> => JSON.parse(await ok(args)) as T;
  return { go, ok, json };
}

type Client = ReturnType<typeof clientFor>;

interface Pod { podId: string; web: string }

/** A pod whose first container serves /index.html on 8080, ready once wget inside gets it. */
async function runWebPod(c: Client, image: string, label: string): Promise<Pod> {
  const { podId, containerId } = await c.json<{ podId: string; containerId: string }>(
    ['run-pod-container', '-name', `gocri-${label}`, '-label', label, '-image', image, '--', ...WEB_CMD]);
  await waitFor(async () => (await c.go(['exec-sync', '-id', containerId, '--', 'wget', '-qO-', 'http://127.0.0.1:8080/index.html'])).stdout === 'hello-from-pod\n',
    { timeoutMs: 20_000, intervalMs: 200, what: 'httpd in the pod' });
  return { podId, web: containerId };
}

/** The streaming checks every runtime must pass with client-go's SPDY executor and portforward. */
function streamingCases(get: () => { c: Client; pod: Pod; image: string }, transports: string[], readerCmd = READER_CMD) {
  it('runs ExecSync with separate stdout, stderr and the exit code', async () => {
    const { c, pod } = get();
    const r = await c.go(['exec-sync', '-id', pod.web, '--', 'sh', '-c', 'echo out; echo err >&2; exit 3']);
    expect(r).toEqual({ code: 3, stdout: 'out\n', stderr: 'err\n' });
  });

  for (const transport of transports) {
    it(`execs over ${transport}: stdin to EOF, split stdout/stderr, exit code`, async () => {
      const { c, pod } = get();
      const r = await c.go(['exec', '-id', pod.web, '-transport', transport, '-stdin', '--', 'sh', '-c', 'cat; echo done >&2; exit 5'],
        { input: 'line one\nline two\n' });
      expect(r).toEqual({ code: 5, stdout: 'line one\nline two\n', stderr: 'done\n' });
    });

    it(`execs over ${transport} with a TTY, a resize and an interactive shell`, async () => {
      const { c, pod } = get();
      const r = await c.go(['exec', '-id', pod.web, '-transport', transport, '-tty', '-stdin', '-resize', '101x37', '--', 'sh'],
        { input: `${WAIT_SIZE}; exit 6\n`, keepStdinOpen: true });
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/size=37 101\r\n/);
      expect(r.code).toBe(6);
    });

    it(`attaches over ${transport} to a container reading stdin`, async () => {
      const { c, pod, image } = get();
      const { containerId } = await c.json<{ containerId: string }>(
        ['run-container', '-pod', pod.podId, '-name', `reader-${transport}`, '-image', image, '-stdin', '--', ...readerCmd]);
      const r = await c.go(['attach', '-id', containerId, '-transport', transport, '-stdin'],
        { input: 'hello\nquit\n', keepStdinOpen: true });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      expect(r.stdout).toBe('got:hello\ngot:quit\n');
      await waitFor(async () => (await c.json(['container-status', '-id', containerId])).state === 'CONTAINER_EXITED',
        { timeoutMs: 10_000, intervalMs: 200, what: 'reader exited' });
      expect(await c.json(['container-status', '-id', containerId])).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 4 });
    });
  }

  it('attaches over spdy with a TTY and a resize', async () => {
    const { c, pod, image } = get();
    const { containerId } = await c.json<{ containerId: string }>(
      ['run-container', '-pod', pod.podId, '-name', 'tty', '-image', image, '-stdin', '-tty', '--', 'sh']);
    const r = await c.go(['attach', '-id', containerId, '-tty', '-stdin', '-resize', '101x37'],
      { input: `${WAIT_SIZE}; exit 6\n`, keepStdinOpen: true });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/size=37 101\r\n/);
    await waitFor(async () => (await c.json(['container-status', '-id', containerId])).state === 'CONTAINER_EXITED',
      { timeoutMs: 10_000, intervalMs: 200, what: 'tty shell exited' });
    expect(await c.json(['container-status', '-id', containerId])).toMatchObject({ exitCode: 6 });
  });

  for (const port of ['8080', '8081']) {
    it(`port-forwards over spdy to httpd on ${port === '8080' ? 'the pod IP' : 'the pod\'s loopback'}: two connections in turn`, async () => {
      const { c, pod } = get();
      const out = await c.json<{ localPort: number; replies: string[] }>(['port-forward', '-pod', pod.podId, '-port', port,
        '-connections', '2', '-send', 'GET /index.html?n={i} HTTP/1.0\r\n\r\n']);
      expect(out.localPort).toBeGreaterThan(0);
      expect(out.replies).toHaveLength(2);
      for (const reply of out.replies) expect(reply).toMatch(/^HTTP\/1\.[01] 200 OK\r\n[\s\S]*\r\n\r\nhello-from-pod\n$/);
    });
  }

  it('fails a port-forward to a port nobody listens on, with the runtime\'s reason', async () => {
    const { c, pod } = get();
    const r = await c.go(['port-forward', '-pod', pod.podId, '-port', '8099', '-send', 'x']);
    expect(r.code).toBe(1);
    // containerd: "failed to connect to localhost:8099"; isulats: "Connection refused".
    expect(r.stderr).toMatch(/^go-cri-client: port forward, connection 0: an error occurred forwarding \d+ -> 8099: .*(refused|failed to connect)/i);
  });
}

let image: string;

// Before any runtime is touched: without a current build every test fails, naming the script.
beforeAll(() => {
  goToolPath('go-cri-client');
  image = rigEnv().ISULATS_TEST_BUSYBOX;
});

describe('Go CRI client against isulats daemon', () => {
  let daemon: IsulatsDaemon | undefined;
  let c: Client;
  let pod: Pod | undefined;

  beforeAll(async () => {
    const env = rigEnv();
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    c = clientFor(daemon.endpoint);
  });

  afterAll(async () => {
    await daemon?.cleanup();
  });

  // grpc-go 1.64 sends the socket path, percent-encoded ("%2Ftmp%2F...%2Fd.sock"), as :authority
  // when the target is a bare path (crictl, kubelet); "localhost" with WithAuthority or unix://.
  it('gets Version through grpc-go with the default :authority, with "localhost", and over grpc-go\'s unix resolver', async () => {
    for (const global of [[], ['-authority', 'localhost'], ['-dial', 'unix']]) {
      const v = await clientFor(daemon!.endpoint, global).json(['version']);
      expect(v, global.join(' ')).toMatchObject({ runtime_name: 'isulats', runtime_api_version: 'v1' });
    }
  });

  // crictl and critest before 1.26 and kubelets before 1.26 send the bare socket path, which nghttp2
  // refuses: the daemon patches it. grpc-go indexes every header, and a new grpc-timeout per call
  // churns its 4 KiB HPACK table, so the authority entry is evicted and sent again every ~70 calls.
  it('serves 300 calls on one connection from a client sending the bare socket path as :authority, through HPACK evictions', async () => {
    const path = daemon!.endpoint.slice('unix://'.length);
    for (const rpc of ['Version', 'ListContainers']) {
      const out = await clientFor(daemon!.endpoint, ['-authority', path]).json<{ ms: number[] }>(['repeat', '-rpc', rpc, '-k', '300']);
      expect(out.ms, rpc).toHaveLength(300);
    }
  });

  it('reports RuntimeReady and NetworkReady', async () => {
    expect(await c.json(['status'])).toEqual({ RuntimeReady: true, NetworkReady: true });
  });

  it('pulls busybox and reports its status', async () => {
    const { imageRef } = await c.json<{ imageRef: string }>(['pull', '-image', image]);
    expect(imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    const st = await c.json(['image-status', '-image', image]);
    expect(st).toMatchObject({ found: true, id: imageRef, repoTags: expect.arrayContaining([image]) });
    expect(Number(st.size)).toBeGreaterThan(0);
  });

  it('runs a pod and a container and lists them', async () => {
    pod = await runWebPod(c, image, 'isulats');
    const list = await c.json<{ pods: { ID: string; State: string }[]; containers: { ID: string; State: string; PodID: string }[] }>(
      ['list', '-label', 'isulats']);
    expect(list.pods).toEqual([expect.objectContaining({ ID: pod.podId, State: 'SANDBOX_READY' })]);
    expect(list.containers).toEqual([expect.objectContaining({ ID: pod.web, State: 'CONTAINER_RUNNING', PodID: pod.podId })]);
    expect(await c.json(['container-status', '-id', pod.web])).toMatchObject({ state: 'CONTAINER_RUNNING', image });
  });

  streamingCases(() => ({ c, pod: pod!, image }), ['spdy', 'websocket']);

  it('stops and removes the pod, then removes the image', async () => {
    const { removedContainers } = await c.json<{ removedContainers: number }>(['stop-remove', '-pod', pod!.podId]);
    expect(removedContainers).toBe(4); // web, two readers, tty
    expect(await c.json(['list', '-label', 'isulats'])).toEqual({ pods: [], containers: [] });
    await c.ok(['remove-image', '-image', image]);
    expect(await c.json(['image-status', '-image', image])).toEqual({ found: false });
  });
});

describe('the same Go CRI client against containerd 1.6 (the client is right)', () => {
  let c: Client;
  let pod: Pod | undefined;

  beforeAll(async () => {
    c = clientFor(rigEnv().ISULATS_TEST_CONTAINERD);
    await c.ok(['pull', '-image', image]);
    pod = await runWebPod(c, image, `ctd-${process.pid}`);
  });

  afterAll(async () => {
    // The rig's containerd is shared: remove our pod, keep the image.
    if (pod) await c.ok(['stop-remove', '-pod', pod.podId]);
  });

  it('reports containerd over the same gRPC path', async () => {
    expect(await c.json(['version'])).toMatchObject({ runtime_name: 'containerd', runtime_api_version: 'v1' });
  });

  // SPDY only: containerd 1.6's streaming server answers client-go's WebSocket executor 403.
  streamingCases(() => ({ c, pod: pod!, image }), ['spdy'], LINGERING_READER_CMD);
});
