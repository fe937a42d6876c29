// How RunPodSandbox and StartContainer use the file system, on the embedded engine with real
// overlayfs, CNI, cgroups and kubelet-shaped requests. With N pods started at once, libuv's four
// pool threads are busy with the fsyncs of every pod's records, and each other request waits its
// turn in the same queue: RunPodSandbox made 30 such round trips one after another (the pod's
// /dev/shm, its cgroup, CNI plugin look-ups, its hosts/hostname/resolv.conf), StartContainer one.
// Both now send the pool only the fsyncs that make their record durable (and the pod cgroup's
// mkdirs, which wait on the kernel's cgroup mutex rather than the disk); the CNI result cache is
// written as libcni writes it, without fsyncs (a DEL without it falls back to the current config).
import { createHook } from 'node:async_hooks';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainTrash } from '../../src/runtime/store/trash.js';
import { kubeletContainer, kubeletPod, kubepodsLevelsPresent, removeKubeletPodCgroup, type KubeletPod } from '../rig/kubelet-shapes.js';
import { BUSYBOX_REF, leases, openFixture, type RuntimeFixture } from './runtime-fixture.js';

/**
 * Async file system requests (thread-pool round trips) made while `fn` runs: their resource type
 * and the engine modules on the stack that made them.
 */
async function threadPoolRequests(fn: () => Promise<unknown>): Promise<Array<{ type: string; from: string }>> {
  const seen: Array<{ type: string; from: string }> = [];
  const hook = createHook({
    init(_id, type) {
      if (!type.startsWith('FSREQ') && !type.startsWith('FILEHANDLE')) return;
      const frames = (new Error().stack ?? '').split('\n').map((l) => /\/src\/runtime\/([\w/-]+\.ts)/.exec(l)?.[1]).filter(Boolean);
      seen.push({ type, from: [...new Set(frames)].join(' < ') });
    },
  });
  hook.enable();
  try {
    await fn();
  } finally {
    hook.disable();
  }
  return seen;
}

describe('runtime: file system work of RunPodSandbox and StartContainer', () => {
  let fx: RuntimeFixture;
  let warmPodId = '';
  const pods: KubeletPod[] = [];
  const kubepodsBefore = kubepodsLevelsPresent();
  const newPod = (app: string) => {
    const pod = kubeletPod({ app, node: 'isulats-node-7c8d9e0f1a2b', logRoot: join(fx.dir, 'var-log-pods') });
    pods.push(pod);
    return pod;
  };

  beforeAll(async () => {
    fx = await openFixture();
    // First use loads modules and fills caches (image records, host facts): not what is measured.
    const pod = newPod('fs-calls-warm');
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: pod.config });
    warmPodId = podSandboxId;
    const { containerId } = await fx.engine.createContainer({ podSandboxId, config: kubeletContainer(pod, { name: 'warm-up', image: BUSYBOX_REF, command: ['sleep', '3600'] }), sandboxConfig: pod.config });
    await fx.engine.startContainer({ containerId });
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
    for (const pod of pods) await removeKubeletPodCgroup(pod, kubepodsBefore);
  }, 120_000);

  it('RunPodSandbox waits on the thread pool only for the two fsyncs that make its record durable', async () => {
    await drainTrash();
    const pod = newPod('fs-calls-web');
    let podSandboxId = '';
    const requests = await threadPoolRequests(async () => {
      ({ podSandboxId } = await fx.engine.runPodSandbox({ config: pod.config }));
    });
    const podDir = join(fx.options.root, 'sandboxes', podSandboxId);
    // The pod cgroup's mkdirs stay on the pool (a cgroupfs mkdir waits on the kernel's cgroup
    // mutex, not for the event loop to hold), made at once while pinns and CNI run.
    const cgroupRequests = requests.filter((r) => r.from.startsWith('sandbox/pod-cgroup.ts'));
    expect(cgroupRequests.length).toBeGreaterThan(0);
    expect(cgroupRequests.length).toBeLessThanOrEqual(1 + readdirSync('/sys/fs/cgroup').length);
    // Besides those: the READY record's file and directory (fsyncs, from the state store), nothing else.
    const others = requests.filter((r) => !cgroupRequests.includes(r));
    expect(others.map((r) => r.type)).toEqual(['FSREQCALLBACK', 'FSREQCALLBACK']);
    // The file's fsync is made with the state store on the stack; the directory's, after an await.
    expect(others.map((r) => r.from.split(' < ').slice(0, 2).join(' < '))).toEqual(['store/atomic-file.ts < store/state-store.ts', 'store/atomic-file.ts']);
    // Everything the skipped round trips made is there: the pod's files, /dev/shm, cgroup, network.
    const { status } = await fx.engine.podSandboxStatus({ podSandboxId });
    expect(status?.state).toBe('SANDBOX_READY');
    expect(status?.network?.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(readFileSync(join(podDir, 'hostname'), 'utf8')).toBe(`${pod.config.hostname || pod.config.metadata.name}\n`);
    expect(readFileSync(join(podDir, 'hosts'), 'utf8')).toContain(`${status!.network!.ip}\t`);
    expect(readFileSync(join(podDir, 'resolv.conf'), 'utf8')).toContain('nameserver ');
    expect(existsSync(join('/sys/fs/cgroup/memory', pod.cgroupParent))).toBe(true);
    const cache = readdirSync(join(fx.options.root, 'cni', 'results')).filter((n) => n.includes(podSandboxId));
    expect(cache).toHaveLength(1);
  });

  it('a pod whose CNI result cache was lost (power loss before writeback) is still stopped and its lease released', async () => {
    const pod = newPod('fs-calls-lost-cache');
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: pod.config });
    const before = await leases(fx.net);
    const resultsDir = join(fx.options.root, 'cni', 'results');
    const cache = readdirSync(resultsDir).filter((n) => n.includes(podSandboxId));
    expect(cache).toHaveLength(1);
    // What a file renamed into place but never written back looks like after the crash.
    writeFileSync(join(resultsDir, cache[0]!), '');
    await fx.engine.stopPodSandbox({ podSandboxId });
    expect((await leases(fx.net)).length).toBe(before.length - 1);
    expect(readdirSync(resultsDir).filter((n) => n.includes(podSandboxId))).toEqual([]);
    await fx.engine.removePodSandbox({ podSandboxId });
  });

  it('StartContainer waits on the thread pool only for the two fsyncs that make its record durable', async () => {
    const pod = pods[0]!;
    const { containerId } = await fx.engine.createContainer({ podSandboxId: warmPodId, config: kubeletContainer(pod, { name: 'app', image: BUSYBOX_REF, command: ['sleep', '3600'] }), sandboxConfig: pod.config });
    await drainTrash();
    const requests = await threadPoolRequests(() => fx.engine.startContainer({ containerId }));
    expect(requests.map((r) => r.type)).toEqual(['FSREQCALLBACK', 'FSREQCALLBACK']);
    // The file's fsync is made with the state store on the stack; the directory's, after an await.
    expect(requests.map((r) => r.from.split(' < ').slice(0, 2).join(' < '))).toEqual(['store/atomic-file.ts < store/state-store.ts', 'store/atomic-file.ts']);
    const { status } = await fx.engine.containerStatus({ containerId });
    expect(status?.state).toBe('CONTAINER_RUNNING');
  });
});
