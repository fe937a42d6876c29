// SIGKILL of a real `isulats daemon` at every named failpoint of RunPodSandbox, CreateContainer,
// StartContainer, RemoveContainer, StopPodSandbox and RemovePodSandbox, and of the release of a
// container that exited by itself, over gRPC. The daemon restarts on the same
// root (its recovery runs once, at start, where a CLI call recovers at each call), and then the
// pod or container is there and usable, or gone with its name free; the RPC succeeds when retried;
// and once the pods are removed nothing is left: mounts, namespace pins, host-local leases, runc
// containers, conmon and container processes, cgroups, record lock files.
// runtime-crash.test.ts kills the embedded engine (a CLI call) at the same points.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startIsulatsDaemon, ourMonitors, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { listProcesses, stillAlive, mountsUnder } from '../rig/host-cleanup.js';
import { pidAlive, run } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';
import { testContainer, testPod, TEST_APP_RESOURCES } from '../rig/kubelet-shapes.js';
import { CREATE_FAILPOINTS, EXIT_FAILPOINTS, IDMAP_FAILPOINTS, RM_FAILPOINTS, RMP_FAILPOINTS, RUNP_FAILPOINTS, START_FAILPOINTS, STOPP_FAILPOINTS, type RuntimeFailpoint } from '../../src/runtime/recovery/failpoints.js';

type PidMode = 'POD' | 'CONTAINER';
/** Each failpoint runs on a pod without a pause; those around the pause's own steps also on one with it. */
const pidModes = (fp: string): PidMode[] => (/pause|rootfs/.test(fp) ? ['CONTAINER', 'POD'] : ['CONTAINER']);
const modeName = (pid: PidMode) => (pid === 'POD' ? ' (with a pause)' : '');
const cgroupParent = `ist-dcp-${randomBytes(3).toString('hex')}`;

let daemon: IsulatsDaemon;
let client: RawCriClient;
let busybox: string;
let baselineMounts: string[] = [];

const USERNS_MAPPING = [{ containerId: 0, hostId: 362144, length: 65536 }];

/** A pod as kubelet sends it: PID CONTAINER has no pause container, PID POD shares one; `userns`: hostUsers false. */
function podConfig(app: string, pid: PidMode, userns = false): CriMessage {
  return testPod({
    name: `${app}-${randomUUID()}`, namespace: 'crash-points', logRoot: join(daemon.dir, 'logs'), cgroupParent, pid,
    namespaceOptions: userns ? { usernsOptions: { mode: 0, uids: USERNS_MAPPING, gids: USERNS_MAPPING } } : {},
  });
}

/** Writes a line first, so a started container shows it runs under a monitor (its log). */
function containerConfig(pod: CriMessage): CriMessage {
  return testContainer(pod, { name: 'app', image: busybox, command: ['sh', '-c', 'echo started; exec sleep 3600'], extra: { linux: { resources: TEST_APP_RESOURCES } } });
}

const rpc = (method: string, req: CriMessage) => client.runtime(method, req, 60_000);

/** The daemon, restarted so that it dies by SIGKILL when it reaches `fp`. */
async function armDaemon(fp: RuntimeFailpoint): Promise<void> {
  await daemon.stopProcess();
  await daemon.start({ env: { ISULATS_FAILPOINT: fp } });
}

/** Runs the call that reaches the armed failpoint; the daemon dies there and starts again without it. */
async function crash(method: string, req: CriMessage): Promise<void> {
  const killed = daemon.pid;
  await expect(rpc(method, req)).rejects.toThrow();
  await waitFor(async () => !(await pidAlive(killed)), { timeoutMs: 10_000, intervalMs: 20, what: `daemon ${killed} to die` });
  await daemon.start({ env: { ISULATS_FAILPOINT: '' } });
}

const pods = async () => ((await rpc('ListPodSandbox', {})).items ?? []) as Array<{ id: string; state: string }>;
const containers = async () => ((await rpc('ListContainers', {})).containers ?? []) as Array<{ id: string; state: string }>;

async function runPod(pid: PidMode): Promise<{ config: CriMessage; pod: string }> {
  const config = podConfig('crash', pid);
  const { podSandboxId } = await rpc('RunPodSandbox', { config });
  return { config, pod: podSandboxId as string };
}

async function createContainer(pod: string, config: CriMessage): Promise<string> {
  return (await rpc('CreateContainer', { podSandboxId: pod, config: containerConfig(config), sandboxConfig: config })).containerId as string;
}

/** The started container is monitored: its first line reaches its log, exec works, a stop records its real exit. */
async function expectMonitored(ctr: string): Promise<void> {
  const { logPath } = (await rpc('ContainerStatus', { containerId: ctr })).status as { logPath: string };
  await waitFor(async () => (await readFile(logPath, 'utf8').catch(() => '')).includes('started'), { timeoutMs: 5_000, what: `the first line of ${ctr}` });
  const exec = await rpc('ExecSync', { containerId: ctr, cmd: ['echo', 'alive'], timeout: 10 });
  expect(Buffer.from(exec.stdout as Uint8Array).toString().trim()).toBe('alive');
  await rpc('StopContainer', { containerId: ctr, timeout: 0 });
  const status = (await rpc('ContainerStatus', { containerId: ctr })).status as { exitCode: number; reason: string };
  expect({ exitCode: status.exitCode, reason: status.reason }).toEqual({ exitCode: 137, reason: 'Error' });
}

async function removeAll(): Promise<void> {
  for (const p of await pods()) {
    await rpc('StopPodSandbox', { podSandboxId: p.id });
    await rpc('RemovePodSandbox', { podSandboxId: p.id });
  }
}

/** Everything of ours the host still holds. */
async function leftovers(): Promise<Record<string, string[]>> {
  const processes = await listProcesses();
  const cgroups: string[] = [];
  for (const controller of await readdir('/sys/fs/cgroup').catch(() => [] as string[])) {
    const parent = join('/sys/fs/cgroup', controller, cgroupParent);
    for (const e of await readdir(parent, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) cgroups.push(join(parent, e.name));
  }
  const runc = await run('runc', ['--root', join(daemon.state, 'runc'), 'list', '-q'], { check: false });
  const both = async (sub: string) => [...(await readdir(join(daemon.root, sub, 'sandboxes')).catch(() => [])), ...(await readdir(join(daemon.root, sub, 'containers')).catch(() => []))];
  return {
    pods: await readdir(join(daemon.root, 'sandboxes')).catch(() => []),
    containers: await readdir(join(daemon.root, 'containers')).catch(() => []),
    names: await both('names'),
    locks: await both('locks'),
    mounts: (await mountsUnder(daemon.dir)).filter((m) => !baselineMounts.includes(m)),
    // Namespace pins: network, IPC, UTS and user.
    netns: (await Promise.all(['netns', 'ipcns', 'utsns', 'userns'].map((d) => readdir(join(daemon.state, d)).catch(() => [] as string[])))).flat(),
    // Share dirs of pods with a user namespace.
    shares: await readdir(join(daemon.state, 'userns-share')).catch(() => []),
    leases: (await readdir(join(daemon.network.leaseDir, daemon.network.name)).catch(() => [] as string[])).filter((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n)),
    cniCache: await readdir(join(daemon.root, 'cni', 'results')).catch(() => []),
    runc: runc.stdout.split('\n').filter(Boolean),
    monitors: await stillAlive(ourMonitors(processes, daemon.dir)),
    tasks: await stillAlive(processes.filter((p) => p.cgroups.some((c) => c.includes(`/${cgroupParent}/`)))),
    cgroups,
  };
}

const NOTHING = { pods: [], containers: [], names: [], locks: [], mounts: [], netns: [], shares: [], leases: [], cniCache: [], runc: [], monitors: [], tasks: [], cgroups: [] };

async function removeAllAndCheck(): Promise<void> {
  await removeAll();
  expect(await leftovers()).toEqual(NOTHING);
}

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  client = openCriClient(daemon.endpoint);
  await client.image('PullImage', { image: { image: busybox } }, 120_000);
  // The pause image is pulled by the first pod that has one: once, outside the cases.
  await client.runtime('RunPodSandbox', { config: podConfig('warmup', 'POD') }, 120_000);
  await removeAll();
  baselineMounts = await mountsUnder(daemon.dir);
}, 240_000);

afterAll(async () => {
  client?.close();
  await daemon?.cleanup();
  for (const controller of await readdir('/sys/fs/cgroup').catch(() => [] as string[])) {
    await run('rmdir', [join('/sys/fs/cgroup', controller, cgroupParent)], { check: false });
  }
}, 120_000);

describe('daemon SIGKILLed during RunPodSandbox', () => {
  for (const fp of RUNP_FAILPOINTS) for (const pid of pidModes(fp)) {
    it(`${fp}${modeName(pid)}: no pod half made, the retry succeeds, nothing leaks`, async () => {
      await armDaemon(fp);
      const config = podConfig('runp', pid);
      await crash('RunPodSandbox', { config });
      const after = await pods();
      if (fp === 'runp-after-ready-write') {
        expect(after.map((p) => p.state)).toEqual(['SANDBOX_READY']);
        // The name is taken by the committed pod: a retry is refused, not duplicated.
        await expect(rpc('RunPodSandbox', { config })).rejects.toThrow();
      } else {
        expect(after).toEqual([]);
        expect(await leftovers()).toEqual(NOTHING);
        await rpc('RunPodSandbox', { config });
      }
      expect((await pods()).map((p) => p.state)).toEqual(['SANDBOX_READY']);
      await removeAllAndCheck();
    }, 120_000);
  }
});

describe('daemon SIGKILLed while a pod with a user namespace starts', () => {
  const points: RuntimeFailpoint[] = [...RUNP_FAILPOINTS, ...IDMAP_FAILPOINTS];
  for (const fp of points) for (const pid of fp === 'idmap-after-layers' ? (['POD'] as const) : pidModes(fp)) {
    it(`${fp}${modeName(pid)}: no pod half made (no pins, mounts or share dir), the retry runs in the user namespace, nothing leaks`, async () => {
      await armDaemon(fp);
      const config = podConfig('runp-userns', pid, true);
      await crash('RunPodSandbox', { config });
      const after = await pods();
      if (fp === 'runp-after-ready-write') {
        expect(after.map((p) => p.state)).toEqual(['SANDBOX_READY']);
      } else {
        expect(after).toEqual([]);
        expect(await leftovers()).toEqual(NOTHING);
        await rpc('RunPodSandbox', { config });
      }
      const pod = (await pods())[0]!.id;
      const ctr = await createContainer(pod, config);
      await rpc('StartContainer', { containerId: ctr });
      const uidMap = await rpc('ExecSync', { containerId: ctr, cmd: ['cat', '/proc/self/uid_map'], timeout: 10 });
      expect(Buffer.from(uidMap.stdout as Uint8Array).toString().trim().split(/\s+/)).toEqual(['0', '362144', '65536']);
      await removeAllAndCheck();
    }, 120_000);
  }

  it('idmap-after-layers in CreateContainer: the container is not made, its layer clones are detached, the retry succeeds', async () => {
    await armDaemon('idmap-after-layers');
    const config = podConfig('create-userns', 'CONTAINER', true);
    const { podSandboxId } = await rpc('RunPodSandbox', { config });
    await crash('CreateContainer', { podSandboxId, config: containerConfig(config), sandboxConfig: config });
    expect(await containers()).toEqual([]);
    expect((await leftovers()).mounts.filter((m) => m.includes('/idmap/'))).toEqual([]);
    const ctr = await createContainer(podSandboxId as string, config);
    await rpc('StartContainer', { containerId: ctr });
    await expectMonitored(ctr);
    await removeAllAndCheck();
  }, 120_000);
});

describe('daemon SIGKILLed during CreateContainer', () => {
  for (const fp of CREATE_FAILPOINTS) {
    it(`${fp}: the container exists once or not at all, the retry succeeds, nothing leaks`, async () => {
      await armDaemon(fp);
      const { config, pod } = await runPod('CONTAINER');
      await crash('CreateContainer', { podSandboxId: pod, config: containerConfig(config), sandboxConfig: config });
      const after = await containers();
      let ctr: string;
      if (fp === 'create-after-record-write') {
        expect(after.map((c) => c.state)).toEqual(['CONTAINER_CREATED']);
        ctr = after[0]!.id;
      } else {
        expect(after).toEqual([]);
        ctr = await createContainer(pod, config);
      }
      await rpc('StartContainer', { containerId: ctr });
      await expectMonitored(ctr);
      await removeAllAndCheck();
    }, 120_000);
  }
});

describe('daemon SIGKILLed during StartContainer', () => {
  for (const fp of START_FAILPOINTS) {
    it(`${fp}: the record matches runc afterwards, the container is monitored, nothing leaks`, async () => {
      await armDaemon(fp);
      const { config, pod } = await runPod('CONTAINER');
      const ctr = await createContainer(pod, config);
      await crash('StartContainer', { containerId: ctr });
      const after = await containers();
      if (fp === 'start-before-conmon' || fp === 'start-after-conmon') {
        expect(after.map((c) => c.state)).toEqual(['CONTAINER_CREATED']);
        await rpc('StartContainer', { containerId: ctr });
      } else {
        expect(after.map((c) => c.state)).toEqual(['CONTAINER_RUNNING']);
      }
      await expectMonitored(ctr);
      await removeAllAndCheck();
    }, 120_000);
  }
});

describe('daemon SIGKILLed during RemoveContainer', () => {
  for (const fp of RM_FAILPOINTS) {
    it(`${fp}: the container is listed exited or gone, the retry removes it, its name is free, nothing leaks`, async () => {
      await armDaemon(fp);
      const { config, pod } = await runPod('CONTAINER');
      const ctr = await createContainer(pod, config);
      await rpc('StartContainer', { containerId: ctr });
      await crash('RemoveContainer', { containerId: ctr });
      const after = await containers();
      if (fp === 'rm-after-record-remove') {
        expect(after).toEqual([]);
      } else {
        expect(after.map((c) => c.state)).toEqual(['CONTAINER_EXITED']);
        await rpc('RemoveContainer', { containerId: ctr });
        expect(await containers()).toEqual([]);
      }
      // The same container again: its name was released.
      await rpc('StartContainer', { containerId: await createContainer(pod, config) });
      await removeAllAndCheck();
    }, 120_000);
  }
});

describe('daemon SIGKILLed while it releases a container that exited by itself', () => {
  for (const fp of EXIT_FAILPOINTS) {
    it(`${fp}: the restarted daemon finishes the release with no call (what the init left is killed, runc's container gone) and records the exit`, async () => {
      await armDaemon(fp);
      const { config, pod } = await runPod('POD');
      const marker = `sleep ${3600 + Math.floor(Math.random() * 1000)}`;
      const ctr = (await rpc('CreateContainer', { podSandboxId: pod, sandboxConfig: config, config: { ...containerConfig(config), command: ['sh', '-c', `${marker} & exit 3`], linux: { securityContext: { namespaceOptions: { network: 0, pid: 0, ipc: 0 } } } } })).containerId as string;
      const killed = daemon.pid;
      // The init exits at once: the daemon dies in its release, as StartContainer answers or just after.
      await rpc('StartContainer', { containerId: ctr }).catch(() => undefined);
      await waitFor(async () => !(await pidAlive(killed)), { timeoutMs: 10_000, intervalMs: 20, what: `daemon ${killed} to die` });
      await daemon.start({ env: { ISULATS_FAILPOINT: '' } });
      // Before any call: the restart released it.
      const left = await leftovers();
      expect(left.tasks.filter((t) => t.endsWith(marker))).toEqual([]);
      expect(left.runc).not.toContain(ctr);
      const status = (await rpc('ContainerStatus', { containerId: ctr })).status as { state: string; exitCode: number; reason: string };
      expect({ state: status.state, exitCode: status.exitCode, reason: status.reason }).toEqual({ state: 'CONTAINER_EXITED', exitCode: 3, reason: 'Error' });
      await rpc('RemoveContainer', { containerId: ctr });
      await removeAllAndCheck();
    }, 120_000);
  }
});

/** A pod with a running container. */
async function runningPod(pid: PidMode): Promise<{ config: CriMessage; pod: string }> {
  const made = await runPod(pid);
  await rpc('StartContainer', { containerId: await createContainer(made.pod, made.config) });
  return made;
}

describe('daemon SIGKILLed during StopPodSandbox', () => {
  for (const fp of STOPP_FAILPOINTS) for (const pid of pidModes(fp)) {
    it(`${fp}${modeName(pid)}: the pod is still listed once, the retry stops it, nothing leaks`, async () => {
      await armDaemon(fp);
      const { pod } = await runningPod(pid);
      await crash('StopPodSandbox', { podSandboxId: pod });
      expect((await pods()).map((p) => p.id)).toEqual([pod]);
      expect((await containers()).map((c) => c.state)).toEqual(['CONTAINER_EXITED']);
      await rpc('StopPodSandbox', { podSandboxId: pod });
      expect((await pods()).map((p) => p.state)).toEqual(['SANDBOX_NOTREADY']);
      const stopped = await leftovers();
      expect({ netns: stopped.netns, leases: stopped.leases, tasks: stopped.tasks, monitors: stopped.monitors }).toEqual({ netns: [], leases: [], tasks: [], monitors: [] });
      await removeAllAndCheck();
    }, 120_000);
  }
});

describe('daemon SIGKILLed during RemovePodSandbox', () => {
  for (const fp of RMP_FAILPOINTS) for (const pid of pidModes(fp)) {
    it(`${fp}${modeName(pid)}: the pod is removed once the retry runs, nothing leaks`, async () => {
      await armDaemon(fp);
      const { config, pod } = await runningPod(pid);
      await crash('RemovePodSandbox', { podSandboxId: pod });
      expect(await containers()).toEqual([]);
      if (fp === 'rmp-after-record-remove') {
        expect(await pods()).toEqual([]);
        // The name reservation the killed call still held is free again.
        await rpc('RunPodSandbox', { config });
      } else {
        expect((await pods()).map((p) => p.id)).toEqual([pod]);
        await rpc('RemovePodSandbox', { podSandboxId: pod });
        expect(await pods()).toEqual([]);
      }
      await removeAllAndCheck();
    }, 120_000);
  }
});
