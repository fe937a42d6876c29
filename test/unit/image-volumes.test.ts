// Image volume checks that need no runtime: what is refused before anything
// is made, the snapshot keys removal finds, and sub-paths kept inside the image.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImageVolumes, imageVolumeKeys, resolveSubPath } from '../../src/runtime/container/image-volumes.js';

const vol = (extra: Record<string, unknown> = {}) => ({ containerPath: '/models', hostPath: '', readonly: true, image: { image: 'registry.example.com/ml/weights:v1' }, ...extra });

describe('image volumes', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('keys a container\'s image volumes by mount index, skipping host-path mounts', () => {
    expect(imageVolumeKeys('abc', [{ containerPath: '/a', hostPath: '/x' }, vol(), vol({ containerPath: '/b' })])).toEqual(['abc-iv1', 'abc-iv2']);
    expect(imageVolumeKeys('abc', undefined)).toEqual([]);
  });

  it('refuses a host path, a writable volume and a missing container path, as containerd', () => {
    expect(() => checkImageVolumes([vol()])).not.toThrow();
    expect(() => checkImageVolumes([vol({ hostPath: '/etc' })])).toThrow(/host_path must be empty/);
    expect(() => checkImageVolumes([vol({ readonly: false })])).toThrow(expect.objectContaining({ kind: 'invalid-argument', message: expect.stringMatching(/readonly must be true/) }));
    expect(() => checkImageVolumes([vol({ containerPath: '' })])).toThrow(/container_path is required/);
  });

  it('resolves a sub-path to a directory inside the image only', () => {
    dir = mkdtempSync(join(tmpdir(), 'iv-unit-'));
    const root = join(dir, 'rootfs');
    mkdirSync(join(root, 'conf', 'app'), { recursive: true });
    writeFileSync(join(root, 'conf', 'file'), 'x');
    symlinkSync('/etc', join(root, 'escape'));
    symlinkSync('conf/app', join(root, 'inside'));
    expect(resolveSubPath(root, '', 'img')).toBe(root);
    expect(resolveSubPath(root, 'conf/app/', 'img')).toBe(join(root, 'conf', 'app'));
    expect(resolveSubPath(root, '/conf', 'img')).toBe(join(root, 'conf'));
    expect(resolveSubPath(root, 'inside', 'img')).toBe(join(root, 'conf', 'app'));
    // A link to `/etc` is the image's own /etc, never the host's: absent here, then present.
    expect(() => resolveSubPath(root, 'escape', 'img')).toThrow(expect.objectContaining({ kind: 'not-found' }));
    symlinkSync('/conf/app', join(root, 'absolute'));
    expect(resolveSubPath(root, 'absolute', 'img')).toBe(join(root, 'conf', 'app'));
    mkdirSync(join(root, 'etc'));
    expect(resolveSubPath(root, 'escape', 'img')).toBe(join(root, 'etc'));
    expect(() => resolveSubPath(root, 'conf/../../x', 'img')).toThrow(/leaves image img/);
    expect(() => resolveSubPath(root, 'conf/file', 'img')).toThrow(/is not a directory/);
    expect(() => resolveSubPath(root, 'nope', 'img')).toThrow(expect.objectContaining({ kind: 'not-found' }));
  });
});
