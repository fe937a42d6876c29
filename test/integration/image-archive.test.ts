import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { MEDIA } from '../../src/runtime/image/manifest.js';
import type { TarWriteEntry } from '../../src/runtime/image/tar-writer.js';
import { layer, tarOf } from './image-fixtures.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

let dir: string;
let n = 0;
const open = () => {
  const i = n++;
  return ImageService.open({ root: join(dir, `r${i}`), state: join(dir, `s${i}`), authFile: join(dir, `a${i}.json`) });
};

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  dir = await makeTempDir('ist-arch-');
  const rootfs = join(dir, 'rootfs');
  mkdirSync(join(rootfs, 'bin'), { recursive: true });
  writeFileSync(join(rootfs, 'bin', 'app'), '#!/bin/sh\n', { mode: 0o755 });
  symlinkSync('app', join(rootfs, 'bin', 'alias'));
});
afterAll(async () => {
  if (dir) await removeTempDir(dir);
});

describe('build, save and load', () => {
  it('builds an image from a directory with the given config', async () => {
    const svc = await open();
    const id = await svc.buildFromRootfs(join(dir, 'rootfs'), 'localhost/app:1', { Cmd: ['/bin/app'], User: 'daemon', created: '2024-01-01T00:00:00Z' });
    const resolved = await svc.resolveImage('localhost/app:1');
    expect(resolved.id).toBe(id);
    expect(resolved.ref).toBe('localhost/app:1');
    expect(resolved.config.config?.Cmd).toEqual(['/bin/app']);
    expect(lstatSync(join(resolved.snapshotDirs[0]!, 'bin', 'alias')).isSymbolicLink()).toBe(true);
    const img = (await svc.listImages({})).images[0]!;
    expect([img.username, img.uid]).toEqual(['daemon', null]);
  });

  it.each(['docker-archive', 'oci-archive'] as const)('round-trips through a %s tarball that skopeo reads too', async (format) => {
    const a = await open();
    const id = await a.buildFromRootfs(join(dir, 'rootfs'), 'localhost/app:2', { created: '2024-01-01T00:00:00Z' });
    const tar = join(dir, `saved-${format}.tar`);
    await a.save(['localhost/app:2'], tar, format);
    const inspected = JSON.parse(execFileSync('skopeo', ['inspect', '--raw', `${format}:${tar}`], { encoding: 'utf8' })) as { layers: unknown[] };
    expect(inspected.layers).toHaveLength(1);
    const b = await open();
    const loaded = await b.load(tar);
    expect(loaded).toEqual([{ id, tags: ['localhost/app:2'] }]);
    const resolved = await b.resolveImage('localhost/app:2');
    expect(readFileSync(join(resolved.snapshotDirs[0]!, 'bin', 'app'), 'utf8')).toBe('#!/bin/sh\n');
  });

  it('loads a docker-archive written by skopeo', async () => {
    const a = await open();
    await a.buildFromRootfs(join(dir, 'rootfs'), 'localhost/app:3', { created: '2024-01-01T00:00:00Z' });
    const oci = join(dir, 'for-skopeo.tar');
    await a.save(['localhost/app:3'], oci, 'oci-archive');
    const dockerTar = join(dir, 'by-skopeo.tar');
    execFileSync('skopeo', ['copy', '-q', `oci-archive:${oci}`, `docker-archive:${dockerTar}:localhost/other:9`]);
    const b = await open();
    const loaded = await b.load(dockerTar);
    expect(loaded[0]!.tags).toEqual(['localhost/other:9']);
    expect(readFileSync(join((await b.resolveImage('localhost/other:9')).snapshotDirs[0]!, 'bin', 'app'), 'utf8')).toBe('#!/bin/sh\n');
  });

  it('imports a gzipped rootfs tarball as a one-layer image', async () => {
    const tgz = join(dir, 'rootfs.tgz');
    execFileSync('tar', ['-C', join(dir, 'rootfs'), '-czf', tgz, '.']);
    const svc = await open();
    const id = await svc.importRootfs(tgz, 'localhost/imported:1');
    const resolved = await svc.resolveImage(id);
    expect(lstatSync(join(resolved.snapshotDirs[0]!, 'bin', 'app')).mode & 0o777).toBe(0o755);
  });

  it('rejects a tarball that is neither format', async () => {
    const bogus = join(dir, 'bogus.tar');
    execFileSync('tar', ['-C', join(dir, 'rootfs'), '-cf', bogus, 'bin']);
    const svc = await open();
    await expect(svc.load(bogus)).rejects.toThrow(/neither a docker-archive/);
  });
});

describe('hostile archives: every digest is checked before it names a file', () => {
  const up = '../'.repeat(24);
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  const blob = (body: Buffer): TarWriteEntry => ({ name: `blobs/sha256/${sha256Digest(body).slice(7)}`, type: 'file', data: body });

  /** An OCI archive whose index lists `manifests`, holding `blobs` (and `extra` entries). */
  async function ociArchive(name: string, manifests: unknown[], blobs: Buffer[] = [], extra: TarWriteEntry[] = []): Promise<string> {
    const path = join(dir, `${name}.tar`);
    writeFileSync(path, await tarOf([
      { name: 'oci-layout', type: 'file', data: JSON.stringify({ imageLayoutVersion: '1.0.0' }) },
      { name: 'index.json', type: 'file', data: JSON.stringify({ schemaVersion: 2, mediaType: MEDIA.ociIndex, manifests }) },
      ...blobs.map(blob),
      ...extra,
    ]));
    return path;
  }

  /** A well-formed image whose config or layer descriptor carries `configDigest` / `layerDigest` when given. */
  async function image(opts: { configDigest?: string; layerDigest?: string; diffId?: string } = {}) {
    const l = await layer([{ name: 'etc/motd', type: 'file', data: 'hi\n' }]);
    const config = json({ architecture: 'amd64', os: 'linux', config: {}, rootfs: { type: 'layers', diff_ids: [opts.diffId ?? l.diffId] } });
    const manifest = json({
      schemaVersion: 2,
      mediaType: MEDIA.ociManifest,
      config: { mediaType: MEDIA.ociConfig, digest: opts.configDigest ?? sha256Digest(config), size: config.length },
      layers: [{ mediaType: l.mediaType, digest: opts.layerDigest ?? l.digest, size: l.blob.length }],
    });
    return { blobs: [config, l.blob, manifest], desc: { mediaType: MEDIA.ociManifest, digest: sha256Digest(manifest), size: manifest.length } };
  }

  /** Loads `tar` into a fresh store, expects `message`, and checks that nothing was kept. */
  async function refused(tar: string, message: RegExp): Promise<void> {
    const svc = await open();
    await expect(svc.load(tar, 'localhost/hostile:1')).rejects.toThrow(message);
    expect((await svc.listImages({})).images).toEqual([]);
    expect(await svc.ctx.layers.list()).toEqual([]);
    expect(readdirSync(svc.ctx.blobs.tmpDir)).toEqual([]);
  }

  it.each([
    ['/dev/zero', `sha256:${up}dev/zero`],
    ['/etc/shadow', `sha256:${up}etc/shadow`],
    ['the issue\'s /dev/zero', 'sha256:../../../../dev/zero'],
  ])('refuses an index naming %s by a digest, before opening it', async (_what, digest) => {
    const tar = await ociArchive(`index-${sha256Digest(digest).slice(7, 15)}`, [{ mediaType: MEDIA.ociManifest, digest, size: 100 }]);
    await refused(tar, new RegExp(`invalid manifest digest ${escape(JSON.stringify(digest))}`));
  });

  it('refuses a manifest whose config digest names /etc/shadow', async () => {
    const img = await image({ configDigest: `sha256:${up}etc/shadow` });
    await refused(await ociArchive('config-shadow', [img.desc], img.blobs), /invalid config digest "sha256:(\.\.\/)+etc\/shadow"/);
  });

  it.each([
    ['mixed-case hex', (d: string) => `sha256:${d.slice(7, 39).toUpperCase()}${d.slice(39)}`],
    ['a hex one digit short', (d: string) => d.slice(0, -1)],
    ['a hex one digit long', (d: string) => `${d}0`],
  ])('refuses a layer digest with %s', async (what, bad) => {
    const good = await image();
    const layerDigest = bad(sha256Digest(good.blobs[1]!));
    const img = await image({ layerDigest });
    await refused(await ociArchive(`layer-${what.replace(/\W+/g, '-')}`, [img.desc], img.blobs), new RegExp(`invalid layer digest ${escape(JSON.stringify(layerDigest))}`));
  });

  it('refuses a diff ID that is not a digest', async () => {
    const img = await image({ diffId: `sha256:${up}etc` });
    await refused(await ociArchive('diff-id', [img.desc], img.blobs), /invalid diff ID of layer 1 "sha256:(\.\.\/)+etc"/);
  });

  it.each([
    ['a FIFO', { type: 'fifo' } as const],
    ['a device (1:5, /dev/zero)', { type: 'char', devmajor: 1, devminor: 5 } as const],
    ['a symlink to /etc/shadow', { type: 'symlink', linkname: '/etc/shadow' } as const],
  ])('refuses a manifest digest that names %s in the archive', async (what, entry) => {
    const digest = sha256Digest(what);
    const tar = await ociArchive(`special-${digest.slice(7, 15)}`, [{ mediaType: MEDIA.ociManifest, digest, size: 10 }], [], [
      { name: 'blobs', type: 'directory' },
      { name: 'blobs/sha256', type: 'directory' },
      { name: `blobs/sha256/${digest.slice(7)}`, mode: 0o644, ...entry },
    ]);
    await refused(tar, new RegExp(`manifest digest ${digest} is not in the archive`));
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
