// SIGKILL of a real `isulats daemon` in the middle of a concurrent burst of RunPodSandbox,
// CreateContainer and StartContainer over gRPC, at a few points of the burst (after the k-th
// answer), once while the killed daemon stays a zombie (its parent never reaps it). Each time the
// daemon restarts on the same root, and then: every pod and container a client was told exists is
// listed, none twice, every started one runs; once all is removed nothing is left (mounts, netns
// files, host-local leases, runc containers, conmon and container processes, cgroups); and every
// name can be used again (the next burst uses the same names and must meet no error before its kill).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startIsulatsDaemon, ourMonitors, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { listProcesses, stillAlive, mountsUnder } from '../rig/host-cleanup.js';
import { run } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { testContainer, testPod, TEST_APP_RESOURCES } from '../rig/kubelet-shapes.js';

const PODS = 8;
const cgroupParent = `ist-burst-${randomBytes(3).toString('hex')}`;
/** The same pods each round: a burst after a crash must be able to take every name again. */
const podNames = Array.from({ length: PODS }, (_, i) => `burst-${i}-${randomUUID()}`);

let daemon: IsulatsDaemon;
let client: RawCriClient;
let busybox: string;
let baselineMounts: string[] = [];

function podConfig(name: string): CriMessage {
  return testPod({ name, namespace: 'crash-burst', logRoot: join(daemon.dir, 'logs'), cgroupParent, pid: 'CONTAINER' });
}

function containerConfig(pod: CriMessage): CriMessage {
  return testContainer(pod, { name: 'app', image: busybox, command: ['sh', '-c', 'echo started; exec sleep 3600'], extra: { linux: { resources: TEST_APP_RESOURCES } } });
}

interface Told {
  pods: Set<string>;
  containers: Set<string>;
  started: Set<string>;
  /** Errors answered before the kill: none may happen (a name still held, a broken store). */
  early: string[];
}

/** Runs the burst; SIGKILLs the daemon once `killAfter` calls have been answered (or when all were). */
async function burstAndKill(killAfter: number): Promise<Told> {
  const told: Told = { pods: new Set(), containers: new Set(), started: new Set(), early: [] };
  let answered = 0;
  let killed = false;
  let kill!: () => void;
  const killNow = new Promise<void>((resolve) => (kill = resolve));
  const answer = () => {
    if (++answered >= killAfter) kill();
  };
  const call = async (method: string, req: CriMessage): Promise<CriMessage> => {
    try {
      const res = await client.runtime(method, req, 60_000);
      answer();
      return res;
    } catch (error) {
      if (!killed) told.early.push(`${method}: ${(error as Error).message}`);
      throw error;
    }
  };
  const worker = async (name: string) => {
    const config = podConfig(name);
    const { podSandboxId } = await call('RunPodSandbox', { config });
    told.pods.add(podSandboxId);
    const { containerId } = await call('CreateContainer', { podSandboxId, config: containerConfig(config), sandboxConfig: config });
    told.containers.add(containerId);
    await call('StartContainer', { containerId });
    told.started.add(containerId);
  };
  const workers = Promise.allSettled(podNames.map(worker)).then(() => kill());
  await killNow;
  killed = true;
  await daemon.kill();
  await workers;
  return told;
}

async function listed(): Promise<{ pods: CriMessage[]; containers: CriMessage[] }> {
  const pods = ((await client.runtime('ListPodSandbox', {})).items ?? []) as CriMessage[];
  const containers = ((await client.runtime('ListContainers', {})).containers ?? []) as CriMessage[];
  return { pods, containers };
}

async function removeAll(): Promise<void> {
  for (const pod of (await listed()).pods) {
    await client.runtime('StopPodSandbox', { podSandboxId: pod.id }, 60_000);
    await client.runtime('RemovePodSandbox', { podSandboxId: pod.id }, 60_000);
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
  return {
    pods: await readdir(join(daemon.root, 'sandboxes')).catch(() => []),
    containers: await readdir(join(daemon.root, 'containers')).catch(() => []),
    names: [...(await readdir(join(daemon.root, 'names', 'sandboxes')).catch(() => [])), ...(await readdir(join(daemon.root, 'names', 'containers')).catch(() => []))],
    mounts: (await mountsUnder(daemon.dir)).filter((m) => !baselineMounts.includes(m)),
    // Namespace pins: network, IPC and UTS.
    netns: (await Promise.all(['netns', 'ipcns', 'utsns'].map((d) => readdir(join(daemon.state, d)).catch(() => [] as string[])))).flat(),
    leases: (await readdir(join(daemon.network.leaseDir, daemon.network.name)).catch(() => [] as string[])).filter((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n)),
    runc: runc.stdout.split('\n').filter(Boolean),
    monitors: await stillAlive(ourMonitors(processes, daemon.dir)),
    tasks: await stillAlive(processes.filter((p) => p.cgroups.some((c) => c.includes(`/${cgroupParent}/`)))),
    cgroups,
  };
}

async function processState(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

const NOTHING = { pods: [], containers: [], names: [], mounts: [], netns: [], leases: [], runc: [], monitors: [], tasks: [], cgroups: [] };

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  client = openCriClient(daemon.endpoint);
  await client.image('PullImage', { image: { image: busybox } });
  // The pause image is pulled by the first pod: once, outside the measured rounds.
  await client.runtime('RunPodSandbox', { config: podConfig(`warmup-${randomUUID()}`) }, 120_000);
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

describe('SIGKILL of the daemon during a concurrent burst', () => {
  // After the k-th answer: while pods are still being made, mid-way, and among the starts.
  const rounds: Array<{ killAfter: number; zombie: boolean }> = [
    { killAfter: 2, zombie: false },
    { killAfter: 8, zombie: true },
    { killAfter: 17, zombie: false },
  ];
  for (const { killAfter, zombie } of rounds) {
    it(`killed after ${killAfter} answers${zombie ? ', left a zombie' : ''}: all told is listed once, removal leaves nothing, names are free`, async () => {
      if (zombie) {
        // Restart under a parent that never reaps, so the kill leaves a zombie daemon behind.
        await daemon.stopProcess();
        await daemon.start({ nonReapingParent: true });
      }
      const told = await burstAndKill(killAfter);
      expect(told.early).toEqual([]);
      // The killed daemon must still be there as a zombie while its successor starts.
      if (zombie) expect(await processState(daemon.pid)).toBe('Z');
      try {
        await daemon.start();
        const { pods, containers } = await listed();
        const podIds = pods.map((p) => p.id as string);
        const podNamesListed = pods.map((p) => (p.metadata as { name: string }).name);
        const ctrIds = containers.map((c) => c.id as string);
        expect(new Set(podIds).size).toBe(podIds.length);
        expect(new Set(podNamesListed).size).toBe(podNamesListed.length);
        expect(new Set(ctrIds).size).toBe(ctrIds.length);
        expect([...told.pods].filter((id) => !podIds.includes(id))).toEqual([]);
        expect([...told.containers].filter((id) => !ctrIds.includes(id))).toEqual([]);
        // Pods without a pause are READY after the restart by their pins.
        expect(pods.filter((p) => told.pods.has(p.id as string) && p.state !== 'SANDBOX_READY').map((p) => p.id)).toEqual([]);
        const notRunning = containers.filter((c) => told.started.has(c.id as string) && c.state !== 'CONTAINER_RUNNING');
        expect(notRunning).toEqual([]);
        // Started under a monitor: its first line reached its log.
        const unlogged: string[] = [];
        for (const c of containers.filter((x) => told.started.has(x.id as string))) {
          const status = (await client.runtime('ContainerStatus', { containerId: c.id })).status as { logPath: string };
          if (!(await readFile(status.logPath, 'utf8').catch(() => '')).includes('started')) unlogged.push(c.id as string);
        }
        expect(unlogged).toEqual([]);
      } finally {
        if (zombie) daemon.reapZombie();
      }
      await removeAll();
      expect(await leftovers()).toEqual(NOTHING);
    }, 180_000);
  }

  it('every name is taken again without error, and removed without a trace', async () => {
    await Promise.all(podNames.map(async (name) => {
      const config = podConfig(name);
      const { podSandboxId } = await client.runtime('RunPodSandbox', { config }, 60_000);
      const { containerId } = await client.runtime('CreateContainer', { podSandboxId, config: containerConfig(config), sandboxConfig: config }, 60_000);
      await client.runtime('StartContainer', { containerId }, 60_000);
    }));
    await removeAll();
    expect(await leftovers()).toEqual(NOTHING);
  }, 180_000);
});
