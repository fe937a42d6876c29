import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { lgetxattr } from '../../src/runtime/native.js';
import { startRegistry, type Registry } from '../rig/registry.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { layer, pushBlob, pushImage, pushIndex, pushManifest, richEntries, type PushTarget } from './image-fixtures.js';
import { execFileSync } from 'node:child_process';
import { dirAttributes, fileSystemOf } from '../rig/dir-attributes.js';
import { createHook } from 'node:async_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { MEDIA } from '../../src/runtime/image/manifest.js';

let registry: Registry;
let target: PushTarget;
let dir: string;

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  registry = await startRegistry();
  target = { url: registry.url };
  dir = await makeTempDir('ist-pull-');
});
afterAll(async () => {
  await registry?.stop();
  if (dir) await removeTempDir(dir);
});

let rootN = 0;
async function service(extra: Partial<Parameters<typeof ImageService.open>[0]> = {}): Promise<ImageService> {
  const n = rootN++;
  return ImageService.open({ root: join(dir, `root${n}`), state: join(dir, `state${n}`), authFile: join(dir, `auths${n}.json`), ...extra });
}

describe('pull from a plain registry', () => {
  it('pulls a multi-layer image with whiteouts, opaque dirs, hardlinks, devices, symlinks and fifos', async () => {
    const l1 = await layer(richEntries());
    const l2 = await layer([
      { name: 'etc/.wh.old', type: 'file', data: '' },
      { name: 'var/cache/.wh..wh..opq', type: 'file', data: '' },
      { name: 'var/cache/b', type: 'file', data: 'b' },
    ]);
    const l3 = await layer([{ name: 'top.txt', type: 'file', data: 'top' }], false);
    const pushed = await pushImage(target, 'test/rich', 'v1', [l1, l2, l3], { config: { User: '1000:1000' } });
    const svc = await service();
    const events: string[] = [];
    const res = await svc.pullImage({ image: { image: `${registry.host}/test/rich:v1` } }, { progress: (e) => events.push(`${e.layer}:${e.state}`) });
    expect(res.imageRef).toBe(pushed.configDigest);
    expect(events.filter((e) => e.endsWith(':done'))).toHaveLength(3);

    const resolved = await svc.resolveImage(`${registry.host}/test/rich:v1`);
    expect(resolved.snapshotDirs).toHaveLength(3);
    const [top, mid, bottom] = resolved.snapshotDirs as [string, string, string];
    expect(readFileSync(join(top, 'top.txt'), 'utf8')).toBe('top');
    const wh = lstatSync(join(mid, 'etc/old'));
    expect(wh.isCharacterDevice() && wh.rdev === 0).toBe(true);
    expect(lgetxattr(join(mid, 'var/cache'), 'trusted.overlay.opaque')?.toString()).toBe('y');
    expect(lstatSync(join(bottom, 'bin/tool-link')).ino).toBe(lstatSync(join(bottom, 'bin/tool')).ino);
    expect(lstatSync(join(bottom, 'bin/sh')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(bottom, 'dev/null')).rdev).toBe(259);
    expect(lstatSync(join(bottom, 'dev/fifo')).isFIFO()).toBe(true);
    const secret = lstatSync(join(bottom, 'etc/secret'));
    expect([secret.mode & 0o7777, secret.uid, secret.gid, secret.mtimeMs]).toEqual([0o600, 1000, 1000, 1_600_000_002_000]);
    expect(lgetxattr(join(bottom, 'etc/secret'), 'user.label')?.toString()).toBe('x');

    const list = await svc.listImages({});
    expect(list.images).toHaveLength(1);
    expect(list.images[0]).toMatchObject({
      id: pushed.configDigest,
      repoTags: [`${registry.host}/test/rich:v1`],
      repoDigests: [`${registry.host}/test/rich@${pushed.manifestDigest}`],
      uid: { value: '1000' },
      username: '',
    });
    const status = await svc.imageStatus({ image: { image: pushed.configDigest.slice(7, 19) }, verbose: true });
    expect(status.image?.id).toBe(pushed.configDigest);
    expect(JSON.parse(status.info.info!).chainID).toBe(resolved.chainIds[2]);
    const byDigest = await svc.imageStatus({ image: { image: `${registry.host}/test/rich@${pushed.manifestDigest}` } });
    expect(byDigest.image?.id).toBe(pushed.configDigest);
    expect((await svc.imageStatus({ image: { image: 'nothing:here' } })).image).toBeNull();
    const fs = await svc.imageFsInfo({});
    expect(Number(fs.imageFilesystems[0]!.usedBytes!.value)).toBeGreaterThan(0);
    expect(Number(fs.imageFilesystems[0]!.inodesUsed!.value)).toBeGreaterThan(10);
    expect(await readdir(join(dir, `root${rootN - 1}`, 'tmp'))).toEqual([]);
  });

  it('selects the host platform from a manifest list', async () => {
    const amd = await pushImage(target, 'test/multi', undefined, [await layer([{ name: 'arch', type: 'file', data: 'amd64' }])], { arch: 'amd64' });
    const arm = await pushImage(target, 'test/multi', undefined, [await layer([{ name: 'arch', type: 'file', data: 'arm64' }])], { arch: 'arm64' });
    const indexDigest = await pushIndex(target, 'test/multi', 'latest', [
      { image: arm, arch: 'arm64', variant: 'v8' },
      { image: amd, arch: 'amd64' },
    ]);
    const svc = await service();
    const res = await svc.pullImage({ image: { image: `${registry.host}/test/multi` } });
    const want = process.arch === 'arm64' ? arm : amd;
    expect(res.imageRef).toBe(want.configDigest);
    const resolved = await svc.resolveImage(res.imageRef);
    expect(readFileSync(join(resolved.snapshotDirs[0]!, 'arch'), 'utf8')).toBe(process.arch === 'arm64' ? 'arm64' : 'amd64');
    const img = (await svc.listImages({})).images[0]!;
    expect(img.repoDigests).toEqual([`${registry.host}/test/multi@${indexDigest}`]);

    const other = await service({ platform: { os: 'linux', architecture: 's390x' } });
    await expect(other.pullImage({ image: { image: `${registry.host}/test/multi` } })).rejects.toThrow(/no manifest for platform linux\/s390x/);
  });

  it('refuses a layer that tries to escape and leaves no image and nothing outside', async () => {
    const evil = await layer([
      { name: 'link', type: 'symlink', linkname: '../../../../../../..' },
      { name: 'link/tmp/isulats-escaped', type: 'file', data: 'pwned' },
    ]);
    await pushImage(target, 'test/evil', 'v1', [evil]);
    const evil2 = await layer([{ name: '../../isulats-escaped2', type: 'file', data: 'pwned' }]);
    await pushImage(target, 'test/evil', 'v2', [evil2]);
    const svc = await service();
    await expect(svc.pullImage({ image: { image: `${registry.host}/test/evil:v1` } })).rejects.toThrow(/above its root/);
    await expect(svc.pullImage({ image: { image: `${registry.host}/test/evil:v2` } })).rejects.toThrow(/climbs out/);
    expect(existsSync('/tmp/isulats-escaped')).toBe(false);
    expect((await svc.listImages({})).images).toEqual([]);
    const root = join(dir, `root${rootN - 1}`);
    expect(readdirSync(join(root, 'snapshots')).filter((n) => n !== '.tmp')).toEqual([]);
    expect(readdirSync(join(root, 'snapshots', '.tmp'))).toEqual([]);
    expect(readdirSync(dir).filter((n) => n.includes('escaped'))).toEqual([]);
  });

  it('refuses a blob whose digest lies', async () => {
    const good = await layer([{ name: 'f', type: 'file', data: 'good' }]);
    const bad = await layer([{ name: 'f', type: 'file', data: 'evil' }]);
    // The registry verifies uploads, so the lie is in the manifest: it names good's digest
    // but the config's diff ID belongs to another tar.
    await pushImage(target, 'test/liar', 'v1', [good], { diffIds: [bad.diffId] });
    const svc = await service();
    await expect(svc.pullImage({ image: { image: `${registry.host}/test/liar:v1` } })).rejects.toThrow(/hashes to/);
    expect((await svc.listImages({})).images).toEqual([]);

    // A manifest whose layer descriptor claims a digest the registry serves different bytes for
    // cannot be pushed to docker-registry; a size lie can.
    const sized = await layer([{ name: 'g', type: 'file', data: 'sized' }]);
    await pushBlob(target, 'test/liar', sized.blob);
    const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [sized.diffId] } }));
    await pushBlob(target, 'test/liar', config);
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MEDIA.dockerManifest,
        config: { mediaType: MEDIA.dockerConfig, digest: sha256Digest(config), size: config.length },
        layers: [{ mediaType: MEDIA.dockerLayerGzip, digest: sized.digest, size: sized.blob.length - 5 }],
      }),
    );
    await pushManifest(target, 'test/liar', 'v2', manifest, MEDIA.dockerManifest);
    await expect(svc.pullImage({ image: { image: `${registry.host}/test/liar:v2` } })).rejects.toThrow(/larger than|declares/);
  });

  it('fails a pull whose later layer is bad with its error, after the other downloads settle, and leaves no image', async () => {
    // Six layers, four downloads at once: layer 4 starts once a small one is in, and fails its
    // size check at once, while layer 0 (16 MB) is still downloading. The pull reports layer 4's
    // error only once nothing of it runs on: no download or extraction left in the temp dirs.
    const sizes = [16 << 20, 0, 0, 0, 0, 0];
    const layers = await Promise.all(sizes.map((size, i) => layer([{ name: `etc/l${i}.conf`, type: 'file', data: size ? randomBytes(size) : `layer ${i}\n`.repeat(50) }])));
    for (const l of layers) await pushBlob(target, 'test/sixbad', l.blob);
    const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) } }));
    await pushBlob(target, 'test/sixbad', config);
    const manifest = Buffer.from(JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA.dockerManifest,
      config: { mediaType: MEDIA.dockerConfig, digest: sha256Digest(config), size: config.length },
      layers: layers.map((l, i) => ({ mediaType: MEDIA.dockerLayerGzip, digest: l.digest, size: i === 4 ? l.blob.length - 5 : l.blob.length })),
    }));
    await pushManifest(target, 'test/sixbad', 'v1', manifest, MEDIA.dockerManifest);
    const svc = await service();
    await expect(svc.pullImage({ image: { image: `${registry.host}/test/sixbad:v1` } })).rejects.toThrow(/larger than|declares/);
    const root = join(dir, `root${rootN - 1}`);
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    expect(readdirSync(join(root, 'snapshots', '.tmp'))).toEqual([]);
    expect((await svc.listImages({})).images).toEqual([]);
  }, 30_000);

  it('turns the old image into <none> when a tag moves, and removes by name, ID prefix and digest', async () => {
    const svc = await service();
    const ref = `${registry.host}/test/moving:latest`;
    const first = await pushImage(target, 'test/moving', 'latest', [await layer([{ name: 'v', type: 'file', data: '1' }])]);
    await svc.pullImage({ image: { image: ref } });
    const second = await pushImage(target, 'test/moving', 'latest', [await layer([{ name: 'v', type: 'file', data: '2' }])]);
    await svc.pullImage({ image: { image: ref } });
    const images = (await svc.listImages({})).images;
    expect(images.map((i) => [i.id, i.repoTags])).toEqual([
      [second.configDigest, [ref]],
      [first.configDigest, []],
    ]);
    await svc.tag(ref, 'localhost/extra:1');
    expect((await svc.imageStatus({ image: { image: 'localhost/extra:1' } })).image?.id).toBe(second.configDigest);

    const usedBefore = Number((await svc.imageFsInfo({})).imageFilesystems[0]!.usedBytes!.value);
    await svc.untag('localhost/extra:1');
    expect((await svc.imageStatus({ image: { image: ref } })).image?.repoTags).toEqual([ref]);
    await expect(svc.untag('localhost/extra:1')).rejects.toThrow(/not found/);
    await svc.removeImage({ image: { image: first.configDigest.slice(7, 20) } });
    await svc.removeImage({ image: { image: `${registry.host}/test/moving@${second.manifestDigest}` } });
    expect((await svc.listImages({})).images).toEqual([]);
    await svc.removeImage({ image: { image: ref } });
    // Removal collects the content at once; a later gc finds nothing left.
    const root = join(dir, `root${rootN - 1}`);
    expect(readdirSync(join(root, 'snapshots')).filter((n) => n !== '.tmp')).toEqual([]);
    // The removed snapshots' files go after the call returns, and do go.
    await svc.ctx.layers.deletionsSettled();
    expect(readdirSync(join(root, 'snapshots', '.tmp'))).toEqual([]);
    expect(readdirSync(join(root, 'content', 'blobs', 'sha256'))).toEqual([]);
    expect(Number((await svc.imageFsInfo({})).imageFilesystems[0]!.usedBytes!.value)).toBeLessThan(usedBefore);
    expect(await svc.gc()).toEqual({ blobsRemoved: [], snapshotsRemoved: [] });
  });

  it('pulls zstd and uncompressed OCI layers', async () => {
    const { execFileSync: run } = await import('node:child_process');
    const { tarOf } = await import('./image-fixtures.js');
    const tar = await tarOf([{ name: 'z', type: 'file', data: 'zstd layer' }]);
    const blob = run('zstd', ['-q', '-c'], { input: tar });
    const z = { blob, digest: sha256Digest(blob), diffId: sha256Digest(tar), mediaType: MEDIA.ociLayerZstd };
    await pushImage(target, 'test/zstd', 'v1', [z, await layer([{ name: 'plain', type: 'file', data: 'p' }], false)]);
    const svc = await service();
    await svc.pullImage({ image: { image: `${registry.host}/test/zstd:v1` } });
    const resolved = await svc.resolveImage(`${registry.host}/test/zstd:v1`);
    expect(readFileSync(join(resolved.snapshotDirs[1]!, 'z'), 'utf8')).toBe('zstd layer');
    expect(readFileSync(join(resolved.snapshotDirs[0]!, 'plain'), 'utf8')).toBe('p');
  });

  it.runIf(fileSystemOf('/tmp') === 'ext2/ext3')(
    'unpacks layers in a dir flagged for ext4 to place each apart from the root (chattr +T), in a root made before too',
    async () => {
      // A root an older daemon made: its unpack dir exists, unflagged.
      const root = join(dir, 'root-made-before');
      mkdirSync(join(root, 'snapshots', '.tmp'), { recursive: true, mode: 0o700 });
      const flags = () => dirAttributes(join(root, 'snapshots', '.tmp'));
      expect(flags()).not.toContain('T');
      await pushImage(target, 'test/placed', 'v1', [await layer([{ name: 'bin/busybox', type: 'file', data: 'bb', mode: 0o755 }, ...Array.from({ length: 40 }, (_, i) => ({ name: `bin/applet-${i}`, type: 'symlink' as const, linkname: 'busybox' }))])]);
      const svc = await ImageService.open({ root, state: join(dir, 'state-placed'), authFile: join(dir, 'auths-placed.json') });
      await svc.pullImage({ image: { image: `${registry.host}/test/placed:v1` } });
      expect(flags()).toContain('T');
      const [layerDir] = (await svc.resolveImage(`${registry.host}/test/placed:v1`)).snapshotDirs;
      expect(readlinkSync(join(layerDir!, 'bin/applet-39'))).toBe('busybox');
    },
  );

  it('deletes a removed layer in the background with no file system call per entry from the daemon, none queued behind another', async () => {
    const entries = [
      { name: 'bin/busybox', type: 'file' as const, data: 'bb', mode: 0o755 },
      ...Array.from({ length: 300 }, (_, i) => ({ name: `bin/applet-${i}`, type: 'symlink' as const, linkname: 'busybox' })),
      ...Array.from({ length: 20 }, (_, i) => ({ name: `etc/conf-${i}/file`, type: 'file' as const, data: `${i}` })),
    ];
    await pushImage(target, 'test/removed-layer', 'v1', [await layer(entries)]);
    const svc = await service();
    const ref = `${registry.host}/test/removed-layer:v1`;
    await svc.pullImage({ image: { image: ref } });
    const [layerDir] = (await svc.resolveImage(ref)).snapshotDirs;
    // Thread-pool requests from RemoveImage to the layer's end: all of them, and the most sent and
    // not yet answered at once.
    let requests = 0;
    let inFlight = 0;
    let most = 0;
    const pending = new Set<number>();
    const hook = createHook({
      init(id, type) {
        if (!type.startsWith('FSREQ')) return;
        requests++;
        pending.add(id);
        most = Math.max(most, ++inFlight);
      },
      before(id) {
        if (pending.delete(id)) inFlight--;
      },
    });
    hook.enable();
    try {
      await svc.removeImage({ image: { image: ref } });
      expect(existsSync(layerDir!)).toBe(false);
      await svc.ctx.layers.deletionsSettled();
    } finally {
      hook.disable();
    }
    expect(readdirSync(join(dir, `root${rootN - 1}`, 'snapshots', '.tmp'))).toEqual([]);
    // The layer has 343 entries: RemoveImage's own work (records, gc's listings) is far fewer.
    expect(requests).toBeLessThan(100);
    expect(most).toBeLessThanOrEqual(8);
  });

  it('shares the work of two concurrent pulls of one image', async () => {
    const layers = await Promise.all([1, 2, 3].map((i) => layer([{ name: `f${i}`, type: 'file', data: Buffer.alloc(300_000, i) }])));
    const pushed = await pushImage(target, 'test/concurrent', 'v1', layers);
    const root = join(dir, 'shared-root');
    const a = await ImageService.open({ root, state: join(dir, 'sa'), authFile: join(dir, 'sa.json') });
    const b = await ImageService.open({ root, state: join(dir, 'sb'), authFile: join(dir, 'sb.json') });
    const ref = `${registry.host}/test/concurrent:v1`;
    const results = await Promise.all([a.pullImage({ image: { image: ref } }), b.pullImage({ image: { image: ref } })]);
    expect(results.map((r) => r.imageRef)).toEqual([pushed.configDigest, pushed.configDigest]);
    expect((await a.listImages({})).images).toHaveLength(1);
    expect(readdirSync(join(root, 'snapshots')).filter((n) => n !== '.tmp')).toHaveLength(3);
  });
});

describe('pull: every digest a registry names is checked before it names a file or a URL', () => {
  const up = '../'.repeat(12);
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));

  /** A registry on loopback serving `manifests` by repository and the blobs it is given; it records every request. */
  async function servedBy(manifests: Record<string, { body: Buffer; type: string }>, blobs: Buffer[]) {
    const byDigest = new Map(blobs.map((b) => [sha256Digest(b), b]));
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      const m = /^\/v2\/(.+)\/manifests\/v1$/.exec(req.url ?? '');
      const blob = /\/blobs\/(.+)$/.exec(req.url ?? '')?.[1];
      if (req.url === '/v2/') res.writeHead(200).end('{}');
      else if (m && manifests[m[1]!]) res.writeHead(200, { 'Content-Type': manifests[m[1]!]!.type }).end(manifests[m[1]!]!.body);
      else if (blob && byDigest.has(decodeURIComponent(blob))) res.writeHead(200).end(byDigest.get(decodeURIComponent(blob)));
      else res.writeHead(404).end('{"errors":[{"code":"NOT_FOUND"}]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { host, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  async function image(opts: { configDigest?: string; layerDigest?: string; diffId?: string } = {}) {
    const l = await layer([{ name: 'f', type: 'file', data: 'x' }]);
    const config = json({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [opts.diffId ?? l.diffId] } });
    const manifest = json({
      schemaVersion: 2,
      mediaType: MEDIA.dockerManifest,
      config: { mediaType: MEDIA.dockerConfig, digest: opts.configDigest ?? sha256Digest(config), size: config.length },
      layers: [{ mediaType: l.mediaType, digest: opts.layerDigest ?? l.digest, size: l.blob.length }],
    });
    return { manifest, blobs: [config, l.blob], layerDigest: l.digest };
  }

  it('refuses hostile config, manifest, layer and diff-ID digests, asks the registry for none of them, and keeps nothing', async () => {
    const shadow = await image({ configDigest: `sha256:${up}etc/shadow` });
    const good = await image();
    const upper = `sha256:${good.layerDigest.slice(7).toUpperCase()}`;
    const mixed = await image({ layerDigest: upper });
    const short = await image({ layerDigest: good.layerDigest.slice(0, -1) });
    const diff = await image({ diffId: `sha256:${up}etc` });
    const index = json({ schemaVersion: 2, mediaType: MEDIA.ociIndex, manifests: [{ mediaType: MEDIA.dockerManifest, digest: `sha256:${up}dev/zero`, size: 100, platform: { os: 'linux', architecture: 'amd64' } }] });
    const m = (body: Buffer) => ({ body, type: MEDIA.dockerManifest });
    const registry = await servedBy(
      { 'evil/config': m(shadow.manifest), 'evil/mixed': m(mixed.manifest), 'evil/short': m(short.manifest), 'evil/diff': m(diff.manifest), 'evil/index': { body: index, type: MEDIA.ociIndex } },
      [...shadow.blobs, ...diff.blobs],
    );
    try {
      const svc = await service();
      const pullOf = (repo: string) => svc.pullImage({ image: { image: `${registry.host}/evil/${repo}:v1` } });
      await expect(pullOf('config')).rejects.toThrow(/^invalid config digest "sha256:(\.\.\/)+etc\/shadow"/);
      await expect(pullOf('mixed')).rejects.toThrow(`invalid digest of layer 1 "${upper}"`);
      await expect(pullOf('short')).rejects.toThrow(`invalid digest of layer 1 "${good.layerDigest.slice(0, -1)}"`);
      await expect(pullOf('diff')).rejects.toThrow(/^invalid diff ID of layer 1 "sha256:(\.\.\/)+etc"/);
      await expect(pullOf('index')).rejects.toThrow(/^invalid manifest digest "sha256:(\.\.\/)+dev\/zero"/);
      expect(registry.requests.filter((r) => r.includes('..') || r.includes('%2E') || /[A-F]{8}/.test(r))).toEqual([]);
      expect((await svc.listImages({})).images).toEqual([]);
      expect(await svc.ctx.layers.list()).toEqual([]);
    } finally {
      await registry.close();
    }
  });
});
