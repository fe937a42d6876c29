// Tree removal through the trash: the path is gone when discard() returns (one rename), the tree is
// deleted in the background, leftovers of a killed process go at the next emptyTrash().
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discard, drainTrash, emptyTrash, makeTrash } from '../../src/runtime/store/trash.js';
import { newId } from '../../src/runtime/store/id-registry.js';
import { StateStore } from '../../src/runtime/store/state-store.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

/** A container-like tree: record, bundle with nested dirs, a rw layer with many files. */
async function makeTree(path: string, files = 200): Promise<void> {
  await mkdir(join(path, 'bundle', 'persist'), { recursive: true });
  await writeFile(join(path, 'meta.json'), '{}');
  await writeFile(join(path, 'bundle', 'config.json'), '{}');
  await mkdir(join(path, 'fs', 'var', 'cache'), { recursive: true });
  for (let i = 0; i < files; i++) await writeFile(join(path, 'fs', 'var', 'cache', `f${i}`), 'x'.repeat(64));
}

describe('trash', () => {
  let dir: string;
  let trash: string;

  beforeEach(async () => {
    dir = await makeTempDir('isttrash-');
    trash = join(dir, 'trash');
    await makeTrash(trash);
  });

  afterEach(async () => {
    await drainTrash();
    await removeTempDir(dir);
  });

  it('takes the path away at once and deletes the tree in the background', async () => {
    const path = join(dir, 'containers', 'c1');
    await makeTree(path);
    await discard(trash, path);
    expect(existsSync(path)).toBe(false);
    await drainTrash();
    expect(await readdir(trash)).toEqual([]);
    expect(await readdir(join(dir, 'containers'))).toEqual([]);
  });

  it('does nothing for a path that does not exist', async () => {
    await discard(trash, join(dir, 'nothing-here'));
    await drainTrash();
    expect(await readdir(trash)).toEqual([]);
  });

  it('still deletes the path when the trash dir has gone', async () => {
    const path = join(dir, 'c2');
    await makeTree(path, 3);
    await removeTempDir(trash);
    await discard(trash, path);
    expect(existsSync(path)).toBe(false);
  });

  it('empties what a killed process left in the trash', async () => {
    await makeTree(join(trash, 'c3-0123456789ab'), 20);
    await makeTree(join(trash, 'c4-0123456789ab'), 20);
    await emptyTrash(trash);
    await drainTrash();
    expect(await readdir(trash)).toEqual([]);
  });

  it('removes a StateStore record dir through the trash', async () => {
    const store = new StateStore<{ id: string }>(dir, 'containers');
    await store.init();
    const id = newId();
    await store.create({ id });
    await makeTree(join(store.objectDir(id), 'extra'), 50);
    await store.withLock(id, () => store.remove(id));
    expect(await store.get(id)).toBeUndefined();
    expect(existsSync(store.objectDir(id))).toBe(false);
    await drainTrash();
    expect(await readdir(join(dir, 'trash'))).toEqual([]);
  });
});
