// The single executable's asset extraction (src/sea/extract.ts): a private parent checked, not
// assumed, and the files put in place whole, once per content.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, extractAssets, pickUnpackBase, unpackCandidates } from '../../src/sea/extract.js';

describe('sea asset extraction', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ist-seax-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const manifest = { hash: 'a'.repeat(64), files: { 'build/pinns/pinns': 0o755, 'dist/descriptors/x.json': 0o644 } };
  const content: Record<string, string> = { 'build/pinns/pinns': '#!/bin/sh\n', 'dist/descriptors/x.json': '{}' };

  it('writes each asset with its mode under a directory named after the content, and reuses it', () => {
    const base = join(dir, 'sea');
    let reads = 0;
    const read = (k: string) => (reads++, Buffer.from(content[k]!));
    const root = extractAssets(manifest, read, base);
    expect(root).toBe(join(base, 'aaaaaaaaaaaaaaaa'));
    expect(readFileSync(join(root, 'build/pinns/pinns'), 'utf8')).toBe('#!/bin/sh\n');
    expect(statSync(join(root, 'build/pinns/pinns')).mode & 0o777).toBe(0o755);
    expect(statSync(join(root, 'dist/descriptors/x.json')).mode & 0o777).toBe(0o644);
    expect(statSync(base).mode & 0o777).toBe(0o700);
    expect(extractAssets(manifest, read, base)).toBe(root);
    expect(reads).toBe(2); // the second start read nothing
  });

  it('refuses a parent that is a symlink, open to others, or not ours', () => {
    mkdirSync(join(dir, 'real'), { mode: 0o700 });
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(() => ensurePrivateDir(join(dir, 'link'))).toThrow(/is not a directory/);
    mkdirSync(join(dir, 'open'));
    chmodSync(join(dir, 'open'), 0o777);
    expect(() => ensurePrivateDir(join(dir, 'open'))).toThrow(/open to other users \(mode 777\)/);
    expect(() => ensurePrivateDir(join(dir, 'real'), 4242)).toThrow(/belongs to uid 0, not 4242/);
  });

  it('refuses a manifest whose paths leave the root, leaving no partial directory', () => {
    const base = join(dir, 'sea');
    expect(() => extractAssets({ hash: 'b'.repeat(64), files: { '../evil': 0o644 } }, () => Buffer.from('x'), base)).toThrow(/asset path/);
    expect(existsSync(join(base, 'bbbbbbbbbbbbbbbb'))).toBe(false);
    expect(() => extractAssets({ hash: 'nothex', files: {} }, () => Buffer.alloc(0), base)).toThrow(/manifest/);
  });

  it('puts root under /var/lib/isulats (not the noexec /run), others under XDG_RUNTIME_DIR, the temp dir or ~/.cache; ISULATS_SEA_DIR alone when set', () => {
    expect(unpackCandidates({}, 0)).toEqual(['/var/lib/isulats/sea']);
    expect(unpackCandidates({ XDG_RUNTIME_DIR: '/run/user/0' }, 0)).toEqual(['/run/user/0/isulats-sea', '/var/lib/isulats/sea']);
    expect(unpackCandidates({ XDG_RUNTIME_DIR: '/run/user/1000', HOME: '/home/u' }, 1000)).toEqual(['/run/user/1000/isulats-sea', join(tmpdir(), 'isulats-sea-1000'), '/home/u/.cache/isulats-sea']);
    expect(unpackCandidates({ ISULATS_SEA_DIR: '/opt/isulats/sea', XDG_RUNTIME_DIR: '/run/user/0' }, 0)).toEqual(['/opt/isulats/sea']);
  });

  it('takes the first candidate not on a noexec mount, and refuses in one line when none fits', () => {
    const noexec = (d: string) => d.startsWith('/run/');
    expect(pickUnpackBase(['/run/user/0/isulats-sea', '/var/lib/isulats/sea'], noexec)).toBe('/var/lib/isulats/sea');
    expect(() => pickUnpackBase(['/run/isulats/sea'], noexec)).toThrow('cannot unpack: /run/isulats/sea is on a noexec mount; set ISULATS_SEA_DIR to a directory where files may run');
    expect(() => pickUnpackBase(['/run/a', '/run/b'], noexec)).toThrow(/^cannot unpack: \/run\/a, \/run\/b are on a noexec mount/);
  });
});
