// The processes each container call spawns in `isulats daemon`, grandchildren included, counted
// with strace on real runc and conmon: StartContainer is conmon and `runc create` (and its
// `runc init`), no `runc start` (the daemon reads the exec FIFO itself); StopContainer is one `runc kill` and one `runc delete` (the
// wait for the exit reads conmon's exit file: no `runc state` polls); a container that exits by
// itself costs the same `runc delete`, run by the daemon as it sees conmon's exit file (it
// removes the cgroup and kills what the init left), so RemoveContainer spawns nothing either way.
// ExecSync is one process, the execsync helper (no `runc exec` and `runc init`).
// containerd 1.6 spends 6 processes per StopContainer (3 runc kill, 2 runc delete, a shim delete).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { execName, execsPerCall, traceExecs, type CallWindow } from '../rig/exec-trace.js';
import { findCgroupDirs, inCgroupOf, listProcesses } from '../rig/host-cleanup.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';

let daemon: IsulatsDaemon;
let c: RawCriClient;
let busybox: string;

/** What the containers themselves run (busybox applets re-execute /proc/self/exe): not the engine's. */
const WORKLOAD = new Set(['sh', 'sleep', 'true']);
/** Exits 0 on SIGTERM (`wait` is interruptible; a bare `sleep` as PID 1 ignores SIGTERM). */
const GRACEFUL = ['sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"];
/** Ignores SIGTERM (only SIGKILL ends it). */
const IGNORES_SIGTERM = ['sh', '-c', "trap '' TERM; sleep 3600 & wait"];

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  c = openCriClient(daemon.endpoint);
  await c.image('PullImage', { image: { image: busybox } }, 120_000);
}, 120_000);

afterAll(async () => {
  c?.close();
  await daemon?.cleanup();
});

describe('processes per container call (isulats daemon, runc, conmon)', () => {
  it('spawns only conmon and runc create at start, runc kill + delete at stop, nothing more at remove', async () => {
    const uid = randomUUID();
    const sandboxConfig: CriMessage = {
      metadata: { name: `procs-${uid}`, uid, namespace: `procs-ns-${uid.slice(0, 8)}`, attempt: 0 },
      logDirectory: join(daemon.dir, 'logs', uid),
      labels: { 'io.kubernetes.pod.name': `procs-${uid}`, 'io.kubernetes.pod.uid': uid },
      linux: {},
    };
    const { podSandboxId } = await c.runtime('RunPodSandbox', { config: sandboxConfig }, 60_000);
    const container = (name: string, command: string[]): CriMessage => ({
      metadata: { name: `${name}-${randomUUID()}`, attempt: 0 },
      image: { image: busybox },
      command,
      logPath: `${name}/0.log`,
      labels: { 'io.kubernetes.container.name': name, 'io.kubernetes.pod.uid': uid },
      linux: {},
    });
    const windows: CallWindow[] = [];
    const call = async (label: string, method: string, request: CriMessage): Promise<CriMessage> => {
      // A pause between calls, so that what a daemon does just after answering still counts for its call.
      await sleep(150);
      windows.push({ label, start: Date.now() });
      return c.runtime(method, request, 60_000);
    };
    const create = async (label: string, config: CriMessage) => (await call(label, 'CreateContainer', { podSandboxId, sandboxConfig, config })).containerId as string;
    const status = async (id: string) => (await c.runtime('ContainerStatus', { containerId: id })).status as CriMessage;

    const trace = await traceExecs(daemon.pid);
    let execs;
    const ids: Record<string, string> = {};
    try {
      ids.graceful = await create('CreateContainer', container('graceful', GRACEFUL));
      await call('StartContainer', 'StartContainer', { containerId: ids.graceful });
      await call('ContainerStatus', 'ContainerStatus', { containerId: ids.graceful });
      await call('ListContainers', 'ListContainers', {});
      await call('ContainerStats', 'ContainerStats', { containerId: ids.graceful });
      await call('ExecSync', 'ExecSync', { containerId: ids.graceful, cmd: ['true'], timeout: 10 });
      await call('StopContainer (SIGTERM)', 'StopContainer', { containerId: ids.graceful, timeout: 10 });
      await call('RemoveContainer (stopped)', 'RemoveContainer', { containerId: ids.graceful });

      ids.killed = await create('CreateContainer (2)', container('killed', ['sleep', '3600']));
      await call('StartContainer (2)', 'StartContainer', { containerId: ids.killed });
      await call('StopContainer (timeout 0)', 'StopContainer', { containerId: ids.killed, timeout: 0 });
      const killed = await status(ids.killed);
      await call('RemoveContainer (2, stopped)', 'RemoveContainer', { containerId: ids.killed });

      ids.exits = await create('CreateContainer (3)', container('exits', ['sh', '-c', 'exit 3']));
      // Its init exits at once: the daemon releases it as it sees the exit, during the call or just after.
      await call('StartContainer (3), then its exit', 'StartContainer', { containerId: ids.exits });
      const exited = await waitFor(async () => {
        const s = await status(ids.exits!);
        return s.state === 'CONTAINER_EXITED' && s;
      }, { timeoutMs: 10_000, intervalMs: 50, what: 'container exiting by itself' });
      // EXITED is reported once the daemon has released the container (its runc delete is done).
      expect(existsSync(join(daemon.state, 'runc', ids.exits))).toBe(false);
      await call('RemoveContainer (exited by itself)', 'RemoveContainer', { containerId: ids.exits });

      ids.running = await create('CreateContainer (4)', container('running', ['sleep', '3600']));
      await call('StartContainer (4)', 'StartContainer', { containerId: ids.running });
      await call('RemoveContainer (running)', 'RemoveContainer', { containerId: ids.running });
      await sleep(300);
      windows.push({ label: 'end', start: Date.now() });

      expect(killed.exitCode).toBe(137);
      expect(exited.exitCode).toBe(3);
      expect(exited.reason).toBe('Error');
      expect(BigInt(exited.finishedAt)).toBeGreaterThan(BigInt(exited.startedAt));
    } finally {
      execs = await trace.stop();
      await c.runtime('StopPodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
      await c.runtime('RemovePodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
    }

    const spawned = Object.fromEntries([...execsPerCall(execs, windows)].map(([label, list]) => [
      label,
      list.map(execName).filter((n) => !WORKLOAD.has(n)).sort(),
    ]));
    const start = ['conmon', 'runc create', 'runc init'].sort(); // the daemon itself releases the init (no runc start)
    const stop = ['runc delete', 'runc kill'];
    expect(spawned).toEqual({
      CreateContainer: [],
      StartContainer: start,
      ContainerStatus: [],
      ListContainers: [],
      ContainerStats: [],
      // The execsync helper in place of `runc exec` and its `runc init` (no seccomp here: no filter copy).
      ExecSync: ['execsync'],
      'StopContainer (SIGTERM)': stop,
      'RemoveContainer (stopped)': [],
      'CreateContainer (2)': [],
      'StartContainer (2)': start,
      'StopContainer (timeout 0)': stop,
      'RemoveContainer (2, stopped)': [],
      'CreateContainer (3)': [],
      'StartContainer (3), then its exit': [...start, 'runc delete'].sort(),
      'RemoveContainer (exited by itself)': [],
      'CreateContainer (4)': [],
      'StartContainer (4)': start,
      'RemoveContainer (running)': stop,
      end: [],
    });
    // Nothing of them is left in runc's state dir.
    for (const id of Object.values(ids)) expect(existsSync(join(daemon.state, 'runc', id))).toBe(false);
  }, 180_000);

  it('escalates to SIGKILL after the timeout (runc kill twice, runc delete) and stops a container whose conmon was killed', async () => {
    const uid = randomUUID();
    const sandboxConfig: CriMessage = { metadata: { name: `procs-kill-${uid}`, uid, namespace: 'procs-kill', attempt: 0 }, linux: {} };
    const { podSandboxId } = await c.runtime('RunPodSandbox', { config: sandboxConfig }, 60_000);
    const run = async (name: string): Promise<string> => {
      const { containerId } = await c.runtime('CreateContainer', { podSandboxId, sandboxConfig, config: { metadata: { name: `${name}-${uid}` }, image: { image: busybox }, command: IGNORES_SIGTERM, linux: {} } });
      await c.runtime('StartContainer', { containerId }, 60_000);
      return containerId;
    };
    try {
      const stubborn = await run('stubborn');
      const orphan = await run('orphan');
      const conmonPid = Number.parseInt(readFileSync(join(daemon.root, 'containers', orphan, 'bundle', 'conmon.pid'), 'utf8'), 10);
      process.kill(conmonPid, 'SIGKILL');

      const trace = await traceExecs(daemon.pid);
      const windows: CallWindow[] = [];
      let execs;
      try {
        windows.push({ label: 'stubborn', start: Date.now() });
        await c.runtime('StopContainer', { containerId: stubborn, timeout: 1 }, 60_000);
        await sleep(150);
        windows.push({ label: 'orphan', start: Date.now() });
        await c.runtime('StopContainer', { containerId: orphan, timeout: 0 }, 60_000);
        await sleep(150);
        windows.push({ label: 'end', start: Date.now() });
      } finally {
        execs = await trace.stop();
      }
      const spawned = Object.fromEntries([...execsPerCall(execs, windows)].map(([label, list]) => [label, list.map(execName).filter((n) => !WORKLOAD.has(n)).sort()]));
      expect(spawned).toEqual({ stubborn: ['runc delete', 'runc kill', 'runc kill'], orphan: ['runc delete', 'runc kill'], end: [] });
      // The escalation's order: SIGTERM first, SIGKILL only after it (the signal is runc kill's last
      // argument). That the wait between them lasts the timeout is waitForExit's deadline
      // (container-exit-wait.test.ts, on a fake clock).
      const kills = execsPerCall(execs, windows).get('stubborn')!.filter((e) => execName(e) === 'runc kill').sort((x, y) => x.at - y.at);
      expect(kills.map((e) => e.argv.at(-1))).toEqual([expect.stringMatching(/^(SIGTERM|TERM|15)$/), expect.stringMatching(/^(SIGKILL|KILL|9)$/)]);

      const stubbornStatus = (await c.runtime('ContainerStatus', { containerId: stubborn })).status as CriMessage;
      expect(stubbornStatus).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error' });
      // Nobody recorded the orphan's exit status: the state says so.
      const orphanStatus = (await c.runtime('ContainerStatus', { containerId: orphan })).status as CriMessage;
      expect(orphanStatus).toMatchObject({ state: 'CONTAINER_EXITED', reason: 'Unknown' });
      for (const id of [stubborn, orphan]) await c.runtime('RemoveContainer', { containerId: id });
      for (const id of [stubborn, orphan]) expect(existsSync(join(daemon.state, 'runc', id))).toBe(false);
    } finally {
      await c.runtime('StopPodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
      await c.runtime('RemovePodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
    }
  }, 120_000);

  // containerd's shim kills what the init left in a shared PID namespace and deletes the task when
  // it sees the init exit; the daemon does as much from conmon's exit file, with no call asking.
  it('a container that exits by itself in a pod sharing its PID namespace: the daemon kills what its init left and removes its cgroup and runc state, with no call; StopContainer and RemoveContainer then spawn nothing', async () => {
    const uid = randomUUID();
    const sharedPid = { securityContext: { namespaceOptions: { network: 0, pid: 0, ipc: 0 } } };
    const sandboxConfig: CriMessage = {
      metadata: { name: `procs-exit-${uid}`, uid, namespace: 'procs-exit', attempt: 0 },
      labels: { 'io.kubernetes.pod.uid': uid },
      linux: sharedPid,
    };
    const { podSandboxId } = await c.runtime('RunPodSandbox', { config: sandboxConfig }, 60_000);
    try {
      const marker = `sleep ${3600 + Math.floor(Math.random() * 1000)}`;
      const { containerId } = await c.runtime('CreateContainer', {
        podSandboxId, sandboxConfig,
        config: { metadata: { name: `leaves-child-${uid}` }, image: { image: busybox }, command: ['sh', '-c', `${marker} & exit 3`], linux: sharedPid },
      });
      const ids = new Set([containerId]);
      const left = async () => (await listProcesses()).filter((p) => inCgroupOf(p, ids) && p.argv.join(' ') === marker);
      const trace = await traceExecs(daemon.pid);
      const windows: CallWindow[] = [];
      let execs;
      try {
        // The init exits at once, during the call or just after: the release falls in this window.
        windows.push({ label: 'StartContainer, then the exit (no call)', start: Date.now() });
        await c.runtime('StartContainer', { containerId }, 60_000);
        // No CRI call meanwhile: only the daemon's own watch can release it.
        await waitFor(async () => existsSync(join(daemon.state, 'exits', containerId)) && (await left()).length === 0 && !existsSync(join(daemon.state, 'runc', containerId)), { timeoutMs: 10_000, intervalMs: 50, what: 'the child the init left killed and runc state removed' });
        await waitFor(async () => (await findCgroupDirs(ids)).length === 0, { timeoutMs: 10_000, intervalMs: 50, what: 'the container cgroup removed' });
        await sleep(150);
        windows.push({ label: 'ContainerStatus', start: Date.now() });
        const status = (await c.runtime('ContainerStatus', { containerId })).status as CriMessage;
        expect(status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 3, reason: 'Error' });
        await sleep(150);
        windows.push({ label: 'StopContainer (exited)', start: Date.now() });
        await c.runtime('StopContainer', { containerId, timeout: 10 }, 60_000);
        await sleep(150);
        windows.push({ label: 'RemoveContainer (exited by itself)', start: Date.now() });
        await c.runtime('RemoveContainer', { containerId }, 60_000);
        await sleep(300);
        windows.push({ label: 'end', start: Date.now() });
      } finally {
        execs = await trace.stop();
      }
      const spawned = Object.fromEntries([...execsPerCall(execs, windows)].map(([label, list]) => [label, list.map(execName).filter((n) => !WORKLOAD.has(n)).sort()]));
      expect(spawned).toEqual({
        'StartContainer, then the exit (no call)': ['conmon', 'runc create', 'runc delete', 'runc init'],
        ContainerStatus: [],
        'StopContainer (exited)': [],
        'RemoveContainer (exited by itself)': [],
        end: [],
      });
      expect(await left()).toEqual([]);
    } finally {
      await c.runtime('StopPodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
      await c.runtime('RemovePodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
    }
  }, 120_000);
});
