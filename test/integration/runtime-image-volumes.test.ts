// Image volumes (KEP-4639) through the engine with real runc and overlayfs:
// two images built in the test, one mounted whole and one by its sub-path,
// read-only; RemoveImage refused while a container uses one; the volumes
// still there after the engine is opened again (a daemon restart) and gone
// with the container; a missing image or sub-path a clear error leaving
// nothing behind.
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as cri from '../../src/api/cri.js';
import type { Engine } from '../../src/runtime/engine.js';
import { BUSYBOX_REF, kubeletShapedPod, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const WEIGHTS = 'registry.example.com/ml/model-weights:v3';
const SETTINGS = 'registry.example.com/platform/app-settings:2025.11';

describe('image volumes in the engine', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
    const weights = join(fx.dir, 'weights-rootfs');
    mkdirSync(join(weights, 'weights', 'shards'), { recursive: true });
    writeFileSync(join(weights, 'weights', 'model.bin'), 'weights-v3\n');
    writeFileSync(join(weights, 'weights', 'shards', '0001'), 'shard-1\n');
    const settings = join(fx.dir, 'settings-rootfs');
    mkdirSync(join(settings, 'conf', 'app'), { recursive: true });
    writeFileSync(join(settings, 'conf', 'app', 'app.yaml'), 'replicas: 3\n');
    writeFileSync(join(settings, 'README'), 'outside the sub-path\n');
    writeFileSync(join(settings, 'conf', 'hello.sh'), '#!/bin/sh\necho hello\n');
    chmodSync(join(settings, 'conf', 'hello.sh'), 0o755);
    await fx.engine.images.buildFromRootfs(weights, WEIGHTS, { created: '2025-11-01T00:00:00Z' });
    await fx.engine.images.buildFromRootfs(settings, SETTINGS, { created: '2025-11-01T00:00:00Z' });
  }, 120_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  const containerDirs = () => readdirSync(join(fx.options.root, 'containers')).filter((n) => /^[0-9a-f]{64}$/.test(n));
  const rwDirs = () => readdirSync(join(fx.options.root, 'containers-rw')).sort();
  const sh = async (engine: Engine, containerId: string, script: string) => {
    const r = await engine.execSync({ containerId, cmd: ['sh', '-c', script], timeout: 10 });
    return { out: r.stdout.toString(), code: r.exitCode };
  };
  const imageMount = (containerPath: string, image: string, imageSubPath = ''): cri.MountIn => ({
    containerPath, hostPath: '', readonly: true, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE', image: { image }, imageSubPath,
  });
  const containerConfig = (name: string, mounts: cri.MountIn[]) => ({
    metadata: { name, attempt: 0 },
    image: { image: BUSYBOX_REF },
    command: ['sleep', '3600'],
    labels: { 'io.kubernetes.container.name': name },
    annotations: { 'io.kubernetes.container.restartCount': '0' },
    mounts,
  });

  it('mounts an image whole and another by sub-path, read-only; keeps them across a reopen; refuses RemoveImage while used; removes them with the container', async () => {
    let engine = fx.engine;
    const before = { mounts: await mountsUnder(fx.dir), rw: rwDirs() };
    const pod = kubeletShapedPod('inference', 'ml');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const { containerId } = await engine.createContainer({
      podSandboxId,
      config: containerConfig('server', [imageMount('/models', WEIGHTS), imageMount('/etc/app', SETTINGS, 'conf')]),
      sandboxConfig: pod,
    });
    await engine.startContainer({ containerId });
    expect(await sh(engine, containerId, 'cat /models/weights/model.bin /models/weights/shards/0001; cat /etc/app/app/app.yaml; ls /etc/app')).toEqual({ out: 'weights-v3\nshard-1\nreplicas: 3\napp\nhello.sh\n', code: 0 });
    expect((await sh(engine, containerId, 'touch /models/new 2>&1; touch /etc/app/new 2>&1')).out).toMatch(/Read-only file system[\s\S]*Read-only file system/);
    // No noexec: an executable of the image runs (docs/compatibility.md).
    expect((await sh(engine, containerId, '/etc/app/hello.sh')).out).toBe('hello\n');
    expect(rwDirs()).toEqual(expect.arrayContaining([containerId, `${containerId}-iv0`, `${containerId}-iv1`]));

    const refused = (await engine.removeImage({ image: { image: SETTINGS } }).catch((e: unknown) => e)) as Error & { kind?: string };
    expect(refused.kind).toBe('failed-precondition');
    expect(refused.message).toBe(`image ${SETTINGS} is in use as a volume by 1 container(s)`);

    // A new engine on the same root, as after a daemon restart: the running container keeps its volumes.
    engine = await fx.reopen();
    expect((await sh(engine, containerId, 'cat /models/weights/model.bin /etc/app/app/app.yaml')).out).toBe('weights-v3\nreplicas: 3\n');
    await engine.removePodSandbox({ podSandboxId });
    expect(await mountsUnder(fx.dir)).toEqual(before.mounts);
    expect(rwDirs()).toEqual(before.rw);
    await engine.removeImage({ image: { image: SETTINGS } });
    expect((await engine.imageStatus({ image: { image: SETTINGS } })).image).toBeNull();
    await engine.images.buildFromRootfs(join(fx.dir, 'settings-rootfs'), SETTINGS, { created: '2025-11-01T00:00:00Z' });
    fx.engine = engine;
  }, 120_000);

  it.each<[string, cri.MountIn[], string, string]>([
    ['an image not pulled', [imageMount('/data', 'registry.example.com/ml/not-pulled:v1')], 'not-found', 'image volume: failed to resolve image "registry.example.com/ml/not-pulled:v1": not found'],
    ['a missing sub-path', [imageMount('/data', WEIGHTS), imageMount('/etc/app', SETTINGS, 'conf/missing')], 'not-found', `image_sub_path "conf/missing" not found in image ${SETTINGS}`],
    ['a sub-path that is a file', [imageMount('/etc/app', SETTINGS, 'conf/hello.sh')], 'invalid-argument', `image_sub_path "conf/hello.sh" of image ${SETTINGS} is not a directory (only directories can be mounted)`],
    ['a sub-path leaving the image', [imageMount('/etc/app', SETTINGS, '../../etc')], 'invalid-argument', `image_sub_path "../../etc" leaves image ${SETTINGS}`],
    ['a host path beside the image', [{ ...imageMount('/etc/app', SETTINGS), hostPath: '/etc' }], 'invalid-argument', `mounts[0] (image ${SETTINGS}): host_path must be empty for an image volume`],
    ['a writable image volume', [{ ...imageMount('/etc/app', SETTINGS), readonly: false }], 'invalid-argument', `mounts[0] (image ${SETTINGS}): readonly must be true for an image volume`],
  ])('refuses %s with one line, leaving nothing behind', async (_what, mounts, kind, message) => {
    const engine = fx.engine;
    const pod = kubeletShapedPod('bad-volume', 'ml');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const before = { dirs: containerDirs(), mounts: await mountsUnder(fx.dir), rw: rwDirs() };
    const err = (await engine.createContainer({ podSandboxId, config: containerConfig('broken', mounts), sandboxConfig: pod }).catch((e: unknown) => e)) as Error & { kind?: string };
    expect({ kind: err.kind, message: err.message }).toEqual({ kind, message });
    expect(containerDirs()).toEqual(before.dirs);
    expect(await mountsUnder(fx.dir)).toEqual(before.mounts);
    expect(rwDirs()).toEqual(before.rw);
    await engine.removePodSandbox({ podSandboxId });
  }, 60_000);
});
