// The checks of the upstream CRI validation suite (critest, cri-tools pkg/validate), rewritten
// against one real `isulats daemon` process on the embedded engine: the same requests critest
// sends, through a raw CRI client, and the same assertions on the answers and on what is
// observable inside the containers (through ExecSync). Grouped as critest groups them. Where
// the host cannot do what critest's images do (static busybox instead of nginx and busybox
// 1.28, no AppArmor/SELinux, no dummy netdev), the test says so and checks the equivalent.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadCriServices, type CriVersion } from '../../src/api/proto.js';
import { runRemoteCommand, startPortForward } from '../../src/client/streaming/index.js';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { pushLayout, rigImageLayouts } from '../rig/images.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let daemon: IsulatsDaemon;
let c: RawCriClient;
let dir: string;
let BUSYBOX: string;

/** critest's pauseCmd: a long-running shell. */
const PAUSE_CMD = ['sh', '-c', 'top'];
const uuid = () => randomUUID().slice(0, 8);

/** Pods made by the current test; afterEach stops and removes them as critest's AfterEach does. */
const podsOfTest: string[] = [];

function podConfig(prefix: string, extra: CriMessage = {}): CriMessage {
  const name = `${prefix}${uuid()}`;
  return {
    metadata: { name, uid: `cri-test-uid-${uuid()}`, namespace: `cri-test-namespace-${uuid()}`, attempt: 0 },
    ...extra,
  };
}

async function runPod(config: CriMessage, runtimeHandler = ''): Promise<string> {
  const { podSandboxId } = await c.runtime('RunPodSandbox', { config, runtimeHandler });
  podsOfTest.push(podSandboxId);
  return podSandboxId;
}

/** framework.CreatePodSandboxForContainer: a default pod plus its config. */
async function podForContainer(extra: CriMessage = {}): Promise<{ podId: string; config: CriMessage }> {
  const config = podConfig('PodSandbox-for-create-container-', extra);
  return { podId: await runPod(config), config };
}

async function createContainer(podId: string, sandboxConfig: CriMessage, config: CriMessage): Promise<string> {
  const full = {
    metadata: { name: `container-${uuid()}`, attempt: 0 },
    image: { image: BUSYBOX },
    command: PAUSE_CMD,
    linux: {},
    ...config,
  };
  const { containerId } = await c.runtime('CreateContainer', { podSandboxId: podId, config: full, sandboxConfig });
  return containerId;
}

async function status(containerId: string): Promise<CriMessage> {
  return (await c.runtime('ContainerStatus', { containerId })).status;
}

async function waitState(containerId: string, state: string): Promise<void> {
  await waitFor(async () => (await status(containerId)).state === state, { timeoutMs: 60_000, intervalMs: 200, what: `${containerId} ${state}` });
}

async function startRunning(containerId: string): Promise<void> {
  await c.runtime('StartContainer', { containerId });
  await waitState(containerId, 'CONTAINER_RUNNING');
}

interface ExecResult { stdout: string; stderr: string; exitCode: number }

async function execSync(containerId: string, cmd: string[], timeout = 30): Promise<ExecResult> {
  const res = await c.runtime('ExecSync', { containerId, cmd, timeout: String(timeout) }, (timeout + 30) * 1000);
  return { stdout: Buffer.from(res.stdout).toString(), stderr: Buffer.from(res.stderr).toString(), exitCode: res.exitCode };
}

/** critest's execSyncContainer: success, nothing on stderr, stdout returned. */
async function execOk(containerId: string, cmd: string[]): Promise<string> {
  const r = await execSync(containerId, cmd);
  expect(r.stderr, cmd.join(' ')).toBe('');
  expect(r.exitCode, `${cmd.join(' ')}: ${r.stdout}`).toBe(0);
  return r.stdout;
}

async function listContainerIds(filter: CriMessage): Promise<string[]> {
  return (await c.runtime('ListContainers', { filter })).containers.map((x: CriMessage) => x.id);
}

async function listPodIds(filter: CriMessage): Promise<string[]> {
  return (await c.runtime('ListPodSandbox', { filter })).items.map((x: CriMessage) => x.id);
}

/** A log dir for a pod, as createPodSandboxWithLogDirectory does (removed with `dir`). */
async function logDir(name: string): Promise<string> {
  const path = join(dir, 'logs', name);
  await mkdir(path, { recursive: true });
  return path;
}

interface LogLine { time: string; stream: string; tag: string; log: string }

/** The CRI log format: `<RFC3339Nano> <stream> <P|F> <text>` per line. */
async function parseLog(path: string): Promise<LogLine[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => {
    // `s`: a line's text may hold \r (a shell without a TTY still prints it).
    const m = /^(\S+) (stdout|stderr) ([PF]) (.*)$/s.exec(line);
    if (!m) throw new Error(`not a CRI log line: ${JSON.stringify(line)}`);
    return { time: m[1]!, stream: m[2]!, tag: m[3]!, log: m[4]! };
  });
}

/** verifyLogContents: the log holds `expected` (full lines joined) on `stream`. */
async function expectLog(path: string, expected: string, stream = 'stdout'): Promise<void> {
  await waitFor(async () => (await parseLog(path)).length > 0, { timeoutMs: 10_000, what: `log ${path}` });
  const lines = await parseLog(path);
  for (const l of lines) expect(Number.isNaN(Date.parse(l.time)), l.time).toBe(false);
  // Partial (P) lines continue in the next entry; a full one (F) ends the text line.
  expect(lines.filter((l) => l.stream === stream).map((l) => (l.tag === 'F' ? `${l.log}\n` : l.log)).join('')).toBe(expected);
}

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const parts: Buffer[] = [];
  stream.on('data', (b: Buffer) => parts.push(b));
  return { stream, text: () => Buffer.concat(parts).toString() };
}

async function httpGet(port: number, host = '127.0.0.1'): Promise<string> {
  const res = await fetch(`http://${host}:${port}/`, { signal: AbortSignal.timeout(5_000) });
  return res.text();
}

beforeAll(async () => {
  const env = rigEnv();
  BUSYBOX = env.ISULATS_TEST_BUSYBOX;
  dir = await makeTempDir('ist-crit-');
  // critest pulls by upstream names (registry.k8s.io/...): offline they resolve only through a
  // per-registry mirror, here the rig's registry.
  const k8sHosts = join(dir, 'certs.d', 'registry.k8s.io');
  await mkdir(k8sHosts, { recursive: true });
  await writeFile(join(k8sHosts, 'hosts.toml'), `server = "https://registry.k8s.io"\n[host."http://${env.ISULATS_TEST_REGISTRY}"]\n  capabilities = ["pull", "resolve"]\n`);
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE, extraConfig: { 'registry-config-dir': join(dir, 'certs.d') } });
  c = openCriClient(daemon.endpoint);
  // critest pulls its test images, never the sandbox image: the first RunPodSandbox pulls it.
  await c.image('PullImage', { image: { image: BUSYBOX } });
});

afterEach(async () => {
  while (podsOfTest.length > 0) {
    const podSandboxId = podsOfTest.pop()!;
    await c.runtime('StopPodSandbox', { podSandboxId }).catch(() => undefined);
    await c.runtime('RemovePodSandbox', { podSandboxId }).catch(() => undefined);
  }
});

afterAll(async () => {
  c?.close();
  await daemon?.cleanup();
  if (dir) await removeTempDir(dir);
});

describe('[k8s.io] Runtime info', () => {
  it('runtime should return version info [Conformance]', async () => {
    const v = await c.runtime('Version', { version: 'v1' });
    expect(v.version).not.toBe('');
    expect(v.runtimeName).toBe('isulats');
    expect(v.runtimeVersion).not.toBe('');
    expect(v.runtimeApiVersion).toBe('v1');
  });

  it('answers RuntimeConfig with a cgroup driver (critest picks its pods\' cgroup parent from it)', async () => {
    const cfg = await c.runtime('RuntimeConfig', {});
    expect(['SYSTEMD', 'CGROUPFS']).toContain(cfg.linux.cgroupDriver);
  });

  it('runtime should return runtime conditions [Conformance]', async () => {
    const s = await c.runtime('Status', { verbose: false });
    const conditions: CriMessage[] = s.status.conditions;
    expect(conditions.find((x) => x.type === 'RuntimeReady')?.status).toBe(true);
    expect(conditions.find((x) => x.type === 'NetworkReady')?.status).toBe(true);
  });
});

describe('[k8s.io] PodSandbox', () => {
  it('runtime should support running PodSandbox [Conformance]', async () => {
    expect((await c.image('ImageStatus', { image: { image: rigEnv().ISULATS_TEST_PAUSE } })).image ?? null).toBeNull();
    const podId = await runPod(podConfig('PodSandbox-for-create-test-'));
    expect((await c.runtime('PodSandboxStatus', { podSandboxId: podId })).status.state).toBe('SANDBOX_READY');
    expect(await listPodIds({ id: podId })).toEqual([podId]);
  });

  it('runtime should support stopping PodSandbox [Conformance]', async () => {
    const podId = await runPod(podConfig('PodSandbox-for-test-stop-'));
    await c.runtime('StopPodSandbox', { podSandboxId: podId });
    expect((await c.runtime('PodSandboxStatus', { podSandboxId: podId })).status.state).toBe('SANDBOX_NOTREADY');
  });

  it('runtime should support removing PodSandbox [Conformance]', async () => {
    const podId = await runPod(podConfig('PodSandbox-for-test-remove-'));
    await c.runtime('StopPodSandbox', { podSandboxId: podId });
    await c.runtime('RemovePodSandbox', { podSandboxId: podId });
    expect(await listPodIds({ id: podId })).toEqual([]);
  });

  it('runtime should support preserving PodSandbox attributes [Conformance]', async () => {
    const config = podConfig('PodSandbox-with-attributes-');
    const { name, uid, namespace } = config.metadata;
    const labels = { foo: 'bar', 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': namespace, 'io.kubernetes.pod.uid': uid };
    const annotations = { abc: 'def' };
    const podId = await runPod({ ...config, labels, annotations, linux: { cgroupParent: '' } });
    const st = (await c.runtime('PodSandboxStatus', { podSandboxId: podId })).status;
    expect(st.metadata).toMatchObject(config.metadata);
    expect(st.labels).toMatchObject(labels);
    expect(st.annotations).toMatchObject(annotations);
    const pods = (await c.runtime('ListPodSandbox', { filter: { id: podId } })).items;
    expect(pods).toHaveLength(1);
    expect(pods[0].metadata).toMatchObject(config.metadata);
    expect(pods[0].labels).toMatchObject(labels);
    expect(pods[0].annotations).toMatchObject(annotations);
  });

  it('runtime should support PodSandboxStatus with verbose info (a JSON "info" map)', async () => {
    const podId = await runPod(podConfig('PodSandbox-verbose-'));
    const res = await c.runtime('PodSandboxStatus', { podSandboxId: podId, verbose: true });
    expect(res.status.id).toBe(podId);
    expect(Object.keys(res.info).length).toBeGreaterThan(0);
    for (const v of Object.values(res.info)) expect(() => JSON.parse(v as string)).not.toThrow();
  });

  it('should support safe sysctls', async () => {
    const { podId, config } = await podForContainer({ linux: { sysctls: { 'kernel.shm_rmid_forced': '1' } } });
    const ctr = await createContainer(podId, config, { metadata: { name: 'container-shm-rmid-forced', attempt: 0 } });
    await startRunning(ctr);
    expect((await execOk(ctr, ['cat', '/proc/sys/kernel/shm_rmid_forced'])).trim()).toBe('1');
  });

  it('should support unsafe sysctls', async () => {
    const { podId, config } = await podForContainer({ linux: { sysctls: { 'fs.mqueue.msg_max': '100' } } });
    const ctr = await createContainer(podId, config, { metadata: { name: 'container-fs-mqueue-msg-max', attempt: 0 } });
    await startRunning(ctr);
    expect((await execOk(ctr, ['cat', '/proc/sys/fs/mqueue/msg_max'])).trim()).toBe('100');
  });

  it('runs a pod for the default runtime handler and refuses an unknown one', async () => {
    expect(await runPod(podConfig('PodSandbox-handler-'), '')).toMatch(/^[0-9a-f]{64}$/);
    const bad = await c.runtime('RunPodSandbox', { config: podConfig('PodSandbox-bad-handler-'), runtimeHandler: 'no-such-handler' }).then(
      (r) => { podsOfTest.push(r.podSandboxId); return 0; }, (e: grpc.ServiceError) => e.code);
    // kubelet relies on the error to report an unusable RuntimeClass (containerd fails it too).
    expect(bad).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await listPodIds({})).length).toBe(podsOfTest.length);
  });
});

describe('[k8s.io] Container', () => {
  describe('runtime should support basic operations on container', () => {
    let podId: string;
    let config: CriMessage;
    // critest creates a pod per spec (framework.CreatePodSandboxForContainer in BeforeEach).
    beforeEach(async () => {
      ({ podId, config } = await podForContainer());
    });

    it('runtime should support creating container [Conformance]', async () => {
      const id = await createContainer(podId, config, { metadata: { name: `container-for-create-${uuid()}`, attempt: 0 } });
      expect(await listContainerIds({ id })).toEqual([id]);
      expect((await status(id)).state).toBe('CONTAINER_CREATED');
    });

    it('runtime should support starting container [Conformance]', async () => {
      const id = await createContainer(podId, config, {});
      await startRunning(id);
    });

    it('runtime should support stopping container [Conformance]', async () => {
      const id = await createContainer(podId, config, {});
      await startRunning(id);
      // `top` ignores nothing: SIGTERM ends it, long before the hour's timeout would send SIGKILL.
      await c.runtime('StopContainer', { containerId: id, timeout: '3600' }, 100_000);
      await waitState(id, 'CONTAINER_EXITED');
      expect((await status(id)).exitCode).not.toBe(137);
    });

    it('runtime should support removing container [Conformance]', async () => {
      const id = await createContainer(podId, config, {});
      await c.runtime('RemoveContainer', { containerId: id });
      expect(await listContainerIds({ id })).toEqual([]);
    });

    it('runtime should support execSync [Conformance]', async () => {
      const id = await createContainer(podId, config, {});
      await startRunning(id);
      expect(await execOk(id, ['echo', 'hello'])).toBe('hello\n');
    });

    it('runtime should support execSync with timeout [Conformance]', async () => {
      const id = await createContainer(podId, config, {});
      await startRunning(id);
      // The sleep would run for over an hour: only the 1 s timeout ends the call (the client's deadline is far off).
      const timedOut = await c.runtime('ExecSync', { containerId: id, cmd: ['sleep', '4321'], timeout: '1' }, 90_000).then(
        (r) => ({ code: 0, exitCode: r.exitCode }), (e: grpc.ServiceError) => ({ code: e.code, exitCode: -1 }));
      // critest only requires an error (its Go client turns a non-zero exit code into one too);
      // containerd answers DeadlineExceeded, which is what we give.
      expect(timedOut.code).toBe(grpc.status.DEADLINE_EXCEEDED);
      // The timed-out process must be gone.
      await waitFor(async () => !(await execOk(id, ['ps', '-o', 'args'])).includes('sleep 4321'), { timeoutMs: 10_000, what: 'sleep gone' });
    });

    it('runtime should support listing container stats [Conformance] and filtering them', async () => {
      const id = await createContainer(podId, config, { labels: { 'stats-test': 'yes' } });
      await startRunning(id);
      const one = (await c.runtime('ContainerStats', { containerId: id })).stats;
      expect(one.attributes.id).toBe(id);
      expect(Number(one.cpu.timestamp)).toBeGreaterThan(0);
      expect(Number(one.memory.workingSetBytes.value)).toBeGreaterThan(0);
      expect(one.writableLayer.fsId.mountpoint).not.toBe('');
      const byId = (await c.runtime('ListContainerStats', { filter: { id } })).stats;
      expect(byId.map((s: CriMessage) => s.attributes.id)).toEqual([id]);
      const byPod = (await c.runtime('ListContainerStats', { filter: { podSandboxId: podId } })).stats;
      expect(byPod.map((s: CriMessage) => s.attributes.id)).toEqual([id]);
      const byLabel = (await c.runtime('ListContainerStats', { filter: { labelSelector: { 'stats-test': 'yes' } } })).stats;
      expect(byLabel.map((s: CriMessage) => s.attributes.id)).toEqual([id]);
      expect((await c.runtime('ListContainerStats', { filter: { labelSelector: { 'stats-test': 'no' } } })).stats).toEqual([]);
    });

    it('runtime should support pod sandbox stats (PodSandboxStats, ListPodSandboxStats by id and label)', async () => {
      const id = await createContainer(podId, config, {});
      await startRunning(id);
      const one = (await c.runtime('PodSandboxStats', { podSandboxId: podId })).stats;
      expect(one.attributes.id).toBe(podId);
      expect(one.attributes.metadata).toMatchObject(config.metadata);
      expect(Number(one.linux.memory.workingSetBytes.value)).toBeGreaterThan(0);
      expect(one.linux.containers.map((x: CriMessage) => x.attributes.id)).toEqual([id]);
      const listed = (await c.runtime('ListPodSandboxStats', { filter: { id: podId } })).stats;
      expect(listed.map((x: CriMessage) => x.attributes.id)).toEqual([podId]);
      expect((await c.runtime('ListPodSandboxStats', { filter: { labelSelector: { none: 'such' } } })).stats).toEqual([]);
    });

    it('runtime should support ContainerStatus with verbose info', async () => {
      const id = await createContainer(podId, config, { labels: { a: 'b' }, annotations: { c: 'd' } });
      await startRunning(id);
      const res = await c.runtime('ContainerStatus', { containerId: id, verbose: true });
      expect(res.status).toMatchObject({ id, state: 'CONTAINER_RUNNING', labels: { a: 'b' }, annotations: { c: 'd' } });
      expect(res.status.image.image).not.toBe('');
      expect(res.status.imageRef).not.toBe('');
      expect(Number(res.status.createdAt)).toBeGreaterThan(0);
      expect(Number(res.status.startedAt)).toBeGreaterThanOrEqual(Number(res.status.createdAt));
      const info = JSON.parse(res.info.info);
      expect(info.pid).toBeGreaterThan(0);
    });

    it('runtime should support UpdateContainerResources (memory and CPU, seen in the cgroup)', async () => {
      const id = await createContainer(podId, config, { linux: { resources: { memoryLimitInBytes: String(200 * 1024 * 1024), cpuShares: '512' } } });
      await startRunning(id);
      const memPath = '/sys/fs/cgroup/memory/memory.limit_in_bytes';
      expect((await execOk(id, ['cat', memPath])).trim()).toBe(String(200 * 1024 * 1024));
      await c.runtime('UpdateContainerResources', { containerId: id, linux: { memoryLimitInBytes: String(400 * 1024 * 1024), cpuShares: '1024', cpuPeriod: '100000', cpuQuota: '50000' } });
      expect((await execOk(id, ['cat', memPath])).trim()).toBe(String(400 * 1024 * 1024));
      expect((await execOk(id, ['cat', '/sys/fs/cgroup/cpu/cpu.shares'])).trim()).toBe('1024');
      expect((await execOk(id, ['cat', '/sys/fs/cgroup/cpu/cpu.cfs_quota_us'])).trim()).toBe('50000');
      const st = await status(id);
      if (st.resources?.linux) expect(st.resources.linux.memoryLimitInBytes).toBe(String(400 * 1024 * 1024));
    });
  });

  describe('runtime should support adding volume and device', () => {
    it('runtime should support starting container with volume [Conformance]', async () => {
      const { podId, config } = await podForContainer();
      const hostPath = join(dir, `test${podId.slice(0, 12)}`);
      await mkdir(hostPath);
      await writeFile(join(hostPath, 'testVolume.file'), '');
      const id = await createContainer(podId, config, { command: PAUSE_CMD, mounts: [{ hostPath, containerPath: hostPath, selinuxRelabel: true }] });
      await startRunning(id);
      expect(await execOk(id, ['ls', '-A', hostPath])).not.toBe('');
    });

    it('runtime should support starting container with volume when host path is a symlink [Conformance]', async () => {
      const { podId, config } = await podForContainer();
      const hostPath = join(dir, `test${podId.slice(0, 12)}`);
      await mkdir(hostPath);
      await writeFile(join(hostPath, 'testVolume.file'), '');
      const link = `${hostPath}-symlink`;
      await symlink(hostPath, link);
      const id = await createContainer(podId, config, { mounts: [{ hostPath: link, containerPath: link, selinuxRelabel: true }] });
      await startRunning(id);
      expect(await execOk(id, ['ls', '-A', link])).toBe('testVolume.file\n');
    });
  });

  describe('runtime should support log', () => {
    it('runtime should support starting container with log [Conformance]', async () => {
      const logDirectory = await logDir(`log-${uuid()}`);
      const { podId, config } = await podForContainer({ logDirectory });
      const name = `container-with-log-test-${uuid()}`;
      const id = await createContainer(podId, config, { metadata: { name, attempt: 0 }, command: ['echo', 'hello World'], logPath: `${name}.log` });
      await c.runtime('StartContainer', { containerId: id });
      await waitState(id, 'CONTAINER_EXITED');
      expect((await status(id)).logPath).toBe(join(logDirectory, `${name}.log`));
      await expectLog(join(logDirectory, `${name}.log`), 'hello World\n');
    });

    it('runtime should support reopening container log [Conformance]', async () => {
      const logDirectory = await logDir(`reopen-${uuid()}`);
      const { podId, config } = await podForContainer({ logDirectory });
      const logPath = `reopen-${uuid()}.log`;
      const id = await createContainer(podId, config, { command: ['sh', '-c', 'while true; do echo hello World; sleep 0.2; done'], logPath });
      await startRunning(id);
      const path = join(logDirectory, logPath);
      await waitFor(async () => (await parseLog(path)).length > 0, { timeoutMs: 60_000, what: 'log lines' });
      await rename(path, `${path}.new`);
      await c.runtime('ReopenContainerLog', { containerId: id });
      expect(existsSync(path)).toBe(true);
      await waitFor(async () => (await parseLog(path)).length > 0, { timeoutMs: 60_000, what: 'new log lines' });
      const oldLength = (await parseLog(`${path}.new`)).length;
      await sleep(2_000);
      expect((await parseLog(`${path}.new`)).length).toBe(oldLength);
    });

    it('ReopenContainerLog of a stopped container is an error', async () => {
      const { podId, config } = await podForContainer({ logDirectory: await logDir(`reopen-stopped-${uuid()}`) });
      const id = await createContainer(podId, config, { command: ['true'], logPath: 'x.log' });
      await c.runtime('StartContainer', { containerId: id });
      await waitState(id, 'CONTAINER_EXITED');
      await expect(c.runtime('ReopenContainerLog', { containerId: id })).rejects.toThrow();
    });
  });

  describe('runtime should support mount propagation', () => {
    // critest's container_linux.go: a privileged container bind-mounts a tmpfs under a host
    // path mounted with each propagation mode; the host sees it only for rshared, and a mount
    // made on the host shows up in the container for rslave and rshared, not for private.
    for (const [propagation, hostSeesContainerMount, containerSeesHostMount] of [
      ['PROPAGATION_PRIVATE', false, false],
      ['PROPAGATION_HOST_TO_CONTAINER', false, true],
      ['PROPAGATION_BIDIRECTIONAL', true, true],
    ] as const) {
      it(`mount with '${propagation}'`, async () => {
        const { podId, config } = await podForContainer({ linux: { securityContext: { privileged: true } } });
        const root = join(dir, `prop-${uuid()}`);
        await mkdir(root);
        // The host path must itself be a shared mount point for the modes to differ.
        await run('mount', ['--bind', root, root]);
        await run('mount', ['--make-rshared', root]);
        try {
          await mkdir(join(root, 'from-ctr'));
          await mkdir(join(root, 'from-host'));
          const id = await createContainer(podId, config, {
            mounts: [{ hostPath: root, containerPath: '/propagation', propagation }],
            linux: { securityContext: { privileged: true } },
          });
          // createMountPropagationContainer checks the mount as ContainerStatus reports it.
          const mounts = (await c.runtime('ContainerStatus', { containerId: id, verbose: true })).status.mounts;
          expect(mounts).toHaveLength(1);
          expect(mounts[0]).toMatchObject({ containerPath: '/propagation', hostPath: root, readonly: false, selinuxRelabel: false, propagation });
          await startRunning(id);
          await execOk(id, ['mount', '-t', 'tmpfs', 'tmpfs', '/propagation/from-ctr']);
          await execOk(id, ['sh', '-c', 'echo ctr > /propagation/from-ctr/flag']);
          expect(existsSync(join(root, 'from-ctr/flag'))).toBe(hostSeesContainerMount);
          await run('mount', ['-t', 'tmpfs', 'tmpfs', join(root, 'from-host')]);
          await writeFile(join(root, 'from-host/flag'), 'host');
          const seen = await execSync(id, ['cat', '/propagation/from-host/flag']);
          expect(seen.exitCode === 0 && seen.stdout === 'host').toBe(containerSeesHostMount);
          await c.runtime('StopContainer', { containerId: id, timeout: '10' });
        } finally {
          await run('umount', ['-R', root]).catch(() => undefined);
        }
      });
    }
  });

  describe('Container OOM', () => {
    it('should terminate with exitCode 137 and reason OOMKilled', async () => {
      const { podId, config } = await podForContainer({ linux: { securityContext: { privileged: true } } });
      const id = await createContainer(podId, config, {
        command: ['sh', '-c', 'dd if=/dev/zero of=/dev/null bs=20M'],
        linux: { resources: { memoryLimitInBytes: String(15 * 1024 * 1024), memorySwapLimitInBytes: String(15 * 1024 * 1024) } },
      });
      await c.runtime('StartContainer', { containerId: id });
      await waitState(id, 'CONTAINER_EXITED');
      expect(await status(id)).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    });
  });

  describe('Container Mount Readonly', () => {
    it('should support non-recursive readonly mounts', async () => {
      const { podId, config } = await podForContainer({ linux: { securityContext: { privileged: true } } });
      const hostPath = join(dir, `rro-${uuid()}`);
      await mkdir(join(hostPath, 'tmpfs'), { recursive: true });
      await run('mount', ['-t', 'tmpfs', 'none', join(hostPath, 'tmpfs')]);
      try {
        const id = await createContainer(podId, config, { mounts: [{ hostPath, containerPath: '/mnt', readonly: true }] });
        await startRunning(id);
        // Read-only for the bind itself, not for what is mounted below it.
        await execOk(id, ['touch', '/mnt/tmpfs/file']);
        expect((await execSync(id, ['touch', '/mnt/file'])).stderr).toBe('touch: /mnt/file: Read-only file system\n');
        await c.runtime('StopContainer', { containerId: id, timeout: '10' });
      } finally {
        await run('umount', ['-l', join(hostPath, 'tmpfs')]).catch(() => undefined);
      }
    });

    it('should support recursive readonly mounts (announced for the default handler: runc lists rro)', async () => {
      const handlers: CriMessage[] = (await c.runtime('Status', {})).runtimeHandlers;
      expect(handlers.find((h) => h.name === '')?.features?.recursiveReadOnlyMounts).toBe(true);
      const { podId, config } = await podForContainer({ linux: { securityContext: { privileged: true } } });
      const hostPath = join(dir, `rro-${uuid()}`);
      await mkdir(join(hostPath, 'tmpfs'), { recursive: true });
      await run('mount', ['-t', 'tmpfs', 'none', join(hostPath, 'tmpfs')]);
      try {
        const id = await createContainer(podId, config, { mounts: [{ hostPath, containerPath: '/mnt', readonly: true, recursiveReadOnly: true, selinuxRelabel: true }] });
        await startRunning(id);
        await execOk(id, ['sh', '-c', 'touch /mnt/tmpfs/foo 2>&1 | grep -q "Read-only file system"']);
        expect((await status(id)).mounts).toHaveLength(1);
        await c.runtime('StopContainer', { containerId: id, timeout: '10' });
      } finally {
        await run('umount', ['-l', join(hostPath, 'tmpfs')]).catch(() => undefined);
      }
    });

    for (const [what, mount] of [
      ['PROPAGATION_HOST_TO_CONTAINER', { readonly: true, propagation: 'PROPAGATION_HOST_TO_CONTAINER' }],
      ['PROPAGATION_BIDIRECTIONAL', { readonly: true, propagation: 'PROPAGATION_BIDIRECTIONAL' }],
      ['ReadOnly: false', { readonly: false }],
    ] as const) {
      it(`should reject a recursive readonly mount with ${what} (InvalidArgument)`, async () => {
        const { podId, config } = await podForContainer({ linux: { securityContext: { privileged: true } } });
        const error = await createContainer(podId, config, { mounts: [{ hostPath: dir, containerPath: '/mnt', recursiveReadOnly: true, selinuxRelabel: true, ...mount }] })
          .then(() => undefined, (e: grpc.ServiceError) => e);
        expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
        expect(await listContainerIds({ podSandboxId: podId })).toEqual([]);
      });
    }
  });

  describe('list filters', () => {
    it('lists containers by id, state, label selector and pod sandbox id', async () => {
      const a = await podForContainer();
      const b = await podForContainer({ labels: { tier: 'pod-b' } });
      const ra = await createContainer(a.podId, a.config, { labels: { tier: 'one', app: 'x' } });
      const cb = await createContainer(b.podId, b.config, { labels: { tier: 'two', app: 'x' } });
      await startRunning(ra);
      expect(await listContainerIds({ id: ra })).toEqual([ra]);
      expect(await listContainerIds({ id: ra.slice(0, 12) })).toEqual([ra]);
      expect(await listContainerIds({ podSandboxId: b.podId })).toEqual([cb]);
      expect(await listContainerIds({ state: { state: 'CONTAINER_RUNNING' }, podSandboxId: a.podId })).toEqual([ra]);
      expect(await listContainerIds({ state: { state: 'CONTAINER_CREATED' }, podSandboxId: a.podId })).toEqual([]);
      expect(await listContainerIds({ labelSelector: { tier: 'two' } })).toEqual([cb]);
      expect((await listContainerIds({ labelSelector: { app: 'x' } })).sort()).toEqual([ra, cb].sort());
      expect(await listContainerIds({ labelSelector: { app: 'x', tier: 'one' }, podSandboxId: b.podId })).toEqual([]);
      expect(await listPodIds({ labelSelector: { none: 'such' } })).toEqual([]);
      expect(await listPodIds({ labelSelector: { tier: 'pod-b' } })).toEqual([b.podId]);
      expect((await listPodIds({ state: { state: 'SANDBOX_READY' } })).sort()).toEqual([a.podId, b.podId].sort());
      await c.runtime('StopPodSandbox', { podSandboxId: b.podId });
      expect(await listPodIds({ state: { state: 'SANDBOX_NOTREADY' } })).toEqual([b.podId]);
    });
  });
});

describe('[k8s.io] Idempotence', () => {
  it('runtime should support stopping and removing a pod sandbox idempotently', async () => {
    const podId = await runPod(podConfig('PodSandbox-idempotent-'));
    await c.runtime('StopPodSandbox', { podSandboxId: podId });
    await c.runtime('StopPodSandbox', { podSandboxId: podId });
    await c.runtime('RemovePodSandbox', { podSandboxId: podId });
    await c.runtime('RemovePodSandbox', { podSandboxId: podId });
    // kubelet stops pods it no longer knows: the CRI answers success, not NotFound.
    await c.runtime('StopPodSandbox', { podSandboxId: podId });
  });

  it('runtime should support stopping and removing a container idempotently', async () => {
    const { podId, config } = await podForContainer();
    const id = await createContainer(podId, config, {});
    await startRunning(id);
    await c.runtime('StopContainer', { containerId: id, timeout: '10' });
    await c.runtime('StopContainer', { containerId: id, timeout: '10' });
    await c.runtime('RemoveContainer', { containerId: id });
    await c.runtime('RemoveContainer', { containerId: id });
    // Stopping the removed container, or one never made (critest v1.34 sends a random UUID), is OK too.
    await c.runtime('StopContainer', { containerId: id, timeout: '0' });
    await c.runtime('StopContainer', { containerId: randomUUID(), timeout: '0' });
  });

  it('RemovePodSandbox of a running pod stops it and its containers first', async () => {
    const { podId, config } = await podForContainer();
    const id = await createContainer(podId, config, {});
    await startRunning(id);
    await c.runtime('RemovePodSandbox', { podSandboxId: podId });
    expect(await listPodIds({ id: podId })).toEqual([]);
    expect(await listContainerIds({ id })).toEqual([]);
  });
});

describe('[k8s.io] Security Context', () => {
  describe('NamespaceOption', () => {
    it('runtime should support HostPID', async () => {
      const ns = { pid: 'NODE', ipc: 'POD', network: 'POD' };
      const { podId, config } = await podForContainer({ linux: { securityContext: { namespaceOptions: ns } } });
      // busybox httpd stands in for nginx: it writes no pid file, so pidof gives its pid.
      const web = await createContainer(podId, config, {
        command: ['httpd', '-f', '-p', '8080'], linux: { securityContext: { namespaceOptions: ns } },
      });
      await startRunning(web);
      const pid = (await execOk(web, ['pidof', 'httpd'])).trim();
      expect(pid).toMatch(/^\d+$/);
      // In the host PID namespace the pid is the host's: /proc/<pid> on the host is that httpd.
      expect(await readFile(`/proc/${pid}/cmdline`, 'utf8')).toContain('httpd');
      const other = await createContainer(podId, config, { command: ['sh', '-c', 'sleep 1000'], linux: { securityContext: { namespaceOptions: ns } } });
      await startRunning(other);
      expect((await execOk(other, ['pidof', 'httpd'])).trim().split(' ')).toContain(pid);
      // And it sees the test's own process.
      expect(await execOk(other, ['cat', `/proc/${process.pid}/comm`])).not.toBe('');
    });

    for (const hostIpc of [true, false]) {
      it(`runtime should support HostIpc is ${hostIpc}`, async () => {
        const { stdout } = await run('ipcmk', ['-M', '1048576']);
        const segmentId = stdout.trim().replace(/^Shared memory id: /, '');
        try {
          const ns = { pid: 'POD', ipc: hostIpc ? 'NODE' : 'POD', network: 'POD' };
          const { podId, config } = await podForContainer({ linux: { securityContext: { namespaceOptions: ns } } });
          const id = await createContainer(podId, config, { linux: { securityContext: { namespaceOptions: ns } } });
          await startRunning(id);
          // busybox has no ipcs; /proc/sysvipc/shm is what ipcs -m reads (shmid in column 2).
          const ids = (await execOk(id, ['cat', '/proc/sysvipc/shm'])).split('\n').slice(1).map((l) => l.trim().split(/\s+/)[1]);
          expect(ids.includes(segmentId)).toBe(hostIpc);
        } finally {
          await run('ipcrm', ['-m', segmentId]).catch(() => undefined);
        }
      });
    }

    it('runtime should support PodPID', async () => {
      const ns = { pid: 'POD' };
      const { podId, config } = await podForContainer({ linux: { securityContext: { namespaceOptions: ns } } });
      const id = await createContainer(podId, config, { command: ['httpd', '-f', '-p', '8080'], linux: { securityContext: { namespaceOptions: ns } } });
      await startRunning(id);
      // PID 1 is the pod's infra process, not the container's command.
      const cmdline = await execOk(id, ['cat', '/proc/1/cmdline']);
      expect(cmdline).not.toContain('httpd');
      expect(await execOk(id, ['ps', '-o', 'args'])).toContain('httpd');
    });

    it('runtime should support ContainerPID', async () => {
      const ns = { pid: 'CONTAINER' };
      const { podId, config } = await podForContainer({ linux: { securityContext: { namespaceOptions: ns } } });
      const id = await createContainer(podId, config, { command: ['httpd', '-f', '-p', '8080'], linux: { securityContext: { namespaceOptions: ns } } });
      await startRunning(id);
      expect(await execOk(id, ['cat', '/proc/1/cmdline'])).toContain('httpd');
    });

    for (const hostNetwork of [true, false]) {
      it(`runtime should support HostNetwork is ${hostNetwork}`, async () => {
        const srv: Server = createServer((s) => s.end('hello'));
        await new Promise<void>((r) => srv.listen(0, '0.0.0.0', r));
        const port = (srv.address() as { port: number }).port;
        try {
          const ns = { network: hostNetwork ? 'NODE' : 'POD', pid: 'CONTAINER', ipc: 'POD' };
          const logDirectory = await logDir(`hostnet-${uuid()}`);
          const { podId, config } = await podForContainer({ hostname: 'critest-host', logDirectory, linux: { securityContext: { namespaceOptions: ns } } });
          const id = await createContainer(podId, config, {
            command: ['sh', '-c', `nc -w 3 127.0.0.1 ${port} </dev/null; echo; exec sleep 3600`],
            linux: { securityContext: { namespaceOptions: ns } },
            logPath: 'hostnet.log',
          });
          await startRunning(id);
          await waitFor(async () => (await parseLog(join(logDirectory, 'hostnet.log'))).length > 0, { timeoutMs: 15_000, what: 'nc output' });
          const got = (await parseLog(join(logDirectory, 'hostnet.log'))).filter((l) => l.stream === 'stdout').map((l) => l.log).join('');
          expect(got.includes('hello')).toBe(hostNetwork);
          const { stdout: hostName } = await run('hostname');
          expect((await execOk(id, ['hostname'])).trim()).toBe(hostNetwork ? hostName.trim() : 'critest-host');
        } finally {
          srv.close();
        }
      });
    }
  });

  describe('bucket', () => {
    it('runtime should support SupplementalGroups', async () => {
      const { podId, config } = await podForContainer();
      const id = await createContainer(podId, config, { linux: { securityContext: { supplementalGroups: ['1234', '5678'] } } });
      await startRunning(id);
      const groups = (await execOk(id, ['id', '-G'])).trim().split(' ');
      expect(groups).toContain('1234');
      expect(groups).toContain('5678');
    });

    it('runtime should support RunAsUser', async () => {
      const { podId, config } = await podForContainer();
      const id = await createContainer(podId, config, { linux: { securityContext: { runAsUser: { value: '1001' } } } });
      await startRunning(id);
      expect(await execOk(id, ['id', '-u'])).toBe('1001\n');
    });

    it('runtime should support RunAsUserName', async () => {
      const { podId, config } = await podForContainer();
      const id = await createContainer(podId, config, { linux: { securityContext: { runAsUsername: 'nobody' } } });
      await startRunning(id);
      expect(await execOk(id, ['id', '-nu'])).toBe('nobody\n');
    });

    it('runtime should support RunAsGroup', async () => {
      const logDirectory = await logDir(`runasgroup-${uuid()}`);
      const { podId, config } = await podForContainer({ logDirectory });
      const name = `container-with-RunAsGroup-test-${uuid()}`;
      const id = await createContainer(podId, config, {
        metadata: { name, attempt: 0 },
        command: ['sh', '-c', 'id -u; id -g'],
        linux: { securityContext: { runAsUser: { value: '1001' }, runAsGroup: { value: '1002' } } },
        logPath: `${name}.log`,
      });
      await c.runtime('StartContainer', { containerId: id });
      await waitState(id, 'CONTAINER_EXITED');
      await expectLog(join(logDirectory, `${name}.log`), '1001\n1002\n');
    });

    it('runtime should return error if RunAsGroup is set without RunAsUser', async () => {
      const { podId, config } = await podForContainer();
      await expect(createContainer(podId, config, { linux: { securityContext: { runAsGroup: { value: '1002' } } } })).rejects.toThrow();
    });

    for (const readonlyRootfs of [false, true]) {
      it(`runtime should support that ReadOnlyRootfs is ${readonlyRootfs}`, async () => {
        const logDirectory = await logDir(`rootfs-${uuid()}`);
        const { podId, config } = await podForContainer({ logDirectory });
        const logPath = `rootfs-${uuid()}.log`;
        const id = await createContainer(podId, config, {
          command: ['sh', '-c', 'touch test.go && [ -f test.go ] && echo "Found"'],
          linux: { securityContext: { readonlyRootfs } },
          logPath,
        });
        await c.runtime('StartContainer', { containerId: id });
        await waitState(id, 'CONTAINER_EXITED');
        if (readonlyRootfs) await expectLog(join(logDirectory, logPath), 'touch: test.go: Read-only file system\n', 'stderr');
        else await expectLog(join(logDirectory, logPath), 'Found\n');
      });
    }

    // checkNetworkManagement: critest adds a dummy link; this kernel has no dummy driver
    // ("Unknown device type" even on the host), so a bridge link stands in for it.
    async function checkNetworkManagement(id: string, manageable: boolean): Promise<void> {
      const r = await execSync(id, ['sh', '-c', 'ip link add istcrit0 type bridge && ip link del istcrit0']);
      if (manageable) expect(r, r.stderr).toMatchObject({ exitCode: 0, stderr: '' });
      else expect(r.stderr).toBe('ip: RTNETLINK answers: Operation not permitted\n');
    }

    for (const privileged of [true, false]) {
      it(`runtime should support Privileged is ${privileged}`, async () => {
        const { podId, config } = await podForContainer({ linux: { securityContext: { privileged } } });
        const id = await createContainer(podId, config, { linux: { securityContext: { privileged } } });
        await startRunning(id);
        await checkNetworkManagement(id, privileged);
      });
    }

    it('runtime should support setting Capability', async () => {
      const { podId, config } = await podForContainer();
      const id = await createContainer(podId, config, { linux: { securityContext: { capabilities: { addCapabilities: ['NET_ADMIN'] } } } });
      await startRunning(id);
      await checkNetworkManagement(id, true);
      const plain = await createContainer(podId, config, {});
      await startRunning(plain);
      await checkNetworkManagement(plain, false);
    });

    it('runtime should support dropping ALL capabilities (and adding one back)', async () => {
      const { podId, config } = await podForContainer();
      const none = await createContainer(podId, config, { linux: { securityContext: { capabilities: { dropCapabilities: ['ALL'] } } } });
      await startRunning(none);
      expect(await execOk(none, ['grep', 'CapEff', '/proc/self/status'])).toBe('CapEff:\t0000000000000000\n');
      const one = await createContainer(podId, config, { linux: { securityContext: { capabilities: { dropCapabilities: ['ALL'], addCapabilities: ['NET_ADMIN'] } } } });
      await startRunning(one);
      expect(await execOk(one, ['grep', 'CapEff', '/proc/self/status'])).toBe('CapEff:\t0000000000001000\n');
    });

    it('runtime should support MaskedPaths', async () => {
      const { podId, config } = await podForContainer();
      // critest masks /bin/ls of busybox 1.28, a hard link; in the rig's image it is a symlink
      // to /bin/busybox (masking it would mask every applet), so a regular file stands in.
      const id = await createContainer(podId, config, { linux: { securityContext: { maskedPaths: ['/etc/group'] } } });
      await startRunning(id);
      expect(await execOk(id, ['cat', '/etc/group'])).toBe('');
      // Masked with /dev/null, as runc does it.
      expect(await execOk(id, ['stat', '-c', '%F', '/etc/group'])).toBe('character special file\n');
      // The image's file is untouched for other containers.
      const plain = await createContainer(podId, config, {});
      await startRunning(plain);
      expect(await execOk(plain, ['cat', '/etc/group'])).toContain('root:x:0:');
    });

    it('runtime should support ReadonlyPaths', async () => {
      const { podId, config } = await podForContainer();
      const id = await createContainer(podId, config, { linux: { securityContext: { readonlyPaths: ['/tmp'] } } });
      await startRunning(id);
      const r = await execSync(id, ['touch', '/tmp/test']);
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toBe('touch: /tmp/test: Read-only file system\n');
    });

    it('masks /proc/keys and /proc/timer_list and makes /proc/sys read-only by default', async () => {
      const { podId, config } = await podForContainer();
      const id = await createContainer(podId, config, {});
      await startRunning(id);
      // This kernel has no /proc/kcore; these two of the default masked paths exist here.
      expect(await readFile('/proc/keys', 'utf8')).not.toBe('');
      expect(await execOk(id, ['cat', '/proc/keys', '/proc/timer_list'])).toBe('');
      const r = await execSync(id, ['sh', '-c', 'echo 1 > /proc/sys/kernel/shm_rmid_forced']);
      expect(r.exitCode).not.toBe(0);
    });
  });

  describe('SeccompProfilePath', () => {
    const BLOCK_HOSTNAME = { defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['sethostname'], action: 'SCMP_ACT_ERRNO' }] };
    const BLOCK_CHMOD = { defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['chmod', 'fchmodat', 'fchmodat2'], action: 'SCMP_ACT_ERRNO' }] };
    let profileDir = '';
    const profile = async (name: string, body: object) => {
      profileDir ||= join(dir, 'seccomp');
      await mkdir(profileDir, { recursive: true });
      const path = join(profileDir, name);
      await writeFile(path, JSON.stringify(body));
      return path;
    };

    /** seccompTestContainer / createSeccompContainer: the profile set as critest does (field and legacy path). */
    async function seccompContainer(profilePath: string, caps: string[] = [], privileged = false): Promise<string> {
      const { podId, config } = await podForContainer(privileged ? { linux: { securityContext: { privileged: true } } } : {});
      return createContainer(podId, config, {
        linux: { securityContext: { privileged, seccompProfilePath: profilePath, capabilities: { addCapabilities: caps } } },
      });
    }

    async function checkSetHostname(id: string, allowed: boolean): Promise<void> {
      const r = await execSync(id, ['hostname', 'ANewHostName']);
      if (allowed) expect(r).toMatchObject({ exitCode: 0, stderr: '' });
      else expect(r.stderr).toBe('hostname: sethostname: Operation not permitted\n');
    }

    const seccompStatus = async (id: string) => (await execOk(id, ['grep', 'ecc', '/proc/self/status'])).split('\n')[0]!.split(/\s+/)[1];

    it('should support seccomp unconfined on the container', async () => {
      const id = await seccompContainer('unconfined');
      await startRunning(id);
      expect(await seccompStatus(id)).toBe('0');
    });

    it('should support seccomp localhost/profile on the container', async () => {
      const id = await seccompContainer(`localhost/${await profile('block-chmod.json', BLOCK_CHMOD)}`);
      await startRunning(id);
      const r = await execSync(id, ['chmod', '400', '/']);
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain('Operation not permitted');
    });

    it('should support seccomp default which is unconfined on the container', async () => {
      const id = await seccompContainer('');
      await startRunning(id);
      expect(await seccompStatus(id)).toBe('0');
    });

    it('runtime should not block setting host name with unconfined seccomp and SYS_ADMIN', async () => {
      const id = await seccompContainer('unconfined', ['SYS_ADMIN']);
      await startRunning(id);
      await checkSetHostname(id, true);
    });

    it('runtime should support an seccomp profile that blocks setting hostname with SYS_ADMIN', async () => {
      const id = await seccompContainer(`localhost/${await profile('block-host-name.json', BLOCK_HOSTNAME)}`, ['SYS_ADMIN']);
      await startRunning(id);
      await checkSetHostname(id, false);
    });

    it('runtime should not support a custom seccomp profile without using localhost/ as a prefix', async () => {
      await expect(seccompContainer(await profile('block-host-name.json', BLOCK_HOSTNAME))).rejects.toThrow();
    });

    it('runtime should ignore a seccomp profile that blocks setting hostname when privileged', async () => {
      const id = await seccompContainer(`localhost/${await profile('block-host-name.json', BLOCK_HOSTNAME)}`, [], true);
      await startRunning(id);
      await checkSetHostname(id, true);
    });

    for (const name of ['docker/default', 'runtime/default']) {
      it(`should support seccomp ${name} on the container`, async () => {
        const id = await seccompContainer(name);
        await startRunning(id);
        expect(await seccompStatus(id)).toBe('2');
      });

      it(`runtime should support setting hostname with ${name} seccomp profile and SYS_ADMIN`, async () => {
        const id = await seccompContainer(name, ['SYS_ADMIN']);
        await startRunning(id);
        await checkSetHostname(id, true);
      });

      it(`runtime should block sethostname with ${name} seccomp profile and no extra caps`, async () => {
        const id = await seccompContainer(name);
        await startRunning(id);
        await checkSetHostname(id, false);
      });
    }

    it('takes the profile from the typed seccomp field too (RuntimeDefault, Localhost, Unconfined)', async () => {
      const { podId, config } = await podForContainer();
      const rd = await createContainer(podId, config, { linux: { securityContext: { seccomp: { profileType: 'RuntimeDefault' } } } });
      const lh = await createContainer(podId, config, { linux: { securityContext: { seccomp: { profileType: 'Localhost', localhostRef: await profile('block-host-name.json', BLOCK_HOSTNAME) }, capabilities: { addCapabilities: ['SYS_ADMIN'] } } } });
      const un = await createContainer(podId, config, { linux: { securityContext: { seccomp: { profileType: 'Unconfined' } } } });
      for (const id of [rd, lh, un]) await startRunning(id);
      expect(await seccompStatus(rd)).toBe('2');
      await checkSetHostname(lh, false);
      expect(await seccompStatus(un)).toBe('0');
    });
  });

  describe('NoNewPrivs', () => {
    // critest runs a setuid-root binary from its own image; the rig's image has none, so the
    // observable is the flag itself, which is what makes the kernel ignore setuid bits.
    for (const noNewPrivs of [true, false]) {
      it(`sets no_new_privs when NoNewPrivs is ${noNewPrivs}`, async () => {
        const { podId, config } = await podForContainer();
        const id = await createContainer(podId, config, { linux: { securityContext: { noNewPrivs, runAsUser: { value: '1000' } } } });
        await startRunning(id);
        expect(await execOk(id, ['grep', 'NoNewPrivs', '/proc/self/status'])).toBe(`NoNewPrivs:\t${noNewPrivs ? 1 : 0}\n`);
      });
    }
  });

  describe('AppArmor and SELinux on a host without them', () => {
    // critest skips its AppArmor and SELinux specs when the host has neither (this one has
    // neither); what a kubelet still sends must not break the container.
    it('the host has neither AppArmor nor SELinux', () => {
      expect(existsSync('/sys/kernel/security/apparmor') || existsSync('/sys/module/apparmor/parameters/enabled')).toBe(false);
      expect(existsSync('/sys/fs/selinux/enforce')).toBe(false);
    });

    it('runs a container that asks for runtime/default AppArmor and SELinux options', async () => {
      const { podId, config } = await podForContainer({ linux: { securityContext: { selinuxOptions: { level: 's0:c4,c5' } } } });
      const id = await createContainer(podId, config, {
        linux: { securityContext: { apparmor: { profileType: 'RuntimeDefault' }, apparmorProfile: 'runtime/default', selinuxOptions: { user: 'system_u', role: 'system_r', type: 'svirt_lxc_net_t', level: 's0:c4,c5' } } },
      });
      await startRunning(id);
      expect(await execOk(id, ['echo', 'ok'])).toBe('ok\n');
    });
  });
});

describe('[k8s.io] Networking', () => {
  it('runtime should support DNS config [Conformance]', async () => {
    const dnsConfig = { servers: ['8.8.8.8'], searches: ['google.com'], options: ['ndots:8'] };
    const { podId, config } = await podForContainer({ dnsConfig });
    const id = await createContainer(podId, config, {});
    await startRunning(id);
    const resolv = await execOk(id, ['cat', '/etc/resolv.conf']);
    for (const want of ['nameserver 8.8.8.8', 'search google.com', 'options ndots:8']) expect(resolv).toContain(want);
  });

  it('runtime should support set hostname [Conformance]', async () => {
    const { podId, config } = await podForContainer({ hostname: 'test-hostname' });
    const id = await createContainer(podId, config, {});
    await startRunning(id);
    expect(await execOk(id, ['hostname'])).toBe('test-hostname\n');
    expect(await execOk(id, ['cat', '/etc/hostname'])).toBe('test-hostname\n');
    expect(await execOk(id, ['cat', '/etc/hosts'])).toContain('test-hostname');
  });

  it('reports the pod IP in PodSandboxStatus, reachable from the host', async () => {
    const { podId, config } = await podForContainer();
    const id = await createContainer(podId, config, { command: ['sh', '-c', 'mkdir -p /w && echo pod-ip-ok > /w/index.html && exec httpd -f -p 80 -h /w'] });
    await startRunning(id);
    const ip = (await c.runtime('PodSandboxStatus', { podSandboxId: podId })).status.network.ip;
    const prefix = daemon.network.subnet.replace(/0\/24$/, '');
    expect(ip.startsWith(prefix)).toBe(true);
    await waitFor(async () => (await httpGet(80, ip).catch(() => '')) === 'pod-ip-ok\n', { timeoutMs: 15_000, what: 'httpd on the pod IP' });
  });

  it('runtime should support port mapping with only container port [Conformance]', async () => {
    const { podId, config } = await podForContainer({ portMappings: [{ protocol: 'TCP', containerPort: 80 }] });
    const id = await createContainer(podId, config, { command: ['sh', '-c', 'mkdir -p /w && echo web-ok > /w/index.html && exec httpd -f -p 80 -h /w'] });
    await startRunning(id);
    const ip = (await c.runtime('PodSandboxStatus', { podSandboxId: podId })).status.network.ip;
    await waitFor(async () => (await httpGet(80, ip).catch(() => '')) === 'web-ok\n', { timeoutMs: 15_000, what: 'container port' });
  });

  it('runtime should support port mapping with host port and container port [Conformance]', async () => {
    const hostPort = 12000 + Math.floor(Math.random() * 1000);
    const { podId, config } = await podForContainer({ portMappings: [{ protocol: 'TCP', containerPort: 80, hostPort }] });
    const id = await createContainer(podId, config, { command: ['sh', '-c', 'mkdir -p /w && echo host-port-ok > /w/index.html && exec httpd -f -p 80 -h /w'] });
    await startRunning(id);
    // critest fetches http://<host IP>:<hostPort>; the portmap plugin DNATs it to the pod.
    const { stdout } = await run('ip', ['-4', '-o', 'route', 'get', '10.255.255.1']);
    const hostIp = /src (\S+)/.exec(stdout)?.[1] ?? '127.0.0.1';
    await waitFor(async () => (await httpGet(hostPort, hostIp).catch(() => '')) === 'host-port-ok\n', { timeoutMs: 15_000, what: `host port ${hostIp}:${hostPort}` });
    // critest's checkMainPage asks 127.0.0.1:<hostPort>: portmap's localhost DNAT.
    expect(await httpGet(hostPort, '127.0.0.1')).toBe('host-port-ok\n');
  });
});

describe('[k8s.io] Streaming', () => {
  let podId: string;
  let config: CriMessage;
  let web: string;

  async function newPod(): Promise<void> {
    ({ podId, config } = await podForContainer());
    web = await createContainer(podId, config, { command: ['sh', '-c', 'mkdir -p /w && echo streaming-ok > /w/index.html && httpd -p 80 -h /w && exec top'] });
    await startRunning(web);
  }

  for (const transport of ['spdy', 'websocket'] as const) {
    it(`runtime should support exec with tty=false and stdin=false [Conformance] (${transport})`, async () => {
      await newPod();
      const { url } = await c.runtime('Exec', { containerId: web, cmd: ['echo', '-n', 'hello'], stdout: true, stderr: true });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/exec\//);
      const out = sink();
      const res = await runRemoteCommand(url, { transport, stdout: out.stream, stderr: sink().stream, tty: false });
      expect(res.exitCode).toBe(0);
      expect(out.text()).toBe('hello');
    });

    it(`runtime should support exec with tty=true and stdin=true: echo hello gives "hello\\r\\n" (${transport})`, async () => {
      await newPod();
      const { url } = await c.runtime('Exec', { containerId: web, cmd: ['echo', 'hello'], stdin: true, stdout: true, tty: true });
      const out = sink();
      // Stdin open and idle, as critest's client leaves it.
      const res = await runRemoteCommand(url, { transport, stdin: new PassThrough(), stdout: out.stream, tty: true });
      expect(res.exitCode).toBe(0);
      expect(out.text()).toBe('hello\r\n');
    });

    it(`runtime should support exec with tty=true and stdin=true [Conformance] (${transport})`, async () => {
      await newPod();
      const { url } = await c.runtime('Exec', { containerId: web, cmd: ['sh', '-c', 'read x; echo "got $x"'], stdin: true, stdout: true, tty: true });
      const out = sink();
      const stdin = new PassThrough();
      const done = runRemoteCommand(url, { transport, stdin, stdout: out.stream, tty: true });
      await sleep(300);
      stdin.write('hello\r');
      expect((await done).exitCode).toBe(0);
      // A TTY echoes the input and turns \n into \r\n.
      expect(out.text()).toContain('got hello\r\n');
    });

    it(`runtime should support attach [Conformance] (${transport})`, async () => {
      await newPod();
      // createShellContainer: /bin/sh with stdin, stdin_once, no TTY.
      const sh = await createContainer(podId, config, { command: ['sh'], stdin: true, stdinOnce: true, tty: false });
      await startRunning(sh);
      const { url } = await c.runtime('Attach', { containerId: sh, stdin: true, stdout: true, stderr: true, tty: false });
      expect(url).toMatch(/\/attach\//);
      const out = sink();
      const stdin = new PassThrough();
      const done = runRemoteCommand(url, { transport, stdin, stdout: out.stream, stderr: sink().stream, tty: false });
      await sleep(300);
      stdin.write('echo hello\n');
      await waitFor(async () => out.text() === 'hello\n', { timeoutMs: 10_000, what: 'attach output' });
      stdin.end();
      await done;
      // stdin_once: closing the attached stdin ends the shell.
      await waitState(sh, 'CONTAINER_EXITED');
    });

    it(`runtime should support portforward [Conformance] (${transport})`, async () => {
      await newPod();
      const { url } = await c.runtime('PortForward', { podSandboxId: podId, port: [80] });
      expect(url).toMatch(/\/portforward\//);
      const session = await startPortForward(url, [{ localPort: 0, remotePort: 80 }], { transport });
      try {
        await waitFor(async () => (await httpGet(session.ports[0]!.localPort).catch(() => '')) === 'streaming-ok\n', { timeoutMs: 15_000, what: 'forwarded httpd' });
      } finally {
        await session.close();
      }
    });
  }

  it('runtime should support portforward in host network', async () => {
    const srv: Server = createServer((s) => s.end('host-net-hello'));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    try {
      const ns = { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' };
      const { podId: hostPod } = await podForContainer({ linux: { securityContext: { namespaceOptions: ns } } });
      const { url } = await c.runtime('PortForward', { podSandboxId: hostPod, port: [port] });
      const session = await startPortForward(url, [{ localPort: 0, remotePort: port }], { transport: 'spdy' });
      try {
        const got = await new Promise<string>((resolve, reject) => {
          const s = connect(session.ports[0]!.localPort, '127.0.0.1');
          let text = '';
          s.on('data', (b: Buffer) => (text += b));
          s.on('end', () => resolve(text));
          s.on('error', reject);
        });
        expect(got).toBe('host-net-hello');
      } finally {
        await session.close();
      }
    } finally {
      srv.close();
    }
  });
});

describe('[k8s.io] Image Manager', () => {
  const registry = () => rigEnv().ISULATS_TEST_REGISTRY;
  const repo = () => `${registry()}/library/busybox`;
  // The rig pushes one busybox image under two tags.
  const tags = () => [`${repo()}:latest`, `${repo()}:1.35`];

  async function imageStatus(image: string): Promise<CriMessage | null> {
    return (await c.image('ImageStatus', { image: { image } })).image ?? null;
  }

  // Later groups run containers from busybox: every spec leaves it pulled.
  afterEach(async () => {
    await c.image('PullImage', { image: { image: BUSYBOX } });
  });

  it('public image with tag should be pulled and removed [Conformance]', async () => {
    const ref = `${repo()}:1.35`;
    const { imageRef } = await c.image('PullImage', { image: { image: ref } });
    expect(imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    const st = await imageStatus(ref);
    expect(st?.repoTags).toContain(ref);
    expect(st?.id).toBe(imageRef);
    await c.image('RemoveImage', { image: { image: ref } });
    expect(await imageStatus(ref)).toBeNull();
  });

  it('public image without tag should be pulled and removed [Conformance]', async () => {
    // No tag means :latest, as docker and containerd resolve it.
    const { imageRef } = await c.image('PullImage', { image: { image: repo() } });
    const st = await imageStatus(repo());
    expect(st?.id).toBe(imageRef);
    expect(st?.repoTags).toContain(`${repo()}:latest`);
    await c.image('RemoveImage', { image: { image: repo() } });
    expect(await imageStatus(repo())).toBeNull();
  });

  it('public image with digest should be pulled and removed [Conformance]', async () => {
    const digestRef: string | undefined = (await imageStatus(BUSYBOX))?.repoDigests.find((d: string) => d.startsWith(`${repo()}@sha256:`));
    expect(digestRef).toBeDefined();
    await c.image('RemoveImage', { image: { image: BUSYBOX } });
    expect(await imageStatus(digestRef!)).toBeNull();
    const { imageRef } = await c.image('PullImage', { image: { image: digestRef } });
    const byDigest = await imageStatus(digestRef!);
    expect(byDigest?.id).toBe(imageRef);
    expect(byDigest?.repoDigests).toContain(digestRef);
    // Pulled by digest only: no tag is invented for it.
    expect(byDigest?.repoTags).toEqual([]);
    await c.image('RemoveImage', { image: { image: digestRef } });
    expect(await imageStatus(digestRef!)).toBeNull();
  });

  it('image status should support all kinds of references [Conformance]', async () => {
    const st = await imageStatus(BUSYBOX);
    expect(st).not.toBeNull();
    const id: string = st!.id;
    const digestRef: string = st!.repoDigests[0];
    for (const ref of [BUSYBOX, id, id.slice('sha256:'.length), digestRef]) {
      const got = await imageStatus(ref);
      expect(got?.id, ref).toBe(id);
      expect(got?.repoTags, ref).toContain(BUSYBOX);
      expect(got?.repoDigests, ref).toContain(digestRef);
      expect(Number(got?.size), ref).toBeGreaterThan(0);
    }
  });

  it('image status for a missing image is empty, not an error', async () => {
    const res = await c.image('ImageStatus', { image: { image: `${registry()}/no/such-image:v1` } });
    expect(res.image ?? null).toBeNull();
    const byId = await c.image('ImageStatus', { image: { image: `sha256:${'0'.repeat(64)}` } });
    expect(byId.image ?? null).toBeNull();
  });

  it('listImage should get exactly 2 image in the result list [Conformance] (one image, two tags; the filter narrows it)', async () => {
    const ids = new Set<string>();
    for (const t of tags()) ids.add((await c.image('PullImage', { image: { image: t } })).imageRef);
    expect(ids.size).toBe(1);
    const all = (await c.image('ListImages', {})).images as CriMessage[];
    const ours = all.filter((i) => ids.has(i.id));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.repoTags).toEqual(expect.arrayContaining(tags()));
    const filtered = (await c.image('ListImages', { filter: { image: { image: tags()[1] } } })).images as CriMessage[];
    expect(filtered.map((i) => i.id)).toEqual([...ids]);
    expect((await c.image('ListImages', { filter: { image: { image: `${registry()}/no/such:v1` } } })).images).toEqual([]);
  });

  it('RemoveImage by one tag removes the whole image, every tag (containerd\'s CRI semantics)', async () => {
    // critest removes by ID after resolving a tag; kubelet's image GC removes by ID too.
    for (const t of tags()) await c.image('PullImage', { image: { image: t } });
    await c.image('RemoveImage', { image: { image: tags()[1] } });
    for (const t of tags()) expect(await imageStatus(t), t).toBeNull();
  });

  it('removes an image by ID and by digest; removing what is gone is no error', async () => {
    const { imageRef } = await c.image('PullImage', { image: { image: BUSYBOX } });
    await c.image('RemoveImage', { image: { image: imageRef } });
    expect(await imageStatus(imageRef)).toBeNull();
    expect(await imageStatus(BUSYBOX)).toBeNull();
    await c.image('PullImage', { image: { image: BUSYBOX } });
    const digestRef: string = (await imageStatus(BUSYBOX))!.repoDigests[0];
    await c.image('RemoveImage', { image: { image: digestRef } });
    expect(await imageStatus(digestRef)).toBeNull();
    // kubelet's image GC relies on this.
    await c.image('RemoveImage', { image: { image: digestRef } });
  });

  it('removes an image a container uses, as containerd does: the container keeps its layers and starts', async () => {
    const { podId, config } = await podForContainer();
    const id = await createContainer(podId, config, {});
    await c.image('RemoveImage', { image: { image: BUSYBOX } });
    expect(await imageStatus(BUSYBOX)).toBeNull();
    await c.runtime('StartContainer', { containerId: id });
    expect((await status(id)).state).toBe('CONTAINER_RUNNING');
    await c.image('PullImage', { image: { image: BUSYBOX } });
  });

  it('image status get image fields should not have Uid|Username empty [Conformance] (and containers run as the image user)', async () => {
    // critest's test-image-user-* images: busybox with USER set, built here from the rig's layout.
    const layout = join(dir, 'user-layout');
    await run('cp', ['-a', (await rigImageLayouts()).busybox, layout]);
    const cases = [
      { tag: 'uid', user: '1002', uid: '1002', username: '', id: '1002\n' },
      { tag: 'username', user: 'app', uid: undefined, username: 'app', id: '1000\n' },
      { tag: 'uid-group', user: '1003:nogroup', uid: '1003', username: '', id: '1003\n' },
      { tag: 'username-group', user: 'app:nogroup', uid: undefined, username: 'app', id: '1000\n' },
    ];
    const { podId, config } = await podForContainer();
    for (const item of cases) {
      await run('umoci', ['config', '--image', `${layout}:latest`, '--tag', item.tag, '--config.user', item.user]);
      const ref = `${registry()}/cri-tools/test-image-user-${item.tag}:latest`;
      await pushLayout(`${layout}:${item.tag}`, ref);
      await c.image('PullImage', { image: { image: ref } });
      const st = await imageStatus(ref);
      if (item.uid) expect(st?.uid?.value, item.tag).toBe(item.uid);
      else expect(st?.uid ?? null, item.tag).toBeNull();
      expect(st?.username, item.tag).toBe(item.username);
      const ctr = await createContainer(podId, config, { image: { image: ref } });
      await startRunning(ctr);
      expect(await execOk(ctr, ['id', '-u']), item.tag).toBe(item.id);
    }
  });

  it('pulls critest\'s default image by its upstream name through a registry.k8s.io mirror, and runs it', async () => {
    const upstream = 'registry.k8s.io/e2e-test-images/busybox:1.29-2';
    await pushLayout(`${(await rigImageLayouts()).busybox}:latest`, `${registry()}/e2e-test-images/busybox:1.29-2`);
    const { imageRef } = await c.image('PullImage', { image: { image: upstream } });
    // The same image as the rig's busybox, so one image holding both names.
    expect((await imageStatus(upstream))?.repoTags).toEqual(expect.arrayContaining([upstream, BUSYBOX]));
    const { podId, config } = await podForContainer();
    const id = await createContainer(podId, config, { image: { image: upstream } });
    await startRunning(id);
    expect(await execOk(id, ['echo', 'hello'])).toBe('hello\n');
    expect((await status(id)).imageRef).toBe(imageRef);
  });

  it('reports the image filesystem', async () => {
    const fs = (await c.image('ImageFsInfo', {})).imageFilesystems[0];
    expect(fs.fsId.mountpoint).not.toBe('');
    expect(Number(fs.usedBytes.value)).toBeGreaterThan(0);
  });
});

describe('[k8s.io] Container events', () => {
  it('runtime should support GetContainerEvents: created, started, stopped, deleted', async () => {
    const svc = await loadCriServices('v1');
    const client = new (svc.RuntimeService as any)(daemon.endpoint, grpc.credentials.createInsecure());
    const events: CriMessage[] = [];
    const stream = client.GetContainerEvents({});
    stream.on('data', (e: CriMessage) => events.push(e));
    stream.on('error', () => undefined);
    try {
      await sleep(300);
      const { podId, config } = await podForContainer();
      const id = await createContainer(podId, config, {});
      await startRunning(id);
      await c.runtime('StopContainer', { containerId: id, timeout: '10' });
      await c.runtime('RemoveContainer', { containerId: id });
      const want = ['CONTAINER_CREATED_EVENT', 'CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT', 'CONTAINER_DELETED_EVENT'];
      await waitFor(async () => want.every((t) => events.some((e) => e.containerId === id && e.containerEventType === t)), { timeoutMs: 15_000, what: 'container events' });
      const mine = events.filter((e) => e.containerId === id);
      expect(mine.map((e) => e.containerEventType).filter((t: string) => want.includes(t))).toEqual(want);
      for (const e of mine) {
        expect(e.podSandboxStatus?.id).toBe(podId);
        expect(Number(e.createdAt)).toBeGreaterThan(0);
      }
      // Each event carries the container's status as the event left it, though the container was
      // removed before the stream could read it back.
      const started = mine.find((e) => e.containerEventType === 'CONTAINER_STARTED_EVENT')!;
      expect(started.containersStatuses.find((s: CriMessage) => s.id === id)?.state).toBe('CONTAINER_RUNNING');
      const stopped = mine.find((e) => e.containerEventType === 'CONTAINER_STOPPED_EVENT')!;
      expect(stopped.containersStatuses.find((s: CriMessage) => s.id === id)?.state).toBe('CONTAINER_EXITED');
      const deleted = mine.find((e) => e.containerEventType === 'CONTAINER_DELETED_EVENT')!;
      expect(deleted.containersStatuses.map((s: CriMessage) => s.id)).not.toContain(id);
    } finally {
      stream.cancel();
      client.close();
    }
  });
});

/** One raw call over a chosen CRI version. */
async function rawCall(
  version: CriVersion, service: 'RuntimeService' | 'ImageService', method: string, req: object, timeoutMs = 60_000, options: grpc.ChannelOptions = {},
): Promise<CriMessage> {
  const svc = await loadCriServices(version);
  return new Promise((resolve, reject) => {
    const client = new (svc[service] as any)(daemon.endpoint, grpc.credentials.createInsecure(), options);
    client[method](req, { deadline: Date.now() + timeoutMs }, (err: grpc.ServiceError | null, res: CriMessage) => {
      client.close();
      if (err) reject(err);
      else resolve(res);
    });
  });
}

describe('the transport critest uses', () => {
  it('serves both versions to a client sending the socket path as :authority (critest up to 1.26 does)', async () => {
    const options = { 'grpc.default_authority': daemon.socket };
    for (const version of ['v1', 'v1alpha2'] as const) {
      expect((await rawCall(version, 'RuntimeService', 'Version', {}, 10_000, options)).runtimeApiVersion).toBe(version);
      expect(Array.isArray((await rawCall(version, 'RuntimeService', 'ListPodSandbox', {}, 10_000, options)).items)).toBe(true);
      expect((await rawCall(version, 'ImageService', 'ImageStatus', { image: { image: BUSYBOX } }, 10_000, options)).image.repoTags).toContain(BUSYBOX);
    }
  });
});

describe('runtime.v1alpha2: the core lifecycle checks again', () => {
  const v1a2 = (method: string, req: object = {}) => rawCall('v1alpha2', 'RuntimeService', method, req);
  const v1a2Image = (method: string, req: object = {}) => rawCall('v1alpha2', 'ImageService', method, req);

  it('runtime should return version info', async () => {
    const v = await v1a2('Version', { version: 'v1alpha2' });
    expect(v.runtimeName).toBe('isulats');
    expect(v.runtimeApiVersion).toBe('v1alpha2');
    const s = await v1a2('Status', {});
    expect(s.status.conditions.every((x: CriMessage) => x.status === true)).toBe(true);
  });

  it('runs, lists, inspects, execs into, stops and removes a pod and container', async () => {
    await v1a2Image('PullImage', { image: { image: BUSYBOX } });
    expect((await v1a2Image('ImageStatus', { image: { image: BUSYBOX } })).image.repoTags).toContain(BUSYBOX);
    expect((await v1a2Image('ImageStatus', { image: { image: `${BUSYBOX}-missing` } })).image ?? null).toBeNull();
    const logDirectory = await logDir(`v1a2-${uuid()}`);
    const config = podConfig('v1alpha2-pod-', { logDirectory, labels: { api: 'v1alpha2' }, dnsConfig: { servers: ['8.8.4.4'] }, hostname: 'v1a2-host' });
    const { podSandboxId } = await v1a2('RunPodSandbox', { config });
    podsOfTest.push(podSandboxId);
    expect((await v1a2('PodSandboxStatus', { podSandboxId })).status).toMatchObject({ id: podSandboxId, state: 'SANDBOX_READY', labels: { api: 'v1alpha2' } });
    expect((await v1a2('ListPodSandbox', { filter: { id: podSandboxId } })).items.map((p: CriMessage) => p.id)).toEqual([podSandboxId]);
    const { containerId } = await v1a2('CreateContainer', {
      podSandboxId, sandboxConfig: config,
      config: { metadata: { name: 'v1a2-ctr', attempt: 0 }, image: { image: BUSYBOX }, command: ['sh', '-c', 'echo hello World; mkdir -p /tmp/w && echo v1a2-web > /tmp/w/index.html && httpd -p 8080 -h /tmp/w; exec sleep 3600'], logPath: 'c.log', linux: { securityContext: { runAsUser: { value: '1001' } } } },
    });
    expect((await v1a2('ListContainers', { filter: { id: containerId } })).containers.map((x: CriMessage) => x.id)).toEqual([containerId]);
    await v1a2('StartContainer', { containerId });
    await waitFor(async () => (await v1a2('ContainerStatus', { containerId })).status.state === 'CONTAINER_RUNNING', { timeoutMs: 30_000, what: 'running' });
    const ex = await v1a2('ExecSync', { containerId, cmd: ['sh', '-c', 'id -u; hostname; grep nameserver /etc/resolv.conf'], timeout: '30' });
    expect(ex.exitCode).toBe(0);
    expect(Buffer.from(ex.stdout).toString()).toBe('1001\nv1a2-host\nnameserver 8.8.4.4\n');
    const timedOut = await v1a2('ExecSync', { containerId, cmd: ['sleep', '30'], timeout: '1' }).then(() => 0, (e: grpc.ServiceError) => e.code);
    expect(timedOut).toBe(grpc.status.DEADLINE_EXCEEDED);
    await expectLog(join(logDirectory, 'c.log'), 'hello World\n');
    const stats = await v1a2('ListContainerStats', { filter: { podSandboxId } });
    expect(stats.stats.map((s: CriMessage) => s.attributes.id)).toEqual([containerId]);
    const { url } = await v1a2('Exec', { containerId, cmd: ['echo', 'streamed'], stdout: true });
    const out = sink();
    expect((await runRemoteCommand(url, { transport: 'spdy', stdout: out.stream, tty: false })).exitCode).toBe(0);
    expect(out.text()).toBe('streamed\n');
    const pf = await v1a2('PortForward', { podSandboxId, port: [8080] });
    const session = await startPortForward(pf.url, [{ localPort: 0, remotePort: 8080 }], { transport: 'websocket' });
    try {
      await waitFor(async () => (await httpGet(session.ports[0]!.localPort).catch(() => '')) === 'v1a2-web\n', { timeoutMs: 15_000, what: 'v1alpha2 port-forward' });
    } finally {
      await session.close();
    }
    await v1a2('StopContainer', { containerId, timeout: '10' });
    expect((await v1a2('ContainerStatus', { containerId })).status.state).toBe('CONTAINER_EXITED');
    await v1a2('RemoveContainer', { containerId });
    expect((await v1a2('ListContainers', { filter: { id: containerId } })).containers).toEqual([]);
    await v1a2('StopPodSandbox', { podSandboxId });
    expect((await v1a2('PodSandboxStatus', { podSandboxId })).status.state).toBe('SANDBOX_NOTREADY');
    await v1a2('RemovePodSandbox', { podSandboxId });
    expect((await v1a2('ListPodSandbox', { filter: { id: podSandboxId } })).items).toEqual([]);
  });
});
