// A real `isulats daemon` whose root and state share one small tmpfs, filled to the last byte from
// inside a container (a loop appending to a file in its rootfs, whose rw layer is on that tmpfs, that
// takes back whatever is freed). On the full disk: a container that exits is seen exited, every CRI
// read answers, the daemon restarts and answers the same, ExecSync runs (an `rm` frees space), a
// never-started container and two pods are stopped, the filling pod is removed; the daemon answers
// other calls all along, and the refused writes are made once space is free (a stopped pod's record
// by the retry). A restart then finds the pod that stayed as it was, and nothing is left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { statfsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startIsulatsDaemon, ourMonitors, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { listProcesses, stillAlive, mountsUnder } from '../rig/host-cleanup.js';
import { run } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';
import { testContainer, testPod } from '../rig/kubelet-shapes.js';

const DISK_BYTES = 64 * 1024 * 1024;
/** Free space below this counts as full (the filler takes back what is freed within 50 ms). */
const FULL = 256 * 1024;
/**
 * A large label or env value: the record (or exec spec) that carries it needs more pages than a
 * release frees just before its write (runc's state of the exited container, which holds no labels),
 * so on the full disk that write is refused every time, not only when the filler was quicker.
 */
const BALLAST = 'x'.repeat(64 * 1024);
const cgroupParent = `ist-ddf-${randomBytes(3).toString('hex')}`;

let daemon: IsulatsDaemon;
let client: RawCriClient;
let busybox: string;
let disk: string;
let signalDir: string;
const daemonPids: number[] = [];

const rpc = (method: string, req: CriMessage = {}) => client.runtime(method, req, 60_000);
const imageRpc = (method: string, req: CriMessage = {}) => client.image(method, req, 60_000);

/** A kubelet-shaped pod; PID POD gives it a pause container, CONTAINER none. */
function podConfig(app: string, pid: 'POD' | 'CONTAINER'): CriMessage {
  return testPod({ name: `${app}-${randomUUID()}`, namespace: 'disk-full', logRoot: join(daemon.dir, 'logs'), cgroupParent, pid });
}

function containerConfig(pod: CriMessage, name: string, script: string, { labels, ...extra }: CriMessage = {}): CriMessage {
  return testContainer(pod, { name, image: busybox, command: ['sh', '-c', script], labels: labels as Record<string, string> | undefined, extra });
}

async function runContainer(pod: string, config: CriMessage, ctr: CriMessage): Promise<string> {
  const { containerId } = await rpc('CreateContainer', { podSandboxId: pod, config: ctr, sandboxConfig: config });
  await rpc('StartContainer', { containerId });
  return containerId as string;
}

const freeBytes = () => {
  const s = statfsSync(disk);
  return s.bavail * s.bsize;
};

const status = async (containerId: string) => (await rpc('ContainerStatus', { containerId })).status as { state: string; exitCode: number; reason: string; logPath: string; finishedAt: string };

async function logOf(containerId: string): Promise<string> {
  return readFile((await status(containerId)).logPath, 'utf8').catch(() => '');
}

/** What a restarted daemon must find again: every pod and container with its state and exit. */
async function snapshot(): Promise<unknown> {
  const pods = ((await rpc('ListPodSandbox')).items ?? []) as Array<{ id: string; state: string }>;
  const containers = ((await rpc('ListContainers')).containers ?? []) as Array<{ id: string; podSandboxId: string; state: string }>;
  const statuses = await Promise.all(containers.map(async (c) => {
    const s = (await rpc('ContainerStatus', { containerId: c.id })).status as CriMessage;
    return { id: c.id, pod: c.podSandboxId, state: s.state, exitCode: s.exitCode, reason: s.reason, startedAt: s.startedAt, finishedAt: s.finishedAt };
  }));
  return { pods: pods.map((p) => ({ id: p.id, state: p.state })).sort((a, b) => a.id.localeCompare(b.id)), containers: statuses.sort((a, b) => a.id.localeCompare(b.id)) };
}

/** Calls another client makes all along: each must answer. */
function keepCalling(earlier: string[] = []): { stop(): Promise<string[]> } {
  let running = true;
  const failures = [...earlier];
  let calls = 0;
  const loop = (async () => {
    while (running) {
      for (const [method, call] of [['Version', () => rpc('Version')], ['ListContainers', () => rpc('ListContainers')], ['ListPodSandbox', () => rpc('ListPodSandbox')], ['ImageFsInfo', () => imageRpc('ImageFsInfo')]] as const) {
        await call().then(() => void calls++, (e: Error) => void failures.push(`${method}: ${e.message}`));
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      expect(calls).toBeGreaterThan(0);
      return failures;
    },
  };
}

/** Everything of ours the host still holds once all pods are gone (the tmpfs and its binds aside). */
async function leftovers(): Promise<Record<string, string[]>> {
  const processes = await listProcesses();
  const runc = await run('runc', ['--root', join(daemon.state, 'runc'), 'list', '-q'], { check: false });
  return {
    pods: await readdir(join(daemon.root, 'sandboxes')).catch(() => []),
    containers: await readdir(join(daemon.root, 'containers')).catch(() => []),
    mounts: (await mountsUnder(daemon.dir)).filter((m) => ![disk, daemon.root, daemon.state].includes(m)),
    netns: (await Promise.all(['netns', 'ipcns', 'utsns'].map((d) => readdir(join(daemon.state, d)).catch(() => [] as string[])))).flat(),
    runc: runc.stdout.split('\n').filter(Boolean),
    monitors: await stillAlive(ourMonitors(processes, daemon.dir)),
    tasks: await stillAlive(processes.filter((p) => p.cgroups.some((c) => c.includes(`/${cgroupParent}/`)))),
    // ExecSync's spec and pid file went to /dev/shm while the disk was full (named by the daemon's PID).
    execScratch: (await readdir('/dev/shm')).filter((n) => daemonPids.some((pid) => n.startsWith(`isulats-exec-${pid}.`))),
  };
}

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  // Root and state move onto one small tmpfs: the daemon stops, the tmpfs is bound over both dirs
  // (unmountUnder in cleanup takes all three mounts), and it starts afresh there.
  await daemon.stopProcess();
  disk = join(daemon.dir, 'disk');
  await mkdir(disk);
  await run('mount', ['-t', 'tmpfs', '-o', `size=${DISK_BYTES},mode=0711`, 'tmpfs', disk]);
  for (const [sub, target] of [['root', daemon.root], ['state', daemon.state]] as const) {
    await mkdir(join(disk, sub), { mode: 0o711 });
    await run('mount', ['--bind', join(disk, sub), target]);
  }
  signalDir = join(daemon.dir, 'signal');
  await mkdir(signalDir);
  await daemon.start();
  client = openCriClient(daemon.endpoint);
  await client.image('PullImage', { image: { image: busybox } }, 120_000);
  await client.image('PullImage', { image: { image: env.ISULATS_TEST_PAUSE } }, 120_000);
}, 240_000);

afterAll(async () => {
  client?.close();
  const dir = daemon?.dir;
  await daemon?.cleanup();
  for (const controller of await readdir('/sys/fs/cgroup').catch(() => [] as string[])) {
    await run('rmdir', [join('/sys/fs/cgroup', controller, cgroupParent)], { check: false });
  }
  if (dir) expect(await mountsUnder(dir)).toEqual([]);
}, 120_000);

describe('daemon on a full disk', () => {
  it('reads answer, ExecSync frees space, the filling pod stops and is removed, a restart finds the rest as it was', async () => {
    // A pod that stays through it all: a running container and one that exited before the fill.
    const keepConfig = podConfig('keep', 'CONTAINER');
    const keep = (await rpc('RunPodSandbox', { config: keepConfig })).podSandboxId as string;
    const steady = await runContainer(keep, keepConfig, containerConfig(keepConfig, 'steady', 'exec sleep 3600'));
    const done = await runContainer(keep, keepConfig, containerConfig(keepConfig, 'done', 'exit 0'));
    await waitFor(async () => (await status(done)).state === 'CONTAINER_EXITED', { timeoutMs: 20_000, what: 'the done container to exit' });
    const before = await snapshot();

    // A pod stopped on the full disk and removed only once space is free: its NOTREADY record is
    // written by the retry, not by a call.
    const laterConfig = podConfig('later', 'CONTAINER');
    (laterConfig.labels as Record<string, string>)['disk-full.test/ballast'] = BALLAST;
    const later = (await rpc('RunPodSandbox', { config: laterConfig })).podSandboxId as string;

    // The filling pod (with a pause container): the filler writes until the disk is full, the
    // quitter exits once told to (a file in a host dir off the tmpfs), i.e. on the full disk.
    const fillConfig = podConfig('fill', 'POD');
    (fillConfig.labels as Record<string, string>)['disk-full.test/ballast'] = BALLAST;
    const fill = (await rpc('RunPodSandbox', { config: fillConfig })).podSandboxId as string;
    daemonPids.push(daemon.pid);
    let calls = keepCalling();
    const quitter = await runContainer(fill, fillConfig, containerConfig(fillConfig, 'quitter', 'until [ -e /signal/quit ]; do sleep 0.1; done; exit 3', {
      mounts: [{ containerPath: '/signal', hostPath: signalDir, readonly: true }],
      labels: { 'disk-full.test/ballast': BALLAST },
    }));
    // Never started: stopping it writes its record, which the full disk refuses.
    const idle = (await rpc('CreateContainer', { podSandboxId: fill, config: containerConfig(fillConfig, 'idle', 'true', { labels: { 'disk-full.test/ballast': BALLAST } }), sandboxConfig: fillConfig })).containerId as string;
    // The filler keeps taking what is freed (runc's state of an exited container, a trashed file)
    // until told to pause, so the disk stays full as a node's would under a writing container.
    const fillLoop = 'first=1; while :; do [ -e /signal/pause ] || cat /dev/zero >> /fill 2>/dev/null; [ $first ] && echo filled && first=; sleep 0.05; done';
    const filler = await runContainer(fill, fillConfig, containerConfig(fillConfig, 'filler', fillLoop, {
      mounts: [{ containerPath: '/signal', hostPath: signalDir, readonly: true }],
      envs: [{ key: 'BALLAST', value: BALLAST }],
    }));
    await waitFor(async () => (await logOf(filler)).includes('filled'), { timeoutMs: 60_000, what: 'the filler to fill the disk' });
    expect(freeBytes()).toBeLessThan(FULL);
    await writeFile(join(signalDir, 'quit'), '');

    // Every read answers on the full disk, the exit included.
    await waitFor(async () => (await status(quitter)).state === 'CONTAINER_EXITED', { timeoutMs: 30_000, what: 'the quitter to be seen exited' });
    // conmon's exit file is on the full state dir too: without it the exit is 255 Unknown, as for a
    // killed monitor (3 Error when it got a page someone freed).
    const exited = await status(quitter);
    expect([[3, 'Error'], [255, 'Unknown']]).toContainEqual([exited.exitCode, exited.reason]);
    // The same answer at every read, its finish time included, while it cannot be written.
    expect(await status(quitter)).toEqual(exited);
    const pods = ((await rpc('ListPodSandbox')).items ?? []) as Array<{ id: string; state: string }>;
    expect(pods.map((p) => [p.id, p.state]).sort()).toEqual([[fill, 'SANDBOX_READY'], [keep, 'SANDBOX_READY'], [later, 'SANDBOX_READY']].sort());
    for (const p of [keep, fill, later]) expect((await rpc('PodSandboxStatus', { podSandboxId: p, verbose: true })).status.state).toBe('SANDBOX_READY');
    const containers = ((await rpc('ListContainers')).containers ?? []) as Array<{ id: string; state: string }>;
    expect(Object.fromEntries(containers.map((c) => [c.id, c.state]))).toEqual({
      [steady]: 'CONTAINER_RUNNING', [done]: 'CONTAINER_EXITED', [filler]: 'CONTAINER_RUNNING', [quitter]: 'CONTAINER_EXITED', [idle]: 'CONTAINER_CREATED',
    });
    for (const c of [steady, done, filler, quitter, idle]) {
      expect((await rpc('ContainerStatus', { containerId: c, verbose: true })).status.id).toBe(c);
      expect((await rpc('ContainerStats', { containerId: c })).stats.attributes.id).toBe(c);
    }
    expect(((await rpc('ListContainerStats')).stats ?? []).length).toBe(5);
    expect((await rpc('PodSandboxStats', { podSandboxId: fill })).stats.attributes.id).toBe(fill);
    expect(((await rpc('ListPodSandboxStats')).stats ?? []).length).toBe(3);
    expect(((await imageRpc('ListImages')).images ?? []).length).toBeGreaterThan(0);
    expect((await imageRpc('ImageStatus', { image: { image: busybox } })).image).toBeTruthy();
    expect(((await imageRpc('ImageFsInfo')).imageFilesystems ?? []).length).toBeGreaterThan(0);
    expect((await rpc('Version')).runtimeName).toBe('isulats');
    expect((await rpc('Status')).status.conditions.length).toBeGreaterThan(0);
    expect(freeBytes()).toBeLessThan(FULL);

    // A daemon restarted on the full disk starts and answers the same (a new process derives the
    // finish time of an exit that neither conmon nor the record could keep anew).
    const unrecorded = (snap: unknown) => JSON.parse(JSON.stringify(snap), (k, v) => (v?.reason === 'Unknown' ? { ...v, finishedAt: 'unrecorded' } : v));
    const onFullDisk = unrecorded(await snapshot());
    const beforeRestart = await calls.stop();
    await daemon.stopProcess();
    await daemon.start();
    daemonPids.push(daemon.pid);
    expect(unrecorded(await snapshot())).toEqual(onFullDisk);
    expect(freeBytes()).toBeLessThan(FULL);
    calls = keepCalling(beforeRestart);

    // ExecSync works on the full disk: an operator's `rm` frees space, and a refill takes it again.
    const exec = async (cmd: string) => rpc('ExecSync', { containerId: filler, cmd: ['sh', '-c', cmd], timeout: 30 });
    expect(Buffer.from((await exec('echo alive')).stdout as Uint8Array).toString()).toBe('alive\n');
    await writeFile(join(signalDir, 'pause'), '');
    expect((await exec('rm /fill')).exitCode).toBe(0);
    expect(freeBytes()).toBeGreaterThan(DISK_BYTES / 2);
    await rm(join(signalDir, 'pause'));
    await waitFor(async () => freeBytes() < FULL, { timeoutMs: 30_000, what: 'the filler to fill the disk again' });

    // The filling pod stops and is removed on the full disk (its removal frees the space).
    await rpc('StopContainer', { containerId: quitter, timeout: 0 });
    await rpc('StopPodSandbox', { podSandboxId: later });
    expect((await rpc('PodSandboxStatus', { podSandboxId: later })).status.state).toBe('SANDBOX_NOTREADY');
    await rpc('StopPodSandbox', { podSandboxId: fill });
    expect((await rpc('PodSandboxStatus', { podSandboxId: fill })).status.state).toBe('SANDBOX_NOTREADY');
    expect((await status(filler)).state).toBe('CONTAINER_EXITED');
    await rpc('RemovePodSandbox', { podSandboxId: fill });
    expect(((await rpc('ListContainers', { filter: { podSandboxId: fill } })).containers ?? []).length).toBe(0);
    await waitFor(async () => freeBytes() > DISK_BYTES / 2, { timeoutMs: 30_000, what: 'the removed pod to give its space back' });
    const laterRecord = join(daemon.root, 'sandboxes', later, 'meta.json');
    await waitFor(async () => JSON.parse(await readFile(laterRecord, 'utf8')).state === 'SANDBOX_NOTREADY', { timeoutMs: 30_000, what: 'the stopped pod\'s record to be written again' });
    expect(JSON.parse(await readFile(laterRecord, 'utf8')).released).toBe(true);
    await rpc('RemovePodSandbox', { podSandboxId: later });
    expect(await calls.stop()).toEqual([]);

    // A restart on the freed disk finds the pod that stayed as it was.
    await daemon.stopProcess();
    await daemon.start();
    daemonPids.push(daemon.pid);
    expect(await snapshot()).toEqual(before);
    expect(Buffer.from((await rpc('ExecSync', { containerId: steady, cmd: ['echo', 'still'], timeout: 10 })).stdout as Uint8Array).toString()).toBe('still\n');

    // The writes were refused (so the answers above came without them), and made once space was free.
    const log = await readFile(daemon.logPath, 'utf8');
    expect(log).toContain(`container ${quitter}: its exit: not written (ENOSPC)`);
    expect(log).toContain(`pod sandbox ${fill}: its stop: not written (ENOSPC)`);
    expect(log).toContain(`pod sandbox ${later}: its stop: not written (ENOSPC)`);
    expect(log).toContain(`pod sandbox ${later}: its stop: written now`);
    expect(log).toContain(`container ${idle}: its stop not recorded (ENOSPC`);
    await rpc('StopPodSandbox', { podSandboxId: keep });
    await rpc('RemovePodSandbox', { podSandboxId: keep });
    expect(await leftovers()).toEqual({ pods: [], containers: [], mounts: [], netns: [], runc: [], monitors: [], tasks: [], execScratch: [] });
  }, 300_000);
});
