// RemoveImage of an image with 10,000 layers (the most a pull takes): gc renames its snapshots and
// blobs away in batches and deletes their files after the call, with one `rm -rf` each; the call
// answers after at most a second of that, the rest goes on after it, so it ends within crictl's deadline (it took 30-36 s as a locked rename, an `rm` process and a
// blob unlink per layer; on a disk mounted with discard each unlink that frees blocks is ~2 ms). The image's stores are
// written directly (a pull of 10,000 layers would take minutes here); removal goes through the
// real ImageService. The time is printed, never asserted.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageContext } from '../../src/runtime/image/image-context.js';
import { ImageService } from '../../src/runtime/image/image-service.js';
import type { ImageRecord } from '../../src/runtime/image/image-store.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

const LAYERS = 10_000;
let dir: string;

const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
const hex = (d: string) => d.slice('sha256:'.length);

beforeAll(async () => {
  dir = await makeTempDir('ist-rmi-');
});

afterAll(async () => {
  if (dir) await removeTempDir(dir);
});

/** Writes an image of `n` one-file layers into the stores under `root`, as a pull leaves them (lock files included). */
async function writeManyLayerImage(root: string, n: number, tag: string): Promise<ImageRecord> {
  const ctx = new ImageContext(root);
  await ctx.init();
  const layers = [];
  const diffIds = [];
  const chainIds = [];
  let parent: string | undefined;
  for (let i = 0; i < n; i++) {
    const blob = `layer ${i}`;
    const digest = sha(blob);
    writeFileSync(ctx.blobs.path(digest), blob);
    layers.push({ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest, size: blob.length });
    const diffId = sha(`diff ${i}`);
    const chainId = parent ? sha(`${parent} ${diffId}`) : diffId;
    const snapshot = join(ctx.layers.dir, hex(chainId));
    mkdirSync(join(snapshot, 'fs'), { recursive: true });
    writeFileSync(join(snapshot, 'fs', `f${i}`), blob);
    writeFileSync(join(snapshot, 'meta.json'), JSON.stringify({ chainId, diffId, parent, bytes: blob.length, inodes: 2, createdAt: new Date().toISOString() }));
    writeFileSync(join(root, 'locks', 'snapshots', `${hex(chainId)}.lock`), '');
    diffIds.push(diffId);
    chainIds.push(chainId);
    parent = chainId;
  }
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: diffIds } }));
  const configDigest = sha(config.toString());
  writeFileSync(ctx.blobs.path(configDigest), config);
  const manifest = JSON.stringify({ schemaVersion: 2, config: { digest: configDigest }, layers });
  const manifestDigest = sha(manifest);
  writeFileSync(ctx.blobs.path(manifestDigest), manifest);
  const record: ImageRecord = {
    id: configDigest,
    targetDigest: manifestDigest,
    manifestDigest,
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: configDigest, size: config.length },
    layers,
    diffIds,
    chainIds,
    size: 0,
    repoDigests: [],
    createdAt: new Date().toISOString(),
  };
  await ctx.images.commit(record, tag);
  return record;
}

describe('RemoveImage of an image with 10,000 layers', () => {
  it('removes every snapshot, lock file and blob, and leaves nothing once the deletion ends', async () => {
    const root = join(dir, 'root');
    const tag = 'localhost/many-layers:10000';
    const record = await writeManyLayerImage(root, LAYERS, tag);
    const images = await ImageService.open({ root, state: join(dir, 'state'), authFile: join(dir, 'auths.json') });
    expect(await images.ctx.layers.list()).toHaveLength(LAYERS);
    expect((await images.ctx.blobs.list()).length).toBe(LAYERS + 2);

    const started = performance.now();
    await images.removeImage({ image: { image: tag } });
    const took = performance.now() - started;
    console.log(`RemoveImage of ${LAYERS} layers: ${took.toFixed(0)} ms`);

    // The image is gone with the answer; what it alone held may still be collected after it
    // (RemoveImage waits REMOVE_IMAGE_GC_WAIT_MS at most), and close() waits for that.
    expect(await images.ctx.images.get(record.id)).toBeUndefined();
    await images.close();
    expect(await images.ctx.layers.list()).toEqual([]);
    expect(await images.ctx.blobs.list()).toEqual([]);
    expect(readdirSync(join(root, 'locks', 'snapshots'))).toEqual([]);
    // The files go after the call, the snapshots' in one tree under .tmp, the blobs' in one under tmp.
    const tmps = [join(images.ctx.layers.dir, '.tmp'), images.ctx.blobs.tmpDir];
    for (const tmp of tmps) expect(readdirSync(tmp).filter((n) => n.includes('-rm-')).length).toBeLessThanOrEqual(1);
    await images.ctx.layers.deletionsSettled();
    await images.ctx.blobs.deletionsSettled();
    for (const tmp of tmps) {
      await waitFor(async () => !existsSync(tmp) || readdirSync(tmp).length === 0, { timeoutMs: 120_000, what: `the removed files under ${tmp} to go` });
    }
  }, 300_000);
});
