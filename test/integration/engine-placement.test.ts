import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/runtime/engine.js';
import { dirAttributes, fileSystemOf } from '../rig/dir-attributes.js';

const flags = dirAttributes;
const onExt4 = fileSystemOf('/tmp') === 'ext2/ext3';

// The dirs each pod or container makes a tree of its own in (and root and state, whose subdirs are
// trees): flagged so ext4 places each new tree in a block group of its own choosing.
const parentsOfTrees = ['root', 'state', 'root/sandboxes', 'root/containers', 'root/containers-rw', 'root/snapshots/.tmp', 'state/runc'];
// Dirs that hold files directly: the flag would not move those.
const flatDirs = ['root/locks/sandboxes', 'root/locks/containers', 'root/names/sandboxes', 'state/exits', 'state/netns'];

let dir: string;
let shm: string;
beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  dir = await mkdtemp('/tmp/ist-place-');
  shm = await mkdtemp('/dev/shm/ist-place-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(shm, { recursive: true, force: true });
});

const open = (root: string, state: string) =>
  Engine.open({ root, state, cniConfDir: join(dir, 'cni'), cniBinDirs: ['/usr/lib/cni'], warn: () => undefined });

describe('where ext4 places the engine’s per-object trees', () => {
  it.runIf(onExt4)('flags the parents of pod, container, rw layer and runc state dirs as top directories (chattr +T) at open', async () => {
    const base = join(dir, 'fresh');
    const engine = await open(join(base, 'root'), join(base, 'state'));
    try {
      for (const d of parentsOfTrees) expect([d, flags(join(base, d))]).toEqual([d, expect.stringContaining('T')]);
      for (const d of flatDirs) expect([d, flags(join(base, d))]).toEqual([d, expect.not.stringContaining('T')]);
    } finally {
      await engine.close();
    }
  });

  it.runIf(onExt4)('flags them in a root an older version made, unflagged', async () => {
    const base = join(dir, 'made-before');
    for (const d of parentsOfTrees) mkdirSync(join(base, d), { recursive: true, mode: 0o700 });
    for (const d of parentsOfTrees) expect(flags(join(base, d))).not.toContain('T');
    const engine = await open(join(base, 'root'), join(base, 'state'));
    try {
      for (const d of parentsOfTrees) expect([d, flags(join(base, d))]).toEqual([d, expect.stringContaining('T')]);
    } finally {
      await engine.close();
    }
  });

  it('opens the same with its state on a file system without the flag (tmpfs)', async () => {
    expect(fileSystemOf(shm)).toBe('tmpfs');
    const engine = await open(join(dir, 'root-beside-tmpfs'), join(shm, 'state'));
    await engine.close();
  });
});
