import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markTopDirectory } from '../../src/runtime/native.js';
import { dirAttributes, fileSystemOf } from '../rig/dir-attributes.js';

const attributes = dirAttributes;

let base: string;
let shm: string;
beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  base = await mkdtemp('/tmp/ist-topdir-');
  shm = await mkdtemp('/dev/shm/ist-topdir-');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(shm, { recursive: true, force: true });
});

describe('markTopDirectory', () => {
  it.runIf(fileSystemOf('/tmp') === 'ext2/ext3')('flags an ext4 directory as the top of directory hierarchies (chattr +T), again without error', async () => {
    const dir = join(base, 'snapshots-tmp');
    await mkdir(dir);
    expect(attributes(dir)).not.toContain('T');
    expect(markTopDirectory(dir)).toBe(true);
    expect(attributes(dir)).toContain('T');
    expect(markTopDirectory(dir)).toBe(true);
    expect(attributes(dir)).toContain('T');
  });

  it('answers false where the file system keeps no such flag (tmpfs)', () => {
    expect(fileSystemOf(shm)).toBe('tmpfs');
    expect(markTopDirectory(shm)).toBe(false);
  });

  it('throws with the code of what is not a directory', async () => {
    const file = join(base, 'a-file');
    await writeFile(file, 'x');
    expect(() => markTopDirectory(join(base, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => markTopDirectory(file)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });
});
