import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRootfsFile, resolveInRootfs } from '../../src/runtime/oci/rootfs-path.js';

let base: string;
let n = 0;

/** A fresh rootfs with `setup` applied to it. */
function rootfs(setup: (root: string) => void): string {
  const root = join(base, `r${n++}`);
  mkdirSync(root);
  setup(root);
  return root;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ist-rootfs-path-'));
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('resolveInRootfs', () => {
  // Inside the rootfs, `etc -> /etc` and `etc -> ../../etc` name themselves: a loop, never the host's /etc.
  it.each([
    ['an absolute /etc link', (r: string) => symlinkSync('/etc', join(r, 'etc'))],
    ['a climbing relative /etc link', (r: string) => symlinkSync('../../../../../../../../etc', join(r, 'etc'))],
  ])('resolves %s to itself (ELOOP), never to the host', (_what, setup) => {
    const root = rootfs(setup);
    expect(() => resolveInRootfs(root, '/etc/passwd')).toThrow(/ELOOP/);
    expect(readRootfsFile(root, '/etc/passwd')).toBeUndefined();
  });

  it('keeps an /etc reached through another link (etc -> lib/x, lib -> /) inside the rootfs', () => {
    const root = rootfs((r) => {
      symlinkSync('lib/x', join(r, 'etc'));
      symlinkSync('/', join(r, 'lib'));
    });
    expect(resolveInRootfs(root, '/etc/passwd')).toBe(`${root}/x/passwd`);
    expect(readRootfsFile(root, '/etc/passwd')).toBeUndefined();
    mkdirSync(join(root, 'x'));
    writeFileSync(join(root, 'x/passwd'), 'in-image\n');
    expect(readRootfsFile(root, '/etc/passwd')).toBe('in-image\n');
  });

  it('resolves a link inside the rootfs to the image\'s file, never the host\'s', () => {
    const root = rootfs((r) => {
      mkdirSync(join(r, 'usr/share/base/etc'), { recursive: true });
      writeFileSync(join(r, 'usr/share/base/etc/passwd'), 'app:x:1234:1234::/home/app:/bin/sh\n');
      symlinkSync('../../../../../usr/share/base/etc', join(r, 'etc'));
    });
    expect(resolveInRootfs(root, 'etc/passwd')).toBe(`${root}/usr/share/base/etc/passwd`);
    expect(readRootfsFile(root, '/etc/passwd')).toContain('app:x:1234');
  });

  it('follows an absolute last component inside the rootfs (passwd -> /etc/shadow)', () => {
    const root = rootfs((r) => {
      mkdirSync(join(r, 'etc'));
      writeFileSync(join(r, 'etc/shadow'), 'image-shadow\n');
      symlinkSync('/etc/shadow', join(r, 'etc/passwd'));
    });
    expect(readRootfsFile(root, '/etc/passwd')).toBe('image-shadow\n');
    rmSync(join(root, 'etc/shadow'));
    expect(readRootfsFile(root, '/etc/passwd')).toBeUndefined();
  });

  it('clamps .. at the root and keeps missing components', () => {
    const root = rootfs((r) => mkdirSync(join(r, 'a')));
    expect(resolveInRootfs(root, '/../../a/../../b/c')).toBe(`${root}/b/c`);
    expect(resolveInRootfs(root, '/')).toBe(root);
    expect(resolveInRootfs(root, '')).toBe(root);
  });

  it('refuses a symlink loop with ELOOP', () => {
    const root = rootfs((r) => {
      symlinkSync('b', join(r, 'a'));
      symlinkSync('a', join(r, 'b'));
    });
    expect(() => resolveInRootfs(root, '/a/x')).toThrow(/ELOOP/);
    expect(readRootfsFile(root, '/a')).toBeUndefined();
  });

  it('never opens a FIFO or a device as /etc/passwd', () => {
    const root = rootfs((r) => {
      mkdirSync(join(r, 'etc'));
      execFileSync('mkfifo', [join(r, 'etc/passwd')]);
      symlinkSync('/dev/zero', join(r, 'etc/group'));
      mkdirSync(join(r, 'dev'));
    });
    expect(readRootfsFile(root, '/etc/passwd')).toBeUndefined(); // would block forever if opened plainly
    expect(readRootfsFile(root, '/etc/group')).toBeUndefined();
  });

  it('treats a file used as a directory as missing', () => {
    const root = rootfs((r) => writeFileSync(join(r, 'etc'), 'not a dir'));
    expect(resolveInRootfs(root, '/etc/passwd')).toBe(`${root}/etc/passwd`);
    expect(readRootfsFile(root, '/etc/passwd')).toBeUndefined();
  });
});
