import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, readFileSync, readlinkSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { applyTar, unpackLayerFile } from '../../src/runtime/image/layer-unpack.js';
import { readTar } from '../../src/runtime/image/tar-reader.js';
import { tarStream, type TarWriteEntry } from '../../src/runtime/image/tar-writer.js';
import { lgetxattr } from '../../src/runtime/native.js';
import { tarWithOffsets } from '../integration/image-fixtures.js';

let base: string;
beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  base = await mkdtemp(join(tmpdir(), 'ist-unpack-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function tarBuffer(entries: TarWriteEntry[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of tarStream(entries)) parts.push(b);
  return Buffer.concat(parts);
}

async function* once(buf: Buffer, chunk = 700): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += chunk) yield buf.subarray(i, i + chunk);
}

let n = 0;
async function freshDir(): Promise<string> {
  const d = join(base, `t${n++}`);
  await mkdir(d);
  return d;
}

describe('tar reader', () => {
  it('reads back long names, long link targets, xattrs and sizes from small chunks', async () => {
    const longName = `${'d'.repeat(90)}/${'f'.repeat(90)}`;
    const buf = await tarBuffer([
      { name: longName, type: 'file', data: 'abc', mode: 0o640, uid: 7, gid: 8, mtime: 1234, xattrs: { 'user.k': 'v' } },
      { name: 'l', type: 'symlink', linkname: `/${'t'.repeat(150)}` },
    ]);
    const seen: Array<{ name: string; body: string; link: string; x?: string }> = [];
    for await (const { entry, body } of readTar(once(buf, 100))) {
      const parts: Buffer[] = [];
      for await (const c of body) parts.push(c);
      seen.push({ name: entry.name, body: Buffer.concat(parts).toString(), link: entry.linkname, x: entry.xattrs.get('user.k')?.toString() });
      if (entry.type === 'file') expect(entry).toMatchObject({ mode: 0o640, uid: 7, gid: 8, mtime: 1234, size: 3 });
    }
    expect(seen).toEqual([
      { name: longName, body: 'abc', link: '', x: 'v' },
      { name: 'l', body: '', link: `/${'t'.repeat(150)}`, x: undefined },
    ]);
  });

  describe('archives that end early, as Go\'s archive/tar reads them', () => {
    // The last file's 700 bytes leave 324 bytes of padding before the next block.
    const entries: TarWriteEntry[] = [
      { name: 'etc', type: 'directory', mode: 0o755 },
      { name: `etc/${'long-name-'.repeat(12)}`, type: 'file', data: 'first\n' },
      { name: 'etc/motd', type: 'file', data: 'm'.repeat(700), mode: 0o644 },
    ];
    const read = async (buf: Buffer, chunk: number) => {
      const seen: Array<[string, number]> = [];
      for await (const { entry, body } of readTar(once(buf, chunk))) {
        let n = 0;
        for await (const c of body) n += c.length;
        seen.push([entry.name, n]);
      }
      return seen;
    };
    const cuts: Array<[string, (o: Awaited<ReturnType<typeof tarWithOffsets>>) => number]> = [
      ['right after the last entry\'s content', (o) => o.lastContentEnd],
      ['inside the last entry\'s padding', (o) => o.lastContentEnd + 100],
      ['at the block boundary after the padding', (o) => o.lastPaddingEnd],
      ['after one of the two end blocks', (o) => o.lastPaddingEnd + 512],
    ];

    it.each(cuts)('accepts an archive cut %s', async (_what, at) => {
      const o = await tarWithOffsets(entries);
      for (const chunk of [100, 700, 1 << 16]) {
        expect(await read(o.tar.subarray(0, at(o)), chunk)).toEqual([
          ['etc/', 0],
          [`etc/${'long-name-'.repeat(12)}`, 6],
          ['etc/motd', 700],
        ]);
      }
    });

    it('applies such a layer completely', async () => {
      const o = await tarWithOffsets(entries);
      const root = await freshDir();
      await applyTar(once(o.tar.subarray(0, o.lastContentEnd)), root);
      expect(readFileSync(join(root, 'etc/motd'), 'utf8')).toBe('m'.repeat(700));
    });

    it.each<[string, (o: Awaited<ReturnType<typeof tarWithOffsets>>) => number, RegExp]>([
      ['inside the last entry\'s content', (o) => o.lastContentEnd - 1, /truncated inside an entry/],
      ['inside the last entry\'s header', (o) => o.lastContentEnd - 700 - 100, /truncated inside a header/],
      ['inside a PAX header\'s records', (o) => 512 + 512 + 10, /truncated inside an entry/],
    ])('refuses an archive cut %s', async (_what, at, error) => {
      const o = await tarWithOffsets(entries);
      await expect(read(o.tar.subarray(0, at(o)), 100)).rejects.toThrow(error);
      const root = await freshDir();
      await expect(applyTar(once(o.tar.subarray(0, at(o))), root)).rejects.toThrow(error);
    });
  });

  it('rejects garbage with a clear error', async () => {
    await expect(async () => {
      for await (const _ of readTar(once(Buffer.alloc(512, 7))));
    }).rejects.toThrow(/checksum/);
  });

  it('checks every header byte against the checksum field, written with NULs or spaces', async () => {
    const tar = await tarBuffer([{ name: 'etc/hostname', type: 'file', data: 'node-7\n', mode: 0o644, uid: 1000, gid: 1000, mtime: 1_700_000_000 }]);
    const names = async (t: Buffer) => {
      const out: string[] = [];
      for await (const { entry } of readTar(once(t))) out.push(`${entry.name} ${entry.mode.toString(8)} ${entry.uid} ${entry.mtime}`);
      return out;
    };
    expect(await names(tar)).toEqual(['etc/hostname 644 1000 1700000000']);
    // The same checksum as "  NNNNN " (leading spaces, space-terminated), as some writers put it.
    const spaced = Buffer.from(tar);
    const digits = spaced.subarray(148, 156).toString('latin1').replace(/\0.*$/, '').trim();
    spaced.write(`${digits.padStart(7, ' ')} `, 148, 'latin1');
    expect(await names(spaced)).toEqual(['etc/hostname 644 1000 1700000000']);
    // Any byte changed, in any of the four positions of a word, fails the check.
    for (const at of [0, 101, 146, 263, 345, 510, 511]) {
      const bad = Buffer.from(tar);
      bad[at] = (bad[at]! + 1) & 0xff;
      await expect(names(bad)).rejects.toThrow(/checksum/);
    }
  });
});

describe('layer unpack', () => {
  it('writes files, dirs, links, devices, fifos, owners, modes, xattrs and mtimes', async () => {
    const root = await freshDir();
    await applyTar(
      once(
        await tarBuffer([
          { name: 'etc', type: 'directory', mode: 0o755, mtime: 1000 },
          { name: 'etc/conf', type: 'file', data: 'x=1\n', mode: 0o4750, uid: 1000, gid: 1001, mtime: 2000, xattrs: { 'user.note': 'hi' } },
          // Tar writers repeat the target's metadata on a hardlink header; it is applied to the shared inode.
          { name: 'etc/hard', type: 'hardlink', linkname: 'etc/conf', mode: 0o4750, uid: 1000, gid: 1001, mtime: 2000 },
          { name: 'etc/sym', type: 'symlink', linkname: '/etc/conf', uid: 5, gid: 6, mtime: 3000 },
          { name: 'dev/null', type: 'char', devmajor: 1, devminor: 3, mode: 0o666 },
          { name: 'dev/loop9', type: 'block', devmajor: 7, devminor: 9, mode: 0o660 },
          { name: 'run/fifo', type: 'fifo', mode: 0o600 },
        ]),
      ),
      root,
    );
    const conf = lstatSync(join(root, 'etc/conf'));
    expect(conf.mode & 0o7777).toBe(0o4750);
    expect([conf.uid, conf.gid, conf.mtimeMs / 1000, conf.nlink]).toEqual([1000, 1001, 2000, 2]);
    expect(lstatSync(join(root, 'etc/hard')).ino).toBe(conf.ino);
    expect(lgetxattr(join(root, 'etc/conf'), 'user.note')?.toString()).toBe('hi');
    expect(readlinkSync(join(root, 'etc/sym'))).toBe('/etc/conf');
    expect(lstatSync(join(root, 'etc/sym')).uid).toBe(5);
    expect(lstatSync(join(root, 'etc')).mtimeMs / 1000).toBe(1000);
    const dev = lstatSync(join(root, 'dev/null'));
    expect(dev.isCharacterDevice() && dev.rdev).toBe(259);
    expect(lstatSync(join(root, 'dev/loop9')).isBlockDevice()).toBe(true);
    expect(lstatSync(join(root, 'run/fifo')).isFIFO()).toBe(true);
  });

  it('turns whiteouts into 0/0 char devices and opaque markers into the overlay xattr', async () => {
    const root = await freshDir();
    await applyTar(
      once(
        await tarBuffer([
          { name: 'a/.wh.gone', type: 'file', data: '' },
          { name: 'b/.wh..wh..opq', type: 'file', data: '' },
          { name: 'b/kept', type: 'file', data: 'k' },
          { name: 'c/.wh..wh.plnk', type: 'file', data: '' },
        ]),
      ),
      root,
    );
    const wh = lstatSync(join(root, 'a/gone'));
    expect(wh.isCharacterDevice()).toBe(true);
    expect(wh.rdev).toBe(0);
    expect(lgetxattr(join(root, 'b'), 'trusted.overlay.opaque')?.toString()).toBe('y');
    expect(readdirSync(join(root, 'b'))).toEqual(['kept']);
    expect(readdirSync(join(root, 'c'))).toEqual([]);
  });

  it('replaces earlier entries: a file over a symlink never writes through it', async () => {
    const root = await freshDir();
    const outside = await freshDir();
    await writeFile(join(outside, 'victim'), 'safe');
    await applyTar(
      once(
        await tarBuffer([
          { name: 'x', type: 'symlink', linkname: join(outside, 'victim') },
          { name: 'x', type: 'file', data: 'new' },
        ]),
      ),
      root,
    );
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('safe');
    expect(readFileSync(join(root, 'x'), 'utf8')).toBe('new');
  });

  it.each<[string, TarWriteEntry[]]>([
    ['a ../ name', [{ name: '../escape', type: 'file', data: 'x' }]],
    ['a nested ../ name', [{ name: 'a/../../escape', type: 'file', data: 'x' }]],
    ['a symlinked parent that climbs out', [{ name: 'up', type: 'symlink', linkname: '../../..' }, { name: 'up/escape', type: 'file', data: 'x' }]],
    ['a hardlink to a file outside', [{ name: 'h', type: 'hardlink', linkname: '../../../../etc/passwd' }]],
    ['a hardlink through a symlinked parent that climbs out', [{ name: 'up', type: 'symlink', linkname: '../../..' }, { name: 'h', type: 'hardlink', linkname: 'up/etc/passwd' }]],
    ['a whiteout above the root', [{ name: '../.wh.layer', type: 'file', data: '' }]],
    ['a whiteout through a symlinked parent that climbs out', [{ name: 'up', type: 'symlink', linkname: '../..' }, { name: 'up/.wh.layer', type: 'file', data: '' }]],
    ['an opaque marker through a symlinked parent that climbs out', [{ name: 'up', type: 'symlink', linkname: '..' }, { name: 'up/.wh..wh..opq', type: 'file', data: '' }]],
  ])('refuses %s and writes nothing outside', async (_what, entries) => {
    const parent = await freshDir();
    const root = join(parent, 'layer');
    await mkdir(root);
    await expect(applyTar(once(await tarBuffer(entries)), root)).rejects.toThrow(/climbs out|above its root/);
    expect(readdirSync(parent)).toEqual(['layer']);
  });

  it('keeps absolute names and absolute symlinked parents inside the root', async () => {
    const parent = await freshDir();
    const root = join(parent, 'layer');
    await mkdir(root);
    await applyTar(
      once(
        await tarBuffer([
          { name: '/abs', type: 'file', data: 'a' },
          { name: 'etc', type: 'symlink', linkname: join(parent, 'outside') },
          { name: 'etc/passwd', type: 'file', data: 'p' },
        ]),
      ),
      root,
    );
    expect(readdirSync(parent)).toEqual(['layer']);
    expect(readFileSync(join(root, 'abs'), 'utf8')).toBe('a');
    expect(readFileSync(join(root, parent.slice(1), 'outside', 'passwd'), 'utf8')).toBe('p');
  });

  it('unpacks gzip and zstd blobs and reports the diff ID of the tar', async () => {
    const tar = await tarBuffer([{ name: 'f', type: 'file', data: 'zz'.repeat(5000) }]);
    const dir = await freshDir();
    await writeFile(join(dir, 'layer.gz'), gzipSync(tar));
    execFileSync('zstd', ['-q', '-o', join(dir, 'layer.zst')], { input: tar });
    for (const file of ['layer.gz', 'layer.zst']) {
      const root = join(dir, `${file}.d`);
      await mkdir(root);
      const result = await unpackLayerFile(join(dir, file), root);
      expect(result.diffId).toBe(sha256Digest(tar));
      expect(result.bytes).toBe(10000);
      expect(readFileSync(join(root, 'f'), 'utf8')).toHaveLength(10000);
    }
  });
});

describe('layer unpack into an empty snapshot', () => {
  it('replaces a directory with a symlink and resolves later entries through the symlink, inside the root', async () => {
    const parent = await freshDir();
    const root = join(parent, 'layer');
    await mkdir(root);
    await applyTar(
      once(
        await tarBuffer([
          { name: 'usr/', type: 'directory', mode: 0o755 },
          { name: 'usr/lib/', type: 'directory', mode: 0o755 },
          { name: 'usr/lib/old', type: 'file', data: 'old' },
          // usr/lib becomes a symlink (merged-usr layers do this): what follows lands in its target.
          { name: 'usr/lib', type: 'symlink', linkname: '/opt/lib' },
          { name: 'usr/lib/new', type: 'file', data: 'new' },
          { name: 'usr/lib/sub/deep', type: 'file', data: 'deep' },
        ]),
      ),
      root,
    );
    expect(readdirSync(parent)).toEqual(['layer']);
    expect(lstatSync(join(root, 'usr/lib')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, 'opt/lib/new'), 'utf8')).toBe('new');
    expect(readFileSync(join(root, 'opt/lib/sub/deep'), 'utf8')).toBe('deep');
  });

  it('gives entries in a setgid directory the group their header names', async () => {
    const root = await freshDir();
    await applyTar(
      once(
        await tarBuffer([
          { name: 'srv/', type: 'directory', mode: 0o2775, uid: 0, gid: 50 },
          { name: 'srv/root-file', type: 'file', data: 'r', uid: 0, gid: 0 },
          { name: 'srv/root-dir/', type: 'directory', mode: 0o755, uid: 0, gid: 0 },
          { name: 'srv/root-dir/inner', type: 'file', data: 'i', uid: 0, gid: 0 },
          { name: 'srv/app-link', type: 'symlink', linkname: 'root-file', uid: 1000, gid: 1000 },
        ]),
      ),
      root,
    );
    expect(lstatSync(join(root, 'srv')).gid).toBe(50);
    expect(lstatSync(join(root, 'srv/root-file')).gid).toBe(0);
    expect(lstatSync(join(root, 'srv/root-dir')).gid).toBe(0);
    expect(lstatSync(join(root, 'srv/root-dir/inner')).gid).toBe(0);
    expect([lstatSync(join(root, 'srv/app-link')).uid, lstatSync(join(root, 'srv/app-link')).gid]).toEqual([1000, 1000]);
  });

  it('makes a busybox-like layer with only the syscalls that make its entries', async () => {
    const root = await freshDir();
    const applets = Array.from({ length: 300 }, (_, i) => `applet-${i}`);
    const tar = await tarBuffer([
      { name: 'bin/', type: 'directory', mode: 0o755 },
      { name: 'bin/busybox', type: 'file', data: 'ELF', mode: 0o755 },
      ...applets.map((a): TarWriteEntry => ({ name: `bin/${a}`, type: 'symlink', linkname: 'busybox' })),
    ]);
    // Probes (stat family), mkdir and chown calls on the layer's paths, seen by strace on this process.
    const log = join(base, `strace-${n++}.txt`);
    const tracer = spawn('strace', ['-f', '-qq', '-p', String(process.pid), '-o', log, '-e', 'trace=stat,lstat,newfstatat,statx,mkdir,mkdirat,lchown,fchownat,chown'], { stdio: 'ignore' });
    try {
      for (let i = 0; i < 100 && !/TracerPid:\s+[1-9]/.test(readFileSync('/proc/self/status', 'utf8')); i++) await sleep(50);
      await applyTar(once(tar, 64 << 10), root);
    } finally {
      tracer.kill('SIGINT');
      await new Promise((resolve) => tracer.once('exit', resolve));
    }
    const calls = readFileSync(log, 'utf8').split('\n').filter((l) => l.includes(`${root}/bin`));
    expect(readdirSync(join(root, 'bin'))).toHaveLength(301);
    // Before: an lstat of bin, a mkdir and a stat of bin, an lstat of the entry and an lchown per entry (1,500).
    expect(calls.length).toBeLessThan(30);
  });
});
