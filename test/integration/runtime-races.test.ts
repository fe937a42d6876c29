// Races between lifecycle calls on one engine root, made deterministic: a
// ProcessRunner hook holds one call at a named process (conmon, runc) while the
// other runs, and a wrapper around the store's lock says when a call asks for a
// record's lock. Each test checks both what the calls answer and what is left.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKind } from '../../src/runtime/errors.js';
import type { StateStore, StoredObject } from '../../src/runtime/store/state-store.js';
import { anyAlive, BUSYBOX_REF, gate, kubeletShapedPod, leases, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const MiB = 1024 * 1024;

/** A pod as kubelet asks for it (uid-suffixed names, kubelet's labels). */
const kubeletPod = (name: string) => kubeletShapedPod(name, 'races-test');

function kubeletContainer(pod: ReturnType<typeof kubeletPod>, name: string, memoryLimitInBytes: number) {
  return {
    metadata: { name, attempt: 0 },
    image: { image: BUSYBOX_REF },
    command: ['sleep', '3600'],
    labels: { 'io.kubernetes.container.name': name, 'io.kubernetes.pod.name': pod.metadata.name, 'io.kubernetes.pod.namespace': 'races-test', 'io.kubernetes.pod.uid': pod.metadata.uid },
    annotations: { 'io.kubernetes.container.hash': 'a1b2c3d4', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' },
    linux: { resources: { cpuPeriod: 100000, cpuQuota: 50000, cpuShares: 512, memoryLimitInBytes, oomScoreAdj: 1000, hugepageLimits: [{ pageSize: '2MB', limit: 0 }, { pageSize: '1GB', limit: 0 }] } },
  };
}

/**
 * Holds the engine's next CreateContainer at its image lookup, after the pod's ready check and
 * before it writes anything; `reached` once it is there, `release()` lets it go on.
 */
function holdCreateAfterPodCheck(e: RuntimeFixture['engine']): { reached: Promise<void>; release: () => void; restore: () => void } {
  const reached = gate();
  const go = gate();
  const images = e.ctx.images;
  const resolveImage = images.resolveImage.bind(images);
  images.resolveImage = (async (name: string) => {
    reached.open();
    await go.promise;
    return resolveImage(name);
  }) as typeof images.resolveImage;
  return { reached: reached.promise, release: go.open, restore: () => void Reflect.deleteProperty(images, 'resolveImage') };
}

/**
 * Holds the engine's next StartContainer where conmon is about to run `runc create` (which reads
 * the spec); `reached` once it is there, `release()` lets it go on.
 */
function holdStartAtConmon(e: RuntimeFixture['engine']): { reached: Promise<void>; release: () => void; restore: () => void } {
  const reached = gate();
  const go = gate();
  const restore = e.ctx.runner.addHook(async (cmd) => {
    if (basename(cmd) !== 'conmon') return;
    reached.open();
    await go.promise;
  });
  return { reached: reached.promise, release: go.open, restore };
}

/**
 * Holds the engine's next RunPodSandbox where it is about to `runc run` its pause (netns pinned,
 * CNI lease taken, shm and rootfs mounted); `reached` gives the pod's ID (runc's last argument).
 */
function holdRunAtPause(e: RuntimeFixture['engine']): { reached: Promise<string>; release: () => void; restore: () => void } {
  let reachedWith!: (id: string) => void;
  const reached = new Promise<string>((r) => (reachedWith = r));
  const go = gate();
  const restore = e.ctx.runner.addHook(async (cmd, args) => {
    if (basename(cmd) !== 'runc' || !args.includes('run')) return;
    reachedWith(args[args.length - 1]!);
    await go.promise;
  });
  return { reached, release: go.open, restore };
}

/** PIDs of processes whose command line names `id` (conmon, runc, a pause run by ID). */
function processesNaming(id: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(id)) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Resolves once a call asks for `id`'s exclusive lock in `store`: as far as it gets while another call holds the lock. */
function lockAsked<T extends StoredObject>(store: StateStore<T>, id: string): { asked: Promise<void>; restore: () => void } {
  const asked = gate();
  const withLock = store.withLock.bind(store);
  store.withLock = ((lockId: string, fn: () => Promise<unknown>) => {
    if (lockId === id) asked.open();
    return withLock(lockId, fn);
  }) as typeof store.withLock;
  return { asked: asked.promise, restore: () => void Reflect.deleteProperty(store, 'withLock') };
}

describe('runtime: races between lifecycle calls', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('8 identical RunPodSandbox at once: one pod, 7 AlreadyExists, and nothing of theirs left', async () => {
    const e = fx.engine;
    const sandboxesBefore = await readdir(join(fx.options.root, 'sandboxes'));
    const netnsBefore = await readdir(join(fx.options.state, 'netns'));
    const pod = kubeletPod('same-8');
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => e.runPodSandbox({ config: structuredClone(pod) })));
    const ok = results.filter((r): r is PromiseFulfilledResult<{ podSandboxId: string }> => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(failed.map((r) => isKind(r.reason, 'already-exists') ? 'already-exists' : String(r.reason))).toEqual(Array(7).fill('already-exists'));
    const { podSandboxId } = ok[0]!.value;
    expect((await e.listPodSandbox({})).items.filter((p) => p.metadata?.name === pod.metadata.name).map((p) => p.id)).toEqual([podSandboxId]);
    await e.stopPodSandbox({ podSandboxId });
    await e.removePodSandbox({ podSandboxId });
    expect(await readdir(join(fx.options.root, 'sandboxes'))).toEqual(sandboxesBefore);
    expect(await readdir(join(fx.options.state, 'netns'))).toEqual(netnsBefore);
  }, 120_000);

  it('UpdateContainerResources of a created container waits for a StartContainer in progress, and the started container gets the update', async () => {
    const e = fx.engine;
    const pod = kubeletPod('upd-start');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const unhooks: Array<() => void> = [];
    const start = holdStartAtConmon(e);
    unhooks.push(start.restore);
    let starting: Promise<unknown> = Promise.resolve();
    try {
      const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: kubeletContainer(pod, 'app', 64 * MiB) });
      const specPath = join(fx.options.root, 'containers', containerId, 'bundle', 'config.json');
      const specBefore = readFileSync(specPath, 'utf8');
      starting = e.startContainer({ containerId });
      await start.reached;
      // From here on, the update asking for the container's lock is the signal that it got as far as
      // it can while the start runs.
      const { asked, restore } = lockAsked(e.ctx.containers, containerId);
      unhooks.push(restore);
      const updating = e.updateContainerResources({ containerId, linux: { memoryLimitInBytes: 128 * MiB, cpuPeriod: 100000, cpuQuota: 50000, cpuShares: 512, oomScoreAdj: 1000 } });
      const settled = updating.then(() => 'answered', (err: Error) => `failed: ${err.message}`);
      expect(await Promise.race([asked.then(() => 'asked for the lock'), settled])).toBe('asked for the lock');
      // Nothing touched the spec `runc create` is about to read.
      expect(readFileSync(specPath, 'utf8')).toBe(specBefore);
      start.release();
      await starting;
      expect(await settled).toBe('answered');
      // The acknowledged update is what the running container has, in its cgroup and its status.
      const cgroup = join('/sys/fs/cgroup/memory', fx.options.cgroupParent!, containerId, 'memory.limit_in_bytes');
      expect(readFileSync(cgroup, 'utf8').trim()).toBe(String(128 * MiB));
      const { status } = await e.containerStatus({ containerId });
      expect(status?.state).toBe('CONTAINER_RUNNING');
      expect(status?.resources?.linux?.memoryLimitInBytes).toBe(String(128 * MiB));
    } finally {
      start.release();
      await starting.catch(() => undefined);
      for (const unhook of unhooks) unhook();
      await e.removePodSandbox({ podSandboxId });
    }
  }, 60_000);

  /** What a failed CreateContainer must not leave: records, names, lock files, rootfs mounts. */
  async function expectNoContainerLeft(): Promise<void> {
    expect(await readdir(join(fx.options.root, 'containers'))).toEqual([]);
    expect(await readdir(join(fx.options.root, 'names', 'containers'))).toEqual([]);
    expect(await readdir(join(fx.options.root, 'locks', 'containers'))).toEqual([]);
    // Nor a lock file for a pod that was removed meanwhile (only live pods keep theirs).
    const pods = (await fx.engine.listPodSandbox({})).items.map((p) => `${p.id}.lock`);
    expect((await readdir(join(fx.options.root, 'locks', 'sandboxes'))).filter((l) => !pods.includes(l))).toEqual([]);
    expect((await mountsUnder(fx.dir)).filter((m) => m.includes('/containers'))).toEqual([]);
  }

  it('CreateContainer fails with NotFound and leaves nothing when another process removed the pod after its ready check', async () => {
    const e = fx.engine;
    const pod = kubeletPod('rm-during-create');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const hold = holdCreateAfterPodCheck(e);
    let creating: Promise<unknown> = Promise.resolve();
    try {
      creating = e.createContainer({ podSandboxId, sandboxConfig: pod, config: kubeletContainer(pod, 'app', 64 * MiB) });
      const outcome = creating.then(() => 'created', (err: Error & { kind?: string }) => `${err.kind}: ${err.message}`);
      await hold.reached;
      // Another CLI process on the same root removes the pod meanwhile.
      const other = await fx.reopen();
      await other.removePodSandbox({ podSandboxId });
      hold.release();
      expect(await outcome).toMatch(/^not-found: pod sandbox [0-9a-f]{64} was removed while container app was being created$/);
      await expectNoContainerLeft();
      expect((await other.listContainers({})).containers).toEqual([]);
    } finally {
      hold.release();
      hold.restore();
      await creating.catch(() => undefined);
      await e.removePodSandbox({ podSandboxId }).catch(() => undefined);
    }
  }, 60_000);

  /**
   * The pod calls that list the pod's containers under its lock, against a CreateContainer's commit:
   * what each makes of the create that comes too late, and of the container committed in time.
   */
  const podTeardowns = [
    {
      call: 'RemovePodSandbox',
      lists: 'removeAllInPod',
      code: 'NotFound',
      late: /^not-found: pod sandbox [0-9a-f]{64} was removed while container app was being created$/,
      does: 'removes',
      run: (e: RuntimeFixture['engine'], podSandboxId: string) => e.removePodSandbox({ podSandboxId }),
      /** The pod is gone, and the container committed in time with it. */
      after: async (e: RuntimeFixture['engine'], podSandboxId: string) => {
        expect((await e.listPodSandbox({})).items.map((p) => p.id)).not.toContain(podSandboxId);
        expect((await e.listContainers({})).containers).toEqual([]);
      },
    },
    {
      call: 'StopPodSandbox',
      lists: 'stopAllInPod',
      code: 'FailedPrecondition',
      // As the ready check up front answers: the pod is not ready (any more).
      late: /^failed-precondition: pod sandbox [0-9a-f]{64} was stopped while container app was being created$/,
      does: 'stops',
      run: (e: RuntimeFixture['engine'], podSandboxId: string) => e.stopPodSandbox({ podSandboxId }),
      /** The pod is NOTREADY, and no container of it is left CREATED (startable): the stop saw the one committed in time. */
      after: async (e: RuntimeFixture['engine'], podSandboxId: string, containerId?: string) => {
        expect((await e.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_NOTREADY');
        if (!containerId) return;
        expect((await e.containerStatus({ containerId })).status?.state).toBe('CONTAINER_EXITED');
        await expect(e.startContainer({ containerId })).rejects.toThrow(/not CONTAINER_CREATED/);
        await e.removePodSandbox({ podSandboxId });
      },
    },
  ] as const;

  for (const t of podTeardowns) {
    it(`${t.call} makes a CreateContainer that reaches its commit meanwhile fail with ${t.code}, leaving nothing`, async () => {
      const e = fx.engine;
      const pod = kubeletPod(`create-during-${t.call.toLowerCase()}`);
      const { podSandboxId } = await e.runPodSandbox({ config: pod });
      const hold = holdCreateAfterPodCheck(e);
      // The teardown is held once it has dealt with the containers it listed, before the pod itself.
      const listed = gate();
      const goOn = gate();
      const containers = e.container;
      const listAndAct = containers[t.lists].bind(containers);
      containers[t.lists] = async (id: string) => {
        await listAndAct(id);
        listed.open();
        await goOn.promise;
      };
      // The create asking for the pod's lock at its commit.
      const atCommit = gate();
      const sandboxes = e.ctx.sandboxes;
      const withSharedLock = sandboxes.withSharedLock.bind(sandboxes);
      sandboxes.withSharedLock = ((id: string, fn: () => Promise<unknown>) => {
        if (id === podSandboxId) atCommit.open();
        return withSharedLock(id, fn);
      }) as typeof sandboxes.withSharedLock;
      let creating: Promise<unknown> = Promise.resolve();
      let tearing: Promise<unknown> = Promise.resolve();
      try {
        creating = e.createContainer({ podSandboxId, sandboxConfig: pod, config: kubeletContainer(pod, 'app', 64 * MiB) });
        const outcome = creating.then(() => 'created', (err: Error & { kind?: string }) => `${err.kind}: ${err.message}`);
        await hold.reached;
        tearing = t.run(e, podSandboxId);
        await listed.promise;
        // The create goes on to its commit while the teardown is between its container list and the pod.
        hold.release();
        expect(await Promise.race([atCommit.promise.then(() => 'at its commit'), outcome])).toBe('at its commit');
        goOn.open();
        await tearing;
        expect(await outcome).toMatch(t.late);
        await t.after(e, podSandboxId);
        await expectNoContainerLeft();
      } finally {
        hold.release();
        hold.restore();
        goOn.open();
        Reflect.deleteProperty(containers, t.lists);
        Reflect.deleteProperty(sandboxes, 'withSharedLock');
        await creating.catch(() => undefined);
        await tearing.catch(() => undefined);
        await e.removePodSandbox({ podSandboxId }).catch(() => undefined);
      }
    }, 60_000);

    it(`${t.call} waits for a CreateContainer committing into the pod, then ${t.does} that container too`, async () => {
      const e = fx.engine;
      const pod = kubeletPod(`${t.call.toLowerCase()}-during-commit`);
      const { podSandboxId } = await e.runPodSandbox({ config: pod });
      // The create is held inside its commit (the pod's lock held), at the rootfs's persist.
      const inCommit = gate();
      const finish = gate();
      const snapshots = e.ctx.snapshots;
      const persist = snapshots.persist.bind(snapshots);
      snapshots.persist = (async (key: string) => {
        inCommit.open();
        await finish.promise;
        return persist(key);
      }) as typeof snapshots.persist;
      // The teardown asking for the pod's lock.
      const { asked, restore } = lockAsked(e.ctx.sandboxes, podSandboxId);
      let creating: Promise<unknown> = Promise.resolve();
      let tearing: Promise<unknown> = Promise.resolve();
      try {
        creating = e.createContainer({ podSandboxId, sandboxConfig: pod, config: kubeletContainer(pod, 'app', 64 * MiB) });
        await inCommit.promise;
        tearing = t.run(e, podSandboxId);
        await asked;
        finish.open();
        const { containerId } = (await creating) as { containerId: string };
        expect(containerId).toMatch(/^[0-9a-f]{64}$/);
        await tearing;
        await t.after(e, podSandboxId, containerId);
        await expectNoContainerLeft();
      } finally {
        finish.open();
        Reflect.deleteProperty(snapshots, 'persist');
        restore();
        await creating.catch(() => undefined);
        await tearing.catch(() => undefined);
        await e.removePodSandbox({ podSandboxId }).catch(() => undefined);
      }
    }, 60_000);
  }

  it('StopPodSandbox waits for a StartContainer in progress, then stops the container it started: no process runs behind an EXITED record', async () => {
    const e = fx.engine;
    // As kubelet asks: each container in a PID namespace of its own (so the pod has no pause whose
    // end would take the container's processes with it).
    const ownPid = { securityContext: { namespaceOptions: { network: 'POD' as const, pid: 'CONTAINER' as const, ipc: 'POD' as const } } };
    const pod = { ...kubeletPod('stopp-during-start'), linux: ownPid };
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const unhooks: Array<() => void> = [];
    const start = holdStartAtConmon(e);
    unhooks.push(start.restore);
    let starting: Promise<unknown> = Promise.resolve();
    let stopping: Promise<unknown> = Promise.resolve();
    try {
      const app = kubeletContainer(pod, 'app', 64 * MiB);
      const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { ...app, linux: { ...app.linux, ...ownPid } } });
      starting = e.startContainer({ containerId });
      await start.reached;
      // The stop asking for the container's lock: as far as it can go while the start runs.
      const { asked, restore } = lockAsked(e.ctx.containers, containerId);
      unhooks.push(restore);
      stopping = e.stopPodSandbox({ podSandboxId });
      const settled = stopping.then(() => 'answered', (err: Error) => `failed: ${err.message}`);
      expect(await Promise.race([asked.then(() => 'asked for the lock'), settled])).toBe('asked for the lock');
      start.release();
      await starting;
      expect(await settled).toBe('answered');
      const { status } = await e.containerStatus({ containerId });
      expect(status?.state).toBe('CONTAINER_EXITED');
      // What the record says holds: nothing runs in the container's cgroup, and runc has no container.
      const procs = join('/sys/fs/cgroup/memory', fx.options.cgroupParent!, containerId, 'cgroup.procs');
      expect(existsSync(procs) ? readFileSync(procs, 'utf8').trim() : '').toBe('');
      expect(existsSync(join(fx.options.state, 'runc', containerId))).toBe(false);
    } finally {
      start.release();
      await starting.catch(() => undefined);
      await stopping.catch(() => undefined);
      for (const unhook of unhooks) unhook();
      await e.removePodSandbox({ podSandboxId });
    }
  }, 60_000);

  it('StopPodSandbox and RemovePodSandbox racing a RunPodSandbox in progress: the pod ends whole or gone, and nothing is left after a final Stop+Remove', async () => {
    const e = fx.engine;
    const root = fx.options.root;
    const sandboxesBefore = await readdir(join(root, 'sandboxes'));
    const netnsBefore = await readdir(join(fx.options.state, 'netns'));
    const leasesBefore = await leases(fx.net);
    const mountsBefore = await mountsUnder(fx.dir);
    // A pod with a shared PID namespace: it has a pause, run by runc.
    const pod = kubeletPod('stop-rm-during-run');
    const hold = holdRunAtPause(e);
    let running: Promise<unknown> = Promise.resolve();
    let podSandboxId = '';
    const pids: number[] = [];
    try {
      running = e.runPodSandbox({ config: pod });
      const ran = running.then((r) => `ran ${(r as { podSandboxId: string }).podSandboxId}`, (err: Error & { kind?: string }) => `${err.kind}: ${err.message}`);
      podSandboxId = await Promise.race([hold.reached, ran.then((r) => `run answered first: ${r}`)]);
      expect(podSandboxId).toMatch(/^[0-9a-f]{64}$/);
      expect(await readdir(join(root, 'sandboxes'))).toContain(podSandboxId);
      // Held with its netns, lease and mounts taken: Stop and Remove at once.
      const answers = (calls: Array<Promise<unknown>>) =>
        Promise.all(calls.map((c) => c.then(() => 'ok', (err: Error & { kind?: string }) => `${err.kind}: ${err.message}`)));
      const early = await answers([e.stopPodSandbox({ podSandboxId }), e.removePodSandbox({ podSandboxId })]);
      for (const a of early) expect(a).toMatch(/^(ok|failed-precondition: pod sandbox [0-9a-f]{64} is still being created \(by process \d+\))$/);
      // Again at the moment the run goes on, racing its last steps (pause start, READY write).
      hold.release();
      const late = await answers([e.stopPodSandbox({ podSandboxId }), e.removePodSandbox({ podSandboxId }), running]);
      for (const a of late.slice(0, 2)) expect(a).toMatch(/^(ok|failed-precondition: pod sandbox [0-9a-f]{64} is still being created \(by process \d+\))$/);
      const runOutcome = await ran;

      // Consistent: listed with the state its status says, or gone from both.
      const listed = (await e.listPodSandbox({})).items.filter((p) => p.id === podSandboxId);
      const status = await e.podSandboxStatus({ podSandboxId }).then((s) => s.status, (err: Error & { kind?: string }) => {
        if (err.kind !== 'not-found') throw err;
        return undefined;
      });
      // A run that failed rolled back all it made.
      if (!runOutcome.startsWith('ran ')) expect(listed).toEqual([]);
      if (listed.length === 0) {
        expect(status).toBeUndefined();
        expect(await readdir(join(root, 'sandboxes'))).not.toContain(podSandboxId);
      } else {
        expect(['SANDBOX_READY', 'SANDBOX_NOTREADY']).toContain(listed[0]!.state);
        expect(status?.state).toBe(listed[0]!.state);
        const record = await e.ctx.sandboxes.get(podSandboxId);
        if (record?.pid) pids.push(record.pid);
        // A READY pod has its pause running.
        if (listed[0]!.state === 'SANDBOX_READY') expect(await anyAlive(pids)).toBe(true);
      }
      pids.push(...processesNaming(podSandboxId));

      await e.stopPodSandbox({ podSandboxId });
      await e.removePodSandbox({ podSandboxId });
      await expect(e.podSandboxStatus({ podSandboxId })).rejects.toThrow(/not found/);
      expect(await anyAlive(pids)).toBe(false);
      expect(processesNaming(podSandboxId)).toEqual([]);
      expect(await readdir(join(root, 'sandboxes'))).toEqual(sandboxesBefore);
      expect(await readdir(join(fx.options.state, 'netns'))).toEqual(netnsBefore);
      expect(await leases(fx.net)).toEqual(leasesBefore);
      expect(await mountsUnder(fx.dir)).toEqual(mountsBefore);
      expect((await readdir(join(root, 'locks', 'sandboxes'))).filter((l) => l.startsWith(podSandboxId))).toEqual([]);
    } finally {
      hold.release();
      hold.restore();
      await running.catch(() => undefined);
      if (podSandboxId) {
        await e.stopPodSandbox({ podSandboxId }).catch(() => undefined);
        await e.removePodSandbox({ podSandboxId }).catch(() => undefined);
      }
    }
  }, 60_000);
});
