import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { mountedPaths, OVERLAY_MAX_LOWER, OverlaySnapshotter } from '../../src/runtime/snapshot/overlay-snapshotter.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

let dir: string;
let images: ImageService;
let snaps: OverlaySnapshotter;
const keys = ['c1', 'c2', 'c3'];

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  dir = await makeTempDir('ist-snap-');
  const rootfs = join(dir, 'rootfs');
  mkdirSync(join(rootfs, 'etc'), { recursive: true });
  writeFileSync(join(rootfs, 'etc', 'hostname'), 'image\n');
  writeFileSync(join(rootfs, 'hello'), 'hi\n');
  images = await ImageService.open({ root: join(dir, 'root'), state: join(dir, 'state'), authFile: join(dir, 'auths.json') });
  await images.buildFromRootfs(rootfs, 'localhost/snap:1', { Cmd: ['/hello'] });
  snaps = await OverlaySnapshotter.open({ root: join(dir, 'root'), state: join(dir, 'state'), images });
});
afterAll(async () => {
  for (const k of keys) await snaps?.remove(k).catch(() => undefined);
  if (dir) await removeTempDir(dir);
});

describe('overlay snapshotter', () => {
  it('mounts a writable rootfs over the image layers without touching them', async () => {
    const m = await snaps.prepare('c1', 'localhost/snap:1');
    expect((await mountedPaths()).has(m.mountpoint)).toBe(true);
    expect(readFileSync(join(m.mountpoint, 'hello'), 'utf8')).toBe('hi\n');
    writeFileSync(join(m.mountpoint, 'etc', 'hostname'), 'container\n');
    expect(readFileSync(join(m.upperdir, 'etc', 'hostname'), 'utf8')).toBe('container\n');
    expect(readFileSync(join(m.lowerdirs[0]!, 'etc', 'hostname'), 'utf8')).toBe('image\n');
    const usage = await snaps.usage('c1');
    expect(usage.bytes).toBe('container\n'.length);
    expect(usage.inodes).toBeGreaterThanOrEqual(3);
  });

  it('is idempotent: prepare again, mount twice, unmount twice, and remounts after unmount', async () => {
    const a = await snaps.prepare('c2', 'localhost/snap:1');
    const b = await snaps.prepare('c2', 'localhost/snap:1');
    expect(b).toEqual(a);
    await snaps.mount('c2');
    await snaps.unmount('c2');
    await snaps.unmount('c2');
    expect((await mountedPaths()).has(a.mountpoint)).toBe(false);
    await snaps.mount('c2');
    expect(readFileSync(join(a.mountpoint, 'hello'), 'utf8')).toBe('hi\n');
    const listed = await snaps.list();
    expect(listed.find((s) => s.key === 'c2')).toMatchObject({ mounted: true, imageId: (await images.resolveImage('localhost/snap:1')).id });
  });

  it('removes without leaking a mount; removing twice is fine', async () => {
    const m = await snaps.prepare('c3', 'localhost/snap:1');
    await snaps.remove('c3');
    await snaps.remove('c3');
    expect((await mountedPaths()).has(m.mountpoint)).toBe(false);
    expect(existsSync(m.upperdir)).toBe(false);
    expect(existsSync(m.mountpoint)).toBe(false);
  });

  it('keeps lower layers of a container snapshot through image removal and gc', async () => {
    const resolved = await images.resolveImage('localhost/snap:1');
    await images.removeImage({ image: { image: 'localhost/snap:1' } });
    const gc = await images.gc();
    expect(gc.snapshotsRemoved).toEqual([]);
    expect(existsSync(resolved.snapshotDirs[0]!)).toBe(true);
    // The last rootfs over the removed image takes its layers along: no gc call needed.
    for (const k of keys) await snaps.remove(k);
    expect(await images.ctx.layers.list()).toEqual([]);
    expect((await images.gc()).snapshotsRemoved).toEqual([]);
    expect(readdirSync(join(dir, 'root', 'containers-rw'))).toEqual([]);
  });

  it('rejects keys that could name paths', async () => {
    await expect(snaps.prepare('../x', 'localhost/snap:1')).rejects.toThrow(/invalid snapshot key/);
  });
});

describe('overlay snapshotter with many layers', () => {
  /** `n` one-file layer dirs under `many/`, made once. */
  function layerDirs(n: number): string[] {
    const layers: string[] = [];
    for (let i = 0; i < n; i++) {
      const d = join(dir, 'many', `${'x'.repeat(40)}-layer-${String(i).padStart(3, '0')}`);
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, `f${i}`), String(i));
      layers.push(d);
    }
    return layers;
  }

  const snapshotterOver = (name: string, layers: string[]) => OverlaySnapshotter.open({
    root: join(dir, `${name}-root`),
    state: join(dir, `${name}-state`),
    images: { resolveImage: async () => ({ id: `sha256:${name}`, chainIds: [], snapshotDirs: layers }), holdingLayers: (_image, fn) => fn(), releaseLayers: async () => undefined },
  });

  it('mounts 500 lowerdirs, overlayfs\'s limit', async () => {
    const many = await snapshotterOver('max', layerDirs(OVERLAY_MAX_LOWER));
    const m = await many.prepare('max', 'whatever');
    try {
      expect(readdirSync(m.mountpoint)).toHaveLength(500);
      expect(readFileSync(join(m.mountpoint, 'f499'), 'utf8')).toBe('499');
    } finally {
      await many.remove('max');
    }
    expect((await mountedPaths()).has(m.mountpoint)).toBe(false);
  });

  it('refuses 600 layers as InvalidArgument naming the limit, before anything is made', async () => {
    const many = await snapshotterOver('over', layerDirs(600));
    const error = await many.prepare('over', 'whatever').then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid-argument', message: 'image sha256:over has 600 layers; overlayfs stacks at most 500 (the kernel\'s OVL_MAX_STACK)' });
    expect(await many.list()).toEqual([]);
    const rw = join(dir, 'over-root', 'containers-rw');
    expect(existsSync(rw) ? readdirSync(rw) : []).toEqual([]);
  });

  it('mounts 120 lowerdirs, beyond what fits in one page of mount options', async () => {
    const layers: string[] = [];
    for (let i = 0; i < 120; i++) {
      const d = join(dir, 'many', `${'x'.repeat(40)}-layer-${String(i).padStart(3, '0')}`);
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, `f${i}`), String(i));
      layers.push(d);
    }
    const many = await OverlaySnapshotter.open({
      root: join(dir, 'many-root'),
      state: join(dir, 'many-state'),
      images: { resolveImage: async () => ({ id: 'sha256:many', chainIds: [], snapshotDirs: layers }), holdingLayers: (_image, fn) => fn(), releaseLayers: async () => undefined },
    });
    const m = await many.prepare('many', 'whatever');
    try {
      expect(readdirSync(m.mountpoint)).toHaveLength(120);
      expect(readFileSync(join(m.mountpoint, 'f119'), 'utf8')).toBe('119');
    } finally {
      await many.remove('many');
    }
    expect((await mountedPaths()).has(m.mountpoint)).toBe(false);
  });
});
