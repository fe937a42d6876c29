// How CreateContainer and RemoveContainer use the file system, on the embedded engine with real
// overlayfs, CNI and kubelet-shaped requests. Each async file system call waits for two thread
// wake-ups (libuv's pool, then the event loop), which on a busy node cost more than the call:
// CreateContainer sends the pool only its fsyncs (and reads the host's CPU topology only for a
// cpuset), and RemoveContainer finds the mounts over a rootfs with umount2 alone (no read of the
// mount table, which grows with every pod) and leaves what nobody reads by name any more (the exit
// file, the monitor's link) to the background.
import { createHook } from 'node:async_hooks';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainTrash } from '../../src/runtime/store/trash.js';
import { kubeletContainer, kubeletPod, kubepodsLevelsPresent, removeKubeletPodCgroup, type KubeletPod } from '../rig/kubelet-shapes.js';
import { run } from '../rig/proc.js';
import { BUSYBOX_REF, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const lstatOrUndefined = (path: string) => lstatSync(path, { throwIfNoEntry: false });
const fsModule = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

/**
 * Async file system requests (thread-pool round trips) made while `fn` runs, by resource type, and
 * `firstWave`: how many were sent before the first of them answered (requests that wait together).
 */
async function threadPoolRequests(fn: () => Promise<unknown>, waves?: { firstWave: number }): Promise<string[]> {
  const seen: string[] = [];
  const ids = new Set<number>();
  let answered = false;
  const hook = createHook({
    init(id, type) {
      if (!type.startsWith('FSREQ') && !type.startsWith('FILEHANDLE')) return;
      seen.push(type);
      ids.add(id);
      if (!answered && waves) waves.firstWave++;
    },
    before(id) {
      if (ids.has(id)) answered = true;
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

/** Paths given to a synchronous node:fs call (as the engine imports it) while `fn` runs. */
async function syncCalls(name: 'readFileSync' | 'unlinkSync', fn: () => Promise<unknown>): Promise<string[]> {
  const original = fsModule[name] as (...a: unknown[]) => unknown;
  const paths: string[] = [];
  (fsModule as unknown as Record<string, unknown>)[name] = (path: unknown, ...rest: unknown[]) => {
    paths.push(String(path));
    return original(path, ...rest);
  };
  syncBuiltinESMExports();
  try {
    await fn();
  } finally {
    (fsModule as unknown as Record<string, unknown>)[name] = original;
    syncBuiltinESMExports();
  }
  return paths;
}

describe('runtime: file system work of CreateContainer and RemoveContainer', () => {
  let fx: RuntimeFixture;
  let pod: KubeletPod;
  let podSandboxId: string;
  const kubepodsBefore = kubepodsLevelsPresent();
  const create = (name: string) => fx.engine.createContainer({
    podSandboxId,
    config: kubeletContainer(pod, { name, image: BUSYBOX_REF, command: ['sleep', '3600'] }),
    sandboxConfig: pod.config,
  });

  beforeAll(async () => {
    fx = await openFixture();
    pod = kubeletPod({ app: 'fs-calls-web', node: 'isulats-node-5e6f7a8b9c0d', logRoot: join(fx.dir, 'var-log-pods') });
    ({ podSandboxId } = await fx.engine.runPodSandbox({ config: pod.config }));
    // First use loads modules and fills caches (image records, host facts): not what is measured.
    await create('warm-up');
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
    if (pod) await removeKubeletPodCgroup(pod, kubepodsBefore);
  }, 120_000);

  it('CreateContainer waits on the thread pool only for the five fsyncs that make it durable', async () => {
    await drainTrash();
    let containerId = '';
    let requests: string[] = [];
    const waves = { firstWave: 0 };
    const reads = await syncCalls('readFileSync', async () => {
      requests = await threadPoolRequests(async () => {
        ({ containerId } = await create('app'));
      }, waves);
    });
    // The container record and the rootfs record, each its file and then its directory, and the
    // bundle's spec. The spec's fsync adds no wait: it goes with the two records' file fsyncs.
    expect(requests).toEqual(['FSREQCALLBACK', 'FSREQCALLBACK', 'FSREQCALLBACK', 'FSREQCALLBACK', 'FSREQCALLBACK']);
    expect(waves.firstWave).toBe(3);
    // Resources without a cpuset need no look at the host's online CPUs and memory nodes.
    expect(reads.filter((p) => p.startsWith('/sys/devices/system/'))).toEqual([]);
    const { status } = await fx.engine.containerStatus({ containerId });
    expect(status?.state).toBe('CONTAINER_CREATED');
    const bundle = join(fx.options.root, 'containers', containerId, 'bundle');
    expect(JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')).root.path).toBe(join(fx.options.state, 'rootfs', containerId));
    expect(existsSync(join(pod.logDirectory, 'app'))).toBe(true);
    expect(await mountsUnder(fx.dir)).toContain(join(fx.options.state, 'rootfs', containerId));
  });

  it('RemoveContainer unmounts a rootfs with a mount stacked on it without reading the mount table', async () => {
    const { containerId } = await create('stacked');
    const rootfs = join(fx.options.state, 'rootfs', containerId);
    // Something mounted over the container's rootfs (as a bind over it would be): both must go.
    await run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', rootfs]);
    expect((await mountsUnder(fx.dir)).filter((m) => m === rootfs)).toHaveLength(2);
    const reads = await syncCalls('readFileSync', () => fx.engine.removeContainer({ containerId }));
    expect(reads.filter((p) => p.includes('mountinfo'))).toEqual([]);
    expect(await mountsUnder(fx.dir)).not.toContain(rootfs);
    expect(existsSync(rootfs)).toBe(false);
    expect(existsSync(join(fx.options.root, 'containers', containerId))).toBe(false);
    await expect(fx.engine.containerStatus({ containerId })).rejects.toThrow(/not found/);
  });

  it('RemoveContainer of a stopped container leaves its exit file and monitor link to the background', async () => {
    const { containerId } = await create('stopped');
    await fx.engine.startContainer({ containerId });
    await fx.engine.stopContainer({ containerId, timeout: 0 });
    const exitFile = join(fx.options.state, 'exits', containerId);
    const monitorLink = join(fx.options.state, 'sk', containerId);
    expect(existsSync(exitFile)).toBe(true);
    expect(lstatOrUndefined(monitorLink)?.isSymbolicLink()).toBe(true);
    const unlinked = await syncCalls('unlinkSync', () => fx.engine.removeContainer({ containerId }));
    expect(unlinked.filter((p) => p === exitFile || p === monitorLink)).toEqual([]);
    expect(existsSync(join(fx.options.root, 'containers', containerId))).toBe(false);
    await drainTrash();
    expect(existsSync(exitFile)).toBe(false);
    expect(lstatOrUndefined(monitorLink)).toBeUndefined();
  });

  it('an engine opening removes exit files whose container has no record, and keeps the others', async () => {
    const { containerId } = await create('kept');
    await fx.engine.startContainer({ containerId });
    await fx.engine.stopContainer({ containerId, timeout: 0 });
    const kept = join(fx.options.state, 'exits', containerId);
    // As a process killed between removing a record and deleting the exit file leaves it.
    const orphan = join(fx.options.state, 'exits', 'e'.repeat(64));
    writeFileSync(orphan, '137');
    await fx.reopen();
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(kept)).toBe(true);
  });
});
