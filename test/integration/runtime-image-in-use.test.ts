// RemoveImage of an image a container uses answers as containerd does: the image record goes, the
// container keeps the layers its rootfs stacks, and they are collected once the container is
// removed (no gc call needed). Interleaved with a CreateContainer of that image, whatever the
// order, nothing is left once both are over and the container is removed: no layer, no rw layer,
// no mount.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageService } from '../../src/runtime/image/image-service.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { waitFor } from '../rig/wait.js';
import { gate, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

let fx: RuntimeFixture;
let podSandboxId: string;
const pod = podConfig('image-in-use', { linux: { securityContext: { namespaceOptions: { pid: 'CONTAINER' } } } });
let n = 0;

/** An image of its own layer (busybox and a file no other image has), so gc may collect it. */
async function uniqueImage(): Promise<{ ref: string; chainIds: string[]; marker: string }> {
  const rootfs = join(fx.dir, `rootfs-${n}`);
  await populateBusyboxRootfs(rootfs);
  const marker = randomBytes(8).toString('hex');
  await writeFile(join(rootfs, 'marker'), marker);
  const ref = `isulats-test/in-use-${n++}:v1`;
  await fx.engine.images.buildFromRootfs(rootfs, ref, { Cmd: ['sh'], created: '2024-01-01T00:00:00Z' });
  return { ref, chainIds: (await fx.engine.images.resolveImage(ref)).chainIds, marker };
}

function createContainer(ref: string): Promise<{ containerId: string }> {
  return fx.engine.createContainer({
    podSandboxId,
    sandboxConfig: pod,
    config: { metadata: { name: `c-${n}-${randomBytes(3).toString('hex')}` }, image: { image: ref }, command: ['sleep', '3600'], linux: { securityContext: { namespaceOptions: { pid: 'CONTAINER' } } } },
  });
}

async function removeContainer(containerId: string): Promise<void> {
  await fx.engine.stopContainer({ containerId, timeout: '0' });
  await fx.engine.removeContainer({ containerId });
}

/** Nothing of the image is left: no record, no layer, no rw layer or mount of a container. */
async function expectNothingOf(image: { ref: string; chainIds: string[] }): Promise<void> {
  expect((await fx.engine.imageStatus({ image: { image: image.ref } })).image).toBeNull();
  const layers = await fx.engine.images.ctx.layers.list();
  for (const c of image.chainIds) expect(layers).not.toContain(c);
  expect(readdirSync(join(fx.options.root!, 'containers-rw'))).toEqual([]);
  expect((await mountsUnder(fx.dir)).filter((m) => m.includes('/rootfs/'))).toEqual([]);
}

/** Wraps a method of the engine's image service for one test: `around` runs in place of it. */
function intercept<K extends 'resolveImage' | 'holdingLayers'>(name: K, around: (original: ImageService[K]) => ImageService[K]): () => void {
  const svc = fx.engine.images;
  const original = svc[name].bind(svc) as ImageService[K];
  svc[name] = around(original);
  return () => void delete (svc as Partial<ImageService>)[name];
}

beforeAll(async () => {
  fx = await openFixture();
  ({ podSandboxId } = await fx.engine.runPodSandbox({ config: pod }));
}, 180_000);

afterAll(async () => {
  await fx?.dispose();
}, 120_000);

describe('RemoveImage of an image a container uses', { timeout: 60_000 }, () => {
  it('removes the image, as containerd; the container starts from its layers, which go when it is removed', async () => {
    const image = await uniqueImage();
    const { containerId } = await createContainer(image.ref);
    await fx.engine.removeImage({ image: { image: image.ref } });
    expect((await fx.engine.imageStatus({ image: { image: image.ref } })).image).toBeNull();
    expect(await fx.engine.images.ctx.layers.list()).toEqual(expect.arrayContaining(image.chainIds));
    // An explicit gc keeps them too: the container's rootfs names them.
    expect((await fx.engine.images.gc()).snapshotsRemoved).not.toEqual(expect.arrayContaining(image.chainIds));
    await fx.engine.startContainer({ containerId });
    const out = await fx.engine.execSync({ containerId, cmd: ['cat', '/marker'], timeout: '10' });
    expect(Buffer.from(out.stdout).toString()).toBe(image.marker);
    await removeContainer(containerId);
    await expectNothingOf(image);
  });

  it('RemoveImage after CreateContainer resolved the image, before its rootfs: CreateContainer is NotFound and leaves nothing', async () => {
    const image = await uniqueImage();
    const resolved = gate();
    const proceed = gate();
    const restore = intercept('resolveImage', (original) => async (name) => {
      const r = await original(name);
      if (name === image.ref) {
        resolved.open();
        await proceed.promise;
      }
      return r;
    });
    try {
      const creating = createContainer(image.ref);
      await resolved.promise;
      await fx.engine.removeImage({ image: { image: image.ref } });
      proceed.open();
      await expect(creating).rejects.toMatchObject({ kind: 'not-found', message: expect.stringMatching(/was removed/) });
    } finally {
      proceed.open();
      restore();
    }
    expect((await fx.engine.listContainers({})).containers).toEqual([]);
    await expectNothingOf(image);
  });

  it('RemoveImage while CreateContainer writes the rootfs record: its gc waits, keeps the layers, and they go with the container', async () => {
    const image = await uniqueImage();
    const holding = gate();
    const proceed = gate();
    const restore = intercept('holdingLayers', (original) => (layers, fn) => original(layers, async () => {
      holding.open();
      await proceed.promise;
      return fn();
    }));
    let removing: Promise<unknown> | undefined;
    try {
      const creating = createContainer(image.ref);
      await holding.promise;
      removing = fx.engine.removeImage({ image: { image: image.ref } });
      // The record is gone at once; the collection waits for the rootfs record to be written.
      await waitFor(async () => (await fx.engine.imageStatus({ image: { image: image.ref } })).image === null, { timeoutMs: 10_000, what: 'the image record removed' });
      proceed.open();
      const { containerId } = await creating;
      await removing;
      expect(await fx.engine.images.ctx.layers.list()).toEqual(expect.arrayContaining(image.chainIds));
      await fx.engine.startContainer({ containerId });
      const out = await fx.engine.execSync({ containerId, cmd: ['cat', '/marker'], timeout: '10' });
      expect(Buffer.from(out.stdout).toString()).toBe(image.marker);
      await removeContainer(containerId);
    } finally {
      proceed.open();
      restore();
      await removing?.catch(() => undefined);
    }
    await expectNothingOf(image);
  });

  it('RemoveImage and CreateContainer at once, a few times: nothing left after both and the container\'s removal', async () => {
    for (let i = 0; i < 4; i++) {
      const image = await uniqueImage();
      const [created, removed] = await Promise.allSettled([createContainer(image.ref), fx.engine.removeImage({ image: { image: image.ref } })]);
      expect(removed.status).toBe('fulfilled');
      if (created.status === 'fulfilled') {
        await fx.engine.startContainer({ containerId: created.value.containerId });
        await removeContainer(created.value.containerId);
      } else {
        expect(created.reason).toMatchObject({ kind: 'not-found' });
      }
      await expectNothingOf(image);
    }
    expect(existsSync(join(fx.options.root!, 'containers-rw'))).toBe(true);
  });
});
