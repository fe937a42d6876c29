import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_FAILPOINTS, REMOVE_FAILPOINTS } from '../../src/runtime/image/failpoint.js';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { startRegistry, type Registry } from '../rig/registry.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { layer, pushImage } from './image-fixtures.js';

let registry: Registry;
let dir: string;
let entry: string;
let ref: string;
let configDigest: string;
const repo = resolve('.');

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  registry = await startRegistry();
  dir = await makeTempDir('ist-crash-');
  const layers = await Promise.all([1, 2, 3].map((i) => layer([{ name: `d${i}/f`, type: 'file', data: Buffer.alloc(200_000, i) }])));
  configDigest = (await pushImage({ url: registry.url }, 'test/crash', 'v1', layers)).configDigest;
  ref = `${registry.host}/test/crash:v1`;
  // A child-process pull: tsx is not installed, so bundle a tiny entry with esbuild.
  const source = join(dir, 'pull-entry.ts');
  writeFileSync(
    source,
    `import { ImageService } from ${JSON.stringify(join(repo, 'src/runtime/image/image-service.ts'))};
const [root, ref, then] = process.argv.slice(2);
const svc = await ImageService.open({ root, state: root + '-state', authFile: root + '-auths.json' });
const res = await svc.pullImage({ image: { image: ref } });
if (then === 'remove') await svc.removeImage({ image: { image: ref } });
process.stdout.write(res.imageRef);`,
  );
  entry = join(dir, 'pull-entry.mjs');
  await build({ entryPoints: [source], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: entry, logLevel: 'error' });
});
afterAll(async () => {
  await registry?.stop();
  if (dir) await removeTempDir(dir);
});

function runChild(root: string, failpoint: string, then = ''): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [entry, root, ref, then], {
      env: { ...process.env, ISULATS_FAILPOINT: failpoint, ISULATS_NATIVE: join(repo, 'build/Release/isulats.node') },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal });
    });
  });
}

describe('a pull killed with SIGKILL', () => {
  it.each(PULL_FAILPOINTS)('at %s leaves no half image, and the next pull completes', async (failpoint) => {
    const root = join(dir, failpoint);
    const died = await runChild(root, failpoint);
    expect(died.signal).toBe('SIGKILL');

    const svc = await ImageService.open({ root, state: `${root}-state`, authFile: `${root}-auths.json` });
    // Whatever survived is either absent or complete: every snapshot present has its metadata.
    for (const chain of await svc.ctx.layers.list()) expect(await svc.ctx.layers.get(chain)).toBeDefined();
    for (const image of (await svc.listImages({})).images) expect(image.id).toBe(configDigest);
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    expect(readdirSync(join(root, 'snapshots', '.tmp'))).toEqual([]);

    expect((await svc.pullImage({ image: { image: ref } })).imageRef).toBe(configDigest);
    const resolved = await svc.resolveImage(ref);
    expect(resolved.snapshotDirs).toHaveLength(3);
    expect((await svc.listImages({})).images.map((i) => i.repoTags)).toEqual([[ref]]);
  });

  it('completes in a child process without a failpoint', async () => {
    const root = join(dir, 'none');
    expect(await runChild(root, '')).toEqual({ code: 0, signal: null });
  });
});

describe('two processes pulling one image into one root at once', () => {
  it('both succeed and the image is stored once', async () => {
    const root = join(dir, 'two');
    const results = await Promise.all([runChild(root, ''), runChild(root, '')]);
    expect(results).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    const svc = await ImageService.open({ root, state: `${root}-state`, authFile: `${root}-auths.json` });
    expect((await svc.listImages({})).images.map((i) => i.id)).toEqual([configDigest]);
    expect((await svc.ctx.layers.list()).length).toBe(3);
  });
});

describe('a RemoveImage killed with SIGKILL', () => {
  // Every layer's file, read through the snapshot dirs an image resolves to: no half-deleted layer.
  async function expectWholeLayers(svc: ImageService): Promise<void> {
    const resolved = await svc.resolveImage(ref);
    expect(resolved.snapshotDirs).toHaveLength(3);
    const found = resolved.snapshotDirs.map((d) => readdirSync(d).find((n) => /^d\d$/.test(n))!).sort();
    expect(found).toEqual(['d1', 'd2', 'd3']);
    for (const d of resolved.snapshotDirs) {
      const name = readdirSync(d).find((n) => /^d\d$/.test(n))!;
      expect(readFileSync(join(d, name, 'f')).equals(Buffer.alloc(200_000, Number(name.slice(1))))).toBe(true);
    }
  }

  it.each(REMOVE_FAILPOINTS)('at %s leaves the image whole or gone, gc leaves nothing, and a re-pull completes', async (failpoint) => {
    const root = join(dir, `rm-${failpoint}`);
    const died = await runChild(root, failpoint, 'remove');
    expect(died.signal).toBe('SIGKILL');

    const svc = await ImageService.open({ root, state: `${root}-state`, authFile: `${root}-auths.json` });
    const listed = (await svc.listImages({})).images;
    const status = (await svc.imageStatus({ image: { image: configDigest } })).image;
    if (listed.length === 0) {
      expect(status ?? undefined).toBeUndefined();
    } else {
      // Still there: the whole image, every layer of it (its tag may already be gone).
      expect(listed.map((i) => i.id)).toEqual([configDigest]);
      expect(status?.id).toBe(configDigest);
      const record = await svc.find(configDigest);
      for (const chain of record.chainIds) expect(await svc.ctx.layers.get(chain)).toBeDefined();
    }
    for (const chain of await svc.ctx.layers.list()) expect(await svc.ctx.layers.get(chain)).toBeDefined();
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    expect(readdirSync(join(root, 'snapshots', '.tmp'))).toEqual([]);

    // gc: nothing left that no image holds, and no deletion dir.
    await svc.gc();
    await svc.ctx.blobs.deletionsSettled();
    await svc.ctx.layers.deletionsSettled();
    if ((await svc.listImages({})).images.length === 0) {
      expect(await svc.ctx.blobs.list()).toEqual([]);
      expect(await svc.ctx.layers.list()).toEqual([]);
    } else {
      expect((await svc.ctx.layers.list()).length).toBe(3);
    }
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    expect(readdirSync(join(root, 'snapshots', '.tmp'))).toEqual([]);

    expect((await svc.pullImage({ image: { image: ref } })).imageRef).toBe(configDigest);
    expect((await svc.listImages({})).images.map((i) => i.repoTags)).toEqual([[ref]]);
    await expectWholeLayers(svc);

    // And a RemoveImage that runs to its end leaves nothing.
    await svc.removeImage({ image: { image: ref } });
    await svc.ctx.blobs.deletionsSettled();
    await svc.ctx.layers.deletionsSettled();
    expect((await svc.listImages({})).images).toEqual([]);
    expect(await svc.ctx.blobs.list()).toEqual([]);
    expect(await svc.ctx.layers.list()).toEqual([]);
    expect(readdirSync(join(root, 'snapshots', '.tmp'))).toEqual([]);
  });
});
