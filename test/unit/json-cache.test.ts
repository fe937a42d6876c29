// JsonFileCache against real files: a cached parse is served only while the file is unchanged.
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFileCache } from '../../src/runtime/store/json-cache.js';
import { writeJsonAtomic } from '../../src/runtime/store/atomic-file.js';

describe('JsonFileCache', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'ist-jc-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('sees every atomic replacement and in-place rewrite, and hands out copies', async () => {
    const cache = new JsonFileCache();
    const file = join(dir, 'a.json');
    await writeJsonAtomic(file, { n: 1 });
    await new Promise((r) => setTimeout(r, 150));
    const first = await cache.read<{ n: number }>(file);
    expect(first).toEqual({ n: 1 });
    first.n = 99;
    expect(await cache.read(file)).toEqual({ n: 1 });
    for (let i = 2; i < 20; i++) {
      await writeJsonAtomic(file, { n: i });
      expect(await cache.read(file)).toEqual({ n: i });
    }
    await writeFile(file, '{"n":"same inode, other size"}');
    expect(await cache.read(file)).toEqual({ n: 'same inode, other size' });
    const other = join(dir, 'b.json');
    await writeFile(other, '{"n":"moved"}');
    await rename(other, file);
    expect(await cache.read(file)).toEqual({ n: 'moved' });
  });

  it('keeps no parse of a file changed within the last 100 ms (its change could repeat its stat)', async () => {
    const cache = new JsonFileCache();
    const held = () => [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()];
    const file = join(dir, 'racy.json');
    // Same size, same inode if the file system reuses it: only the times can differ, and coarsely.
    for (let i = 0; i < 5; i++) {
      await writeJsonAtomic(file, { n: i });
      expect(await cache.read(file)).toEqual({ n: i });
    }
    expect(held()).toEqual([]);
    await new Promise((r) => setTimeout(r, 150));
    expect(await cache.read(file)).toEqual({ n: 4 });
    expect(held()).toEqual([file]);
  });

  it('answers the fallback for a missing file and forgets a removed one', async () => {
    const cache = new JsonFileCache();
    const file = join(dir, 'gone.json');
    expect(await cache.read(file, { tags: {} })).toEqual({ tags: {} });
    await writeJsonAtomic(file, { tags: { x: 'y' } });
    expect(await cache.read(file, { tags: {} })).toEqual({ tags: { x: 'y' } });
    await rm(file);
    expect(await cache.read(file, { tags: {} })).toEqual({ tags: {} });
    await expect(cache.read(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps at most its bound, dropping the least recently used', async () => {
    const cache = new JsonFileCache(2);
    const files = ['x', 'y', 'z'].map((n) => join(dir, `${n}.json`));
    for (const [i, f] of files.entries()) await writeJsonAtomic(f, { i });
    await new Promise((r) => setTimeout(r, 150));
    await cache.read(files[0]!);
    await cache.read(files[1]!);
    await cache.read(files[0]!);
    await cache.read(files[2]!);
    const held = [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()];
    expect(held).toEqual([files[0], files[2]]);
  });
});
