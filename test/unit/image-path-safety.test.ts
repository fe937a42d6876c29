import { describe, expect, it } from 'vitest';
import { entryComponents, resolveInRoot, type FsProbe } from '../../src/runtime/image/path-safety.js';

function fakeFs(tree: Record<string, string | 'dir' | 'file'>): FsProbe {
  return {
    probe(path) {
      const rel = path.replace(/^\/r\/?/, '');
      const node = tree[rel];
      if (node === undefined) return { kind: 'missing' };
      if (node === 'dir') return { kind: 'dir' };
      if (node === 'file') return { kind: 'other' };
      return { kind: 'symlink', target: node };
    },
  };
}

describe('entry names', () => {
  it.each([
    ['./a/b', ['a', 'b']],
    ['/abs/x', ['abs', 'x']],
    ['a//b/./c/', ['a', 'b', 'c']],
    ['./', []],
  ])('%s -> %j', (name, want) => {
    expect(entryComponents(name)).toEqual(want);
  });

  it.each(['../x', 'a/../../x', 'a/..', '..'])('refuses %s', (name) => {
    expect(() => entryComponents(name)).toThrow(/climbs out/);
  });
});

describe('resolving parents inside the root', () => {
  it('keeps plain paths', () => {
    expect(resolveInRoot('/r', ['a', 'b', 'c'], fakeFs({ a: 'dir', 'a/b': 'dir' }))).toEqual(['a', 'b', 'c']);
  });

  it('follows a relative parent symlink inside the root', () => {
    expect(resolveInRoot('/r', ['lib', 'x'], fakeFs({ lib: 'usr/lib', usr: 'dir', 'usr/lib': 'dir' }))).toEqual(['usr', 'lib', 'x']);
  });

  it('re-roots absolute symlink targets at the layer root', () => {
    expect(resolveInRoot('/r', ['etc', 'x'], fakeFs({ etc: '/tmp/evil' }))).toEqual(['tmp', 'evil', 'x']);
  });

  it('refuses a symlink that climbs above the root', () => {
    expect(() => resolveInRoot('/r', ['esc', 'x'], fakeFs({ esc: '../../outside' }))).toThrow(/above its root/);
  });

  it('never follows the final component', () => {
    expect(resolveInRoot('/r', ['a', 'link'], fakeFs({ a: 'dir', 'a/link': '/etc/passwd' }))).toEqual(['a', 'link']);
  });

  it('bounds symlink loops', () => {
    expect(() => resolveInRoot('/r', ['loop', 'x'], fakeFs({ loop: 'loop' }))).toThrow(/too many symlinks/);
  });

  it('refuses a parent that is a regular file', () => {
    expect(() => resolveInRoot('/r', ['f', 'x'], fakeFs({ f: 'file' }))).toThrow(/not a directory/);
  });
});
