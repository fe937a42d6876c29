import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageService } from '../../src/runtime/image/image-service.js';
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
