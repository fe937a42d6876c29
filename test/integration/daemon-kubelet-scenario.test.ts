// A pod's life as kubelet (cgroupfs driver) drives it, replayed against a real
// `isulats daemon` through the gRPC CRI API: kubelet's sandbox config (long
// `<name>-<node>` name, uuid uid, io.kubernetes.* labels, log directory
// <logs>/<ns>_<name>_<uid>/, cgroup parent /kubepods/burstable/pod<uid>, DNS,
// port mappings), an init container run to completion, an app container with
// hugepage limits and kubelet's resources, an exec probe that times out, a
// restart as attempt 1 under the same name, the ContainerStatus fields kubelet
// reads, then stop and removal with nothing left on the host.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { cidrContains } from '../rig/free-subnet.js';
import { findCgroupDirs, inCgroupOf, listProcesses, mountsUnder } from '../rig/host-cleanup.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { kubeletContainer, kubeletPod, kubepodsLevelsPresent, removeKubeletPodCgroup, type KubeletPod } from '../rig/kubelet-shapes.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

const MiB = 1024 * 1024;
const NODE = 'isulats-worker-7f3c9e2a1b4d';
// Runs until TERM (exit 0, as a well-behaved server) or USR1 (a crash: exit 3), logging both.
const APP_CMD = ['sh', '-c', 'echo "web up"; trap "echo crashing >&2; exit 3" USR1; trap "echo bye; exit 0" TERM; sleep 3600 & wait $!'];

describe('a kubelet-shaped pod lifecycle against isulats daemon over gRPC', () => {
  const env = rigEnv();
  const kubepodsBefore = kubepodsLevelsPresent();
  let daemon: IsulatsDaemon;
  let cri: RawCriClient;
  let tmp: string;
  let pod: KubeletPod;
  let podId = '';
  const ids = { init: '', web0: '', web1: '' };
  const rt = (method: string, req: CriMessage = {}, timeoutMs?: number) => cri.runtime(method, req, timeoutMs);
  const status = async (containerId: string): Promise<CriMessage> => (await rt('ContainerStatus', { containerId, verbose: false })).status;
  const waitExited = (containerId: string) =>
    waitFor(async () => {
      const s = await status(containerId);
      return s.state === 'CONTAINER_EXITED' ? s : undefined;
    }, { timeoutMs: 20_000, what: `container ${containerId} to exit` });
  const create = async (name: string, command: string[], attempt: number, resources?: Record<string, unknown>) => {
    // kubelet makes the container's log dir and termination-log file before CreateContainer.
    mkdirSync(join(pod.logDirectory, name), { recursive: true });
    const terminationLog = join(tmp, 'kubelet', 'pods', pod.uid, 'containers', name, `${attempt}-termination-log`);
    mkdirSync(join(terminationLog, '..'), { recursive: true });
    writeFileSync(terminationLog, '');
    const config = kubeletContainer(pod, { name, image: env.ISULATS_TEST_BUSYBOX, command, attempt, resources, terminationLog });
    // KeyValue.value is bytes in our api.proto (the same wire bytes as kubelet's string).
    config.envs = (config.envs as Array<{ key: string; value: string }>).map((e) => ({ key: e.key, value: Buffer.from(e.value) }));
    const { containerId } = await rt('CreateContainer', { podSandboxId: podId, config, sandboxConfig: pod.config });
    return containerId as string;
  };

  beforeAll(async () => {
    tmp = await makeTempDir('ist-kls-');
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    cri = openCriClient(daemon.endpoint);
    pod = kubeletPod({ app: 'checkout-frontend-api', node: NODE, namespace: 'shop', logRoot: join(tmp, 'var', 'log', 'pods') });
    mkdirSync(pod.logDirectory, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    cri?.close();
    await daemon?.cleanup();
    if (pod) await removeKubeletPodCgroup(pod, kubepodsBefore);
    if (tmp) await removeTempDir(tmp);
  }, 120_000);

  it('pulls the image and runs the sandbox with kubelet\'s config', async () => {
    const image = { image: env.ISULATS_TEST_BUSYBOX };
    expect((await cri.image('ImageStatus', { image })).image).toBeNull();
    const { imageRef } = await cri.image('PullImage', { image, sandboxConfig: pod.config });
    expect(imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    podId = (await rt('RunPodSandbox', { config: pod.config, runtimeHandler: '' })).podSandboxId;
    const { status: s } = await rt('PodSandboxStatus', { podSandboxId: podId, verbose: false });
    expect(s).toMatchObject({
      id: podId,
      state: 'SANDBOX_READY',
      metadata: { name: pod.name, uid: pod.uid, namespace: 'shop', attempt: 0 },
      labels: pod.config.labels,
      annotations: pod.config.annotations,
    });
    expect(cidrContains(daemon.network.subnet, s.network.ip), `pod IP ${s.network.ip} in ${daemon.network.subnet}`).toBe(true);
    expect(BigInt(s.createdAt)).toBeGreaterThan(0n);
  });

  it('runs an init container to completion and reports it as kubelet reads it', async () => {
    ids.init = await create('init-config', ['sh', '-c', 'echo "init done"; cat /etc/resolv.conf'], 0);
    await rt('StartContainer', { containerId: ids.init });
    const s = await waitExited(ids.init);
    expect(s).toMatchObject({
      metadata: { name: 'init-config', attempt: 0 },
      exitCode: 0,
      reason: 'Completed',
      logPath: join(pod.logDirectory, 'init-config', '0.log'),
      imageRef: expect.stringMatching(/^sha256:/),
      annotations: expect.objectContaining({ 'io.kubernetes.container.restartCount': '0' }),
      labels: expect.objectContaining({ 'io.kubernetes.pod.uid': pod.uid }),
    });
    expect(BigInt(s.startedAt)).toBeGreaterThanOrEqual(BigInt(s.createdAt));
    expect(BigInt(s.finishedAt)).toBeGreaterThanOrEqual(BigInt(s.startedAt));
    const log = readFileSync(s.logPath, 'utf8');
    expect(log).toMatch(/ stdout F init done\n/);
    expect(log).toMatch(/ stdout F nameserver 10\.96\.0\.10\n/);
    expect(log).toMatch(/ stdout F search shop\.svc\.cluster\.local svc\.cluster\.local cluster\.local\n/);
  });

  it('starts the app container with hugepage limits and kubelet\'s resources under the pod cgroup', async () => {
    ids.web0 = await create('web', APP_CMD, 0);
    await rt('StartContainer', { containerId: ids.web0 });
    const s = await status(ids.web0);
    expect(s).toMatchObject({ state: 'CONTAINER_RUNNING', exitCode: 0, reason: '', logPath: join(pod.logDirectory, 'web', '0.log') });
    expect(BigInt(s.startedAt)).toBeGreaterThan(0n);
    expect(s.finishedAt).toBe('0');
    const cgroup = (controller: string, file: string) => readFileSync(join('/sys/fs/cgroup', controller, pod.cgroupParent, ids.web0, file), 'utf8').trim();
    expect(cgroup('cpu', 'cpu.cfs_quota_us')).toBe('50000');
    expect(cgroup('cpu', 'cpu.shares')).toBe('102');
    expect(cgroup('memory', 'memory.limit_in_bytes')).toBe(String(128 * MiB));
    await waitFor(async () => readFileSync(s.logPath, 'utf8').includes('stdout F web up'), { timeoutMs: 10_000, what: 'the app\'s first log line' });
  });

  // The probe's process must be killed at its timeout, children included (kubelet abandons it).
  it('fails an exec probe at its timeout and leaves none of its processes running', async () => {
    // A probe that answers in time passes.
    const ok = await rt('ExecSync', { containerId: ids.web0, cmd: ['sh', '-c', 'test -f /etc/hostname && echo ready'], timeout: 1 });
    expect({ exitCode: ok.exitCode, stdout: Buffer.from(ok.stdout).toString() }).toEqual({ exitCode: 0, stdout: 'ready\n' });
    // The probe would run for an hour: only its 1 s timeout ends the call (the client's deadline is far off).
    const err = (await rt('ExecSync', { containerId: ids.web0, cmd: ['sh', '-c', 'sleep 4321; echo probe-never-done'], timeout: 1 }, 90_000).catch((e: Error) => e)) as Error & { code?: number };
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe(4); // DEADLINE_EXCEEDED, which kubelet turns into a probe timeout
    const ps = await rt('ExecSync', { containerId: ids.web0, cmd: ['ps', '-o', 'pid,args'], timeout: 10 });
    expect(ps.exitCode).toBe(0);
    expect(Buffer.from(ps.stdout).toString()).not.toMatch(/sleep 4321|probe-never-done/);
  });

  it('restarts the crashed app as attempt 1 under the same name with its own log', async () => {
    await rt('ExecSync', { containerId: ids.web0, cmd: ['kill', '-USR1', '1'], timeout: 5 });
    const crashed = await waitExited(ids.web0);
    expect(crashed).toMatchObject({ exitCode: 3, reason: 'Error', metadata: { name: 'web', attempt: 0 } });
    expect(BigInt(crashed.finishedAt)).toBeGreaterThan(BigInt(crashed.startedAt));
    expect(readFileSync(crashed.logPath, 'utf8')).toMatch(/ stderr F crashing\n/);

    ids.web1 = await create('web', APP_CMD, 1);
    await rt('StartContainer', { containerId: ids.web1 });
    const s = await status(ids.web1);
    expect(s).toMatchObject({
      state: 'CONTAINER_RUNNING',
      metadata: { name: 'web', attempt: 1 },
      logPath: join(pod.logDirectory, 'web', '1.log'),
      annotations: expect.objectContaining({ 'io.kubernetes.container.restartCount': '1' }),
    });
    await waitFor(async () => readFileSync(s.logPath, 'utf8').includes('stdout F web up'), { timeoutMs: 10_000, what: 'the restarted app\'s log' });
    // kubelet finds every attempt of the pod's containers by its uid label.
    const { containers } = await rt('ListContainers', { filter: { labelSelector: { 'io.kubernetes.pod.uid': pod.uid } } });
    const seen = (containers as CriMessage[]).map((c) => `${c.metadata.name}/${c.metadata.attempt}/${c.state}`).sort();
    expect(seen).toEqual(['init-config/0/CONTAINER_EXITED', 'web/0/CONTAINER_EXITED', 'web/1/CONTAINER_RUNNING']);
  });

  it('stops the pod as kubelet does (grace period, then the sandbox) and removes everything', async () => {
    await rt('StopContainer', { containerId: ids.web1, timeout: 30 }, 40_000);
    expect(await status(ids.web1)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' });
    expect(readFileSync(join(pod.logDirectory, 'web', '1.log'), 'utf8')).toMatch(/ stdout F bye\n/);
    await rt('StopPodSandbox', { podSandboxId: podId });
    expect((await rt('PodSandboxStatus', { podSandboxId: podId })).status.state).toBe('SANDBOX_NOTREADY');
    for (const containerId of Object.values(ids)) await rt('RemoveContainer', { containerId });
    await rt('RemovePodSandbox', { podSandboxId: podId });
    // Removing again is not an error (kubelet retries).
    await rt('RemovePodSandbox', { podSandboxId: podId });

    expect((await rt('ListPodSandbox', { filter: { labelSelector: { 'io.kubernetes.pod.uid': pod.uid } } })).items).toEqual([]);
    expect((await rt('ListContainers', {})).containers).toEqual([]);
    const all = [podId, ...Object.values(ids)];
    const named = new Set(all);
    // Removed trees leave through <root>/trash, deleted in the background: wait until it is empty.
    await waitFor(async () => (await readdir(join(daemon.root, 'trash')).catch(() => [] as string[])).length === 0, { timeoutMs: 10_000, intervalMs: 50, what: 'the trash emptied' });
    const files: string[] = [];
    for (const dir of [daemon.root, daemon.state]) {
      for (const path of await readdir(dir, { recursive: true })) if (all.some((id) => path.includes(id.slice(0, 12)))) files.push(join(dir, path));
    }
    expect(files).toEqual([]);
    expect((await listProcesses()).filter((p) => inCgroupOf(p, named)).map((p) => p.argv.join(' '))).toEqual([]);
    expect(await findCgroupDirs(named)).toEqual([]);
    expect(await mountsUnder(daemon.dir)).toEqual([]);
    const leases = await readdir(join(daemon.network.leaseDir, daemon.network.name)).catch(() => [] as string[]);
    expect(leases.filter((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n))).toEqual([]);
    // The logs stay for kubelet to rotate and remove.
    expect((await readdir(pod.logDirectory)).sort()).toEqual(['init-config', 'web']);
  });
});
