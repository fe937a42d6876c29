// A container whose init exits by itself is released as a stopped one is (containerd's shim kills
// what the init left and deletes the task when it sees the exit): `runc delete --force`, which in
// a pod sharing its PID namespace kills what the init left running in the container's cgroup, and
// the rootfs unmount. On the embedded engine (no exit watch: that is the daemon's), the next call
// that reads the container does it, under the container's lock; StopContainer of an exited
// container releases what is left; a StopContainer or RemoveContainer that comes while the release
// runs waits for it and spawns nothing more. Held with a ProcessRunner hook, no sleeps.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainerRecord } from '../../src/runtime/container/container-record.js';
import { waitFor } from '../rig/wait.js';
import { BUSYBOX_REF, gate, kubeletShapedPod, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const MiB = 1024 * 1024;
/** A pod that shares its PID namespace (kubelet's shareProcessNamespace): the container has no PID namespace of its own. */
const SHARED_PID = { securityContext: { namespaceOptions: { network: 'POD' as const, pid: 'POD' as const, ipc: 'POD' as const } } };

const sharedPidPod = (name: string) => kubeletShapedPod(name, 'exit-release', { linux: SHARED_PID });

/** Starts a child that outlives the init (`sleep N & exit 3`); N is unique, so the child is found by its command line too. */
function leavesChild(pod: ReturnType<typeof sharedPidPod>, marker: string) {
  return {
    metadata: { name: `leaves-child-${randomUUID()}`, attempt: 0 },
    image: { image: BUSYBOX_REF },
    command: ['sh', '-c', `${marker} & exit 3`],
    labels: { 'io.kubernetes.container.name': 'leaves-child', 'io.kubernetes.pod.name': pod.metadata.name, 'io.kubernetes.pod.namespace': 'exit-release', 'io.kubernetes.pod.uid': pod.metadata.uid },
    annotations: { 'io.kubernetes.container.hash': 'c0ffee42', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' },
    linux: {
      ...SHARED_PID,
      resources: { cpuPeriod: 100000, cpuQuota: 20000, cpuShares: 102, memoryLimitInBytes: 32 * MiB, oomScoreAdj: 1000, hugepageLimits: [{ pageSize: '2MB', limit: 0 }, { pageSize: '1GB', limit: 0 }] },
    },
  };
}

describe('runtime: a container that exited by itself is released like a stopped one', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  const cgroupProcs = (id: string) => join('/sys/fs/cgroup/memory', fx.options.cgroupParent!, id, 'cgroup.procs');
  /** PIDs in the container's cgroup ([] once the cgroup is gone). */
  const inCgroup = (id: string) => (existsSync(cgroupProcs(id)) ? readFileSync(cgroupProcs(id), 'utf8').split('\n').filter(Boolean) : []);
  const cmdline = (pid: string) => (existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') : '');
  const runcState = (id: string) => join(fx.options.state, 'runc', id);
  const rootfsMounted = async (id: string) => (await mountsUnder(fx.dir)).some((m) => m.endsWith(`/${id}`) && m.includes('rootfs'));

  /** Runs a container that leaves its child behind, and waits (bounded) for conmon's exit file: nothing has read the container since. */
  async function exitedLeavingChild(): Promise<{ podSandboxId: string; containerId: string; child: string }> {
    const e = fx.engine;
    const pod = sharedPidPod('exit-release');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const marker = `sleep ${3600 + Math.floor(Math.random() * 1000)}`;
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: leavesChild(pod, marker) });
    await e.startContainer({ containerId });
    await waitFor(async () => existsSync(join(fx.options.state, 'exits', containerId)), { timeoutMs: 10_000, intervalMs: 20, what: 'the init exiting' });
    const pids = inCgroup(containerId);
    expect(pids.map(cmdline)).toEqual([marker]);
    return { podSandboxId, containerId, child: pids[0]! };
  }

  /** Every runc process the engine spawns from now on, by subcommand, until restore(). */
  function recordRunc(): { seen: string[]; restore: () => void } {
    const seen: string[] = [];
    const restore = fx.engine.ctx.runner.addHook(async (cmd, args) => {
      if (basename(cmd) === 'runc') seen.push(args.find((a) => ['create', 'start', 'kill', 'delete', 'state', 'exec', 'run', 'ps'].includes(a)) ?? args.join(' '));
    });
    return { seen, restore };
  }

  it('the next read of its status kills what its init left, removes its cgroup and runc state and unmounts its rootfs; RemoveContainer then spawns nothing', async () => {
    const e = fx.engine;
    const { podSandboxId, containerId, child } = await exitedLeavingChild();
    const runc = recordRunc();
    try {
      const { status } = await e.containerStatus({ containerId });
      expect(status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 3, reason: 'Error' });
      // The status says EXITED only once the release is done.
      expect(runc.seen).toEqual(['delete']);
      expect(existsSync(`/proc/${child}`)).toBe(false);
      expect(existsSync(cgroupProcs(containerId))).toBe(false);
      expect(existsSync(runcState(containerId))).toBe(false);
      expect(await rootfsMounted(containerId)).toBe(false);
      // StopContainer and RemoveContainer of a released container: no process.
      await e.stopContainer({ containerId, timeout: 10 });
      await e.removeContainer({ containerId });
      expect(runc.seen).toEqual(['delete']);
      expect(existsSync(join(fx.options.root, 'containers', containerId))).toBe(false);
    } finally {
      runc.restore();
      await e.removePodSandbox({ podSandboxId });
    }
  }, 60_000);

  it('StopContainer of an exited container whose release never ran (a record written before exits were released) kills what its init left', async () => {
    const e = fx.engine;
    const { podSandboxId, containerId, child } = await exitedLeavingChild();
    try {
      // As an older engine recorded the exit: EXITED, with runc's container and the child still there.
      await e.ctx.containers.update(containerId, (r: ContainerRecord) => ({ ...r, state: 'CONTAINER_EXITED', exitCode: 3, reason: 'Error', finishedAt: r.startedAt }));
      expect(existsSync(`/proc/${child}`)).toBe(true);
      const runc = recordRunc();
      try {
        await e.stopContainer({ containerId, timeout: 10 });
      } finally {
        runc.restore();
      }
      expect(runc.seen).toEqual(['delete']);
      expect(existsSync(`/proc/${child}`)).toBe(false);
      expect(existsSync(cgroupProcs(containerId))).toBe(false);
      expect(existsSync(runcState(containerId))).toBe(false);
      expect(await rootfsMounted(containerId)).toBe(false);
      const { status } = await e.containerStatus({ containerId });
      expect(status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 3 });
    } finally {
      await e.removePodSandbox({ podSandboxId });
    }
  }, 60_000);

  it('StopContainer and RemoveContainer that come while the release runs wait for it, spawn nothing more, and leave nothing', async () => {
    const e = fx.engine;
    const { podSandboxId, containerId, child } = await exitedLeavingChild();
    const reached = gate();
    const go = gate();
    const runc = recordRunc();
    // Holds the release at its `runc delete` (the container's lock held).
    const unhookDelete = e.ctx.runner.addHook(async (cmd, args) => {
      if (basename(cmd) !== 'runc' || !args.includes('delete') || !args.includes(containerId)) return;
      reached.open();
      await go.promise;
    });
    // Says when a call asks for the container's lock: as far as it gets while the release holds it.
    const store = e.ctx.containers;
    const asked: string[] = [];
    const withLockIfPresent = store.withLockIfPresent.bind(store);
    store.withLockIfPresent = ((id: string, fn: () => Promise<unknown>) => {
      if (id === containerId) asked.push(new Error().stack ?? '');
      return withLockIfPresent(id, fn);
    }) as typeof store.withLockIfPresent;
    let reading: Promise<unknown> = Promise.resolve();
    let stopping: Promise<unknown> = Promise.resolve();
    let removing: Promise<unknown> = Promise.resolve();
    try {
      reading = e.containerStatus({ containerId });
      const answered = reading.then(() => 'the status answered without a release', (err: Error) => `the status failed: ${err.message}`);
      expect(await Promise.race([reached.promise.then(() => 'release at runc delete'), answered])).toBe('release at runc delete');
      expect(asked).toHaveLength(1);
      const stopSettled = (stopping = e.stopContainer({ containerId, timeout: 10 })).then(() => 'answered', (err: Error) => `failed: ${err.message}`);
      const removeSettled = (removing = e.removeContainer({ containerId })).then(() => 'answered', (err: Error) => `failed: ${err.message}`);
      await waitFor(async () => asked.length >= 3, { timeoutMs: 10_000, intervalMs: 10, what: 'StopContainer and RemoveContainer asking for the lock' });
      // Both wait: the release holds the lock, and the child still runs (its delete is held).
      const pending = Symbol('pending');
      expect(await Promise.race([stopSettled, removeSettled, Promise.resolve(pending)])).toBe(pending);
      expect(existsSync(`/proc/${child}`)).toBe(true);
      go.open();
      const { status } = (await reading) as Awaited<ReturnType<typeof e.containerStatus>>;
      expect(status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 3, reason: 'Error' });
      expect(await stopSettled).toBe('answered');
      expect(await removeSettled).toBe('answered');
      expect(runc.seen).toEqual(['delete']);
      expect(existsSync(`/proc/${child}`)).toBe(false);
      expect(existsSync(cgroupProcs(containerId))).toBe(false);
      expect(existsSync(runcState(containerId))).toBe(false);
      expect(existsSync(join(fx.options.root, 'containers', containerId))).toBe(false);
      // No lock file is made again for the removed container by a late caller.
      expect(readdirSync(join(fx.options.root, 'locks', 'containers')).filter((l) => l.startsWith(containerId))).toEqual([]);
      expect(await rootfsMounted(containerId)).toBe(false);
    } finally {
      go.open();
      await Promise.allSettled([reading, stopping, removing]);
      Reflect.deleteProperty(store, 'withLockIfPresent');
      unhookDelete();
      runc.restore();
      await e.removePodSandbox({ podSandboxId });
    }
  }, 60_000);
});
