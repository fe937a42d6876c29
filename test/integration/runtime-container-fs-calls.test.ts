// How CreateContainer and RemoveContainer use the file system, on the embedded engine with real
// overlayfs, CNI and kubelet-shaped requests. Each async file system call waits for two thread
// wake-ups (libuv's pool, then the event loop), which on a busy node cost more than the call:
// CreateContainer sends the pool only its fsyncs, and RemoveContainer finds the mounts over a
// rootfs with umount2 alone (no read of the mount table, which grows with every pod).
import { createHook } from 'node:async_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainTrash } from '../../src/runtime/store/trash.js';
import { kubeletContainer, kubeletPod, kubepodsLevelsPresent, removeKubeletPodCgroup, type KubeletPod } from '../rig/kubelet-shapes.js';
import { run } from '../rig/proc.js';
import { BUSYBOX_REF, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const fsModule = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

/** Async file system requests (thread-pool round trips) made while `fn` runs, by resource type. */
async function threadPoolRequests(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const hook = createHook({
    init(_id, type) {
      if (type.startsWith('FSREQ') || type.startsWith('FILEHANDLE')) seen.push(type);
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

/** Paths read with readFileSync (node:fs, as the engine imports it) while `fn` runs. */
async function syncReads(fn: () => Promise<unknown>): Promise<string[]> {
  const original = fsModule.readFileSync;
  const paths: string[] = [];
  fsModule.readFileSync = ((path: unknown, ...rest: unknown[]) => {
    paths.push(String(path));
    return (original as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof original;
  syncBuiltinESMExports();
  try {
    await fn();
  } finally {
    fsModule.readFileSync = original;
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

  it('CreateContainer waits on the thread pool only for the four fsyncs that make it durable', async () => {
    await drainTrash();
    let containerId = '';
    const requests = await threadPoolRequests(async () => {
      ({ containerId } = await create('app'));
    });
    // The container record and the rootfs record, each its file and its directory.
    expect(requests).toEqual(['FSREQCALLBACK', 'FSREQCALLBACK', 'FSREQCALLBACK', 'FSREQCALLBACK']);
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
    const reads = await syncReads(() => fx.engine.removeContainer({ containerId }));
    expect(reads.filter((p) => p.includes('mountinfo'))).toEqual([]);
    expect(await mountsUnder(fx.dir)).not.toContain(rootfs);
    expect(existsSync(rootfs)).toBe(false);
    expect(existsSync(join(fx.options.root, 'containers', containerId))).toBe(false);
    await expect(fx.engine.containerStatus({ containerId })).rejects.toThrow(/not found/);
  });
});
