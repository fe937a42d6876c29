// Pulls the same images with isulats and with the rig's containerd and compares
// the mounted root filesystems file by file: type, mode, owner, size, content,
// link target, device numbers, mtime, hardlink count and user xattrs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { lgetxattr, llistxattr } from '../../src/runtime/native.js';
import { OverlaySnapshotter } from '../../src/runtime/snapshot/overlay-snapshotter.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { layer, pushImage, richEntries } from './image-fixtures.js';

let dir: string;
let images: ImageService;
let snaps: OverlaySnapshotter;
const mounted: string[] = [];
const keys: string[] = [];
const ns = `isulats-cmp-${process.pid}`;
const socket = () => process.env.ISULATS_TEST_CONTAINERD!.replace(/^unix:\/\//, '');
const ctr = (...args: string[]) => execFileSync('ctr', ['--address', socket(), '--namespace', ns, ...args], { encoding: 'utf8', timeout: 120_000 });

function walk(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const p = join(root, r);
      const st = lstatSync(p);
      const kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : st.isSymbolicLink() ? 'link' : st.isCharacterDevice() ? 'chr' : st.isBlockDevice() ? 'blk' : st.isFIFO() ? 'fifo' : 'other';
      const xattrs = llistxattr(p)
        .filter((x) => !x.startsWith('trusted.overlay.'))
        .sort()
        .map((x) => `${x}=${lgetxattr(p, x)?.toString('hex')}`);
      // Parent dirs a layer does not list are created at extraction time by both: compare them as "recent".
      const mtime = kind === 'dir' && Date.now() - st.mtimeMs < 3_600_000 ? 'recent' : String(Math.floor(st.mtimeMs));
      const parts = [kind, (st.mode & 0o7777).toString(8), `${st.uid}:${st.gid}`, `mtime=${mtime}`, `nlink=${kind === 'dir' ? '-' : st.nlink}`, ...xattrs];
      if (kind === 'file') parts.push(`size=${st.size}`, createHash('sha256').update(readFileSync(p)).digest('hex'));
      if (kind === 'link') parts.push(`-> ${readlinkSync(p)}`);
      if (kind === 'chr' || kind === 'blk') parts.push(`rdev=${st.rdev}`);
      out.set(r, parts.join(' '));
      if (kind === 'dir') visit(r);
    }
  };
  visit('');
  return out;
}

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  dir = await makeTempDir('ist-cmp-');
  images = await ImageService.open({ root: join(dir, 'root'), state: join(dir, 'state'), authFile: join(dir, 'auths.json') });
  snaps = await OverlaySnapshotter.open({ root: join(dir, 'root'), state: join(dir, 'state'), images });
});
afterAll(async () => {
  for (const m of mounted) {
    try {
      ctr('images', 'unmount', '--rm', m);
    } catch {
      execFileSync('umount', ['-l', m], { stdio: 'ignore' });
    }
  }
  for (const k of keys) await snaps?.remove(k).catch(() => undefined);
  try {
    for (const ref of ctr('images', 'ls', '-q').split('\n').filter(Boolean)) ctr('images', 'rm', ref);
    ctr('content', 'prune', 'references');
    execFileSync('ctr', ['--address', socket(), 'namespaces', 'rm', ns], { stdio: 'ignore' });
  } catch {
    // best effort: the rig's teardown removes the whole containerd dir
  }
  if (dir) await removeTempDir(dir);
});

async function compare(ref: string, key: string): Promise<void> {
  ctr('images', 'pull', '--plain-http', ref);
  const theirs = join(dir, `ctd-${key}`);
  mkdirSync(theirs);
  ctr('images', 'mount', '--plain-http', ref, theirs);
  mounted.push(theirs);
  await images.pullImage({ image: { image: ref } });
  keys.push(key);
  const ours = (await snaps.prepare(key, ref)).mountpoint;
  const a = walk(ours);
  const b = walk(theirs);
  expect(a.size).toBeGreaterThan(0);
  expect([...a.entries()]).toEqual([...b.entries()]);
}

describe('unpacked images match containerd', () => {
  it('for the rig busybox image', async () => {
    await compare(process.env.ISULATS_TEST_BUSYBOX!, 'busybox');
  });

  it('for a layered image with whiteouts, opaque dirs, hardlinks, devices and xattrs', async () => {
    const url = `http://${process.env.ISULATS_TEST_REGISTRY}`;
    const l1 = await layer(richEntries());
    const l2 = await layer([
      { name: 'etc/.wh.old', type: 'file', data: '' },
      { name: 'var/cache/.wh..wh..opq', type: 'file', data: '' },
      { name: 'var/cache/b', type: 'file', data: 'b', mtime: 1_650_000_000 },
      { name: 'bin/tool', type: 'file', data: 'replaced', mode: 0o4755, mtime: 1_650_000_001 },
    ]);
    await pushImage({ url }, `isulats-cmp/rich-${process.pid}`, 'v1', [l1, l2]);
    await compare(`${process.env.ISULATS_TEST_REGISTRY}/isulats-cmp/rich-${process.pid}:v1`, 'rich');
  });
});
