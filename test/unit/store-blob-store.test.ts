import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { BlobStore } from '../../src/runtime/store/blob-store.js';

let root: string;
let store: BlobStore;

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  root = await mkdtemp(join(tmpdir(), 'ist-blob-'));
  store = new BlobStore(root);
  await store.init();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function* chunks(...parts: string[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield Buffer.from(p);
}

describe('blob store', () => {
  it('stores content under its digest and deduplicates', async () => {
    const digest = sha256Digest('hello world');
    expect(await store.ensure(digest, async () => chunks('hello ', 'world'), 11)).toBe(true);
    expect(await store.ensure(digest, async () => chunks('never read'), 11)).toBe(false);
    expect((await store.read(digest)).toString()).toBe('hello world');
    expect(await store.list()).toContain(digest);
  });

  it('refuses content whose digest lies and leaves nothing behind', async () => {
    const digest = sha256Digest('expected');
    await expect(store.ensure(digest, async () => chunks('something else'))).rejects.toThrow(/digest mismatch/);
    expect(await store.has(digest)).toBe(false);
    expect(await readdir(join(root, 'tmp'))).toEqual([]);
  });

  it('refuses content longer than its descriptor says', async () => {
    const digest = sha256Digest('abcdef');
    await expect(store.ensure(digest, async () => chunks('abc', 'def'), 3)).rejects.toThrow(/larger than/);
  });

  it('runs one download when two writers race for a blob', async () => {
    const digest = sha256Digest('race');
    let calls = 0;
    const source = async () => {
      calls++;
      return chunks('ra', 'ce');
    };
    const results = await Promise.all([store.ensure(digest, source), store.ensure(digest, source)]);
    expect(results.sort()).toEqual([false, true]);
    expect(calls).toBe(1);
  });

  it('stores streams of unknown digest', async () => {
    const { digest, size } = await store.putStream(chunks('x', 'yz'));
    expect(digest).toBe(sha256Digest('xyz'));
    expect(size).toBe(3);
  });

  it('cleans temp files of dead processes at init but keeps those of live ones', async () => {
    await mkdir(join(root, 'tmp'), { recursive: true });
    await writeFile(join(root, 'tmp', '999999-dead-blob'), 'x');
    await writeFile(join(root, 'tmp', `${process.ppid}-live-blob`), 'x');
    await new BlobStore(root).init();
    expect(await readdir(join(root, 'tmp'))).toEqual([`${process.ppid}-live-blob`]);
    await rm(join(root, 'tmp', `${process.ppid}-live-blob`));
  });
});
