import { describe, expect, it } from 'vitest';
import type { Image } from '../../src/api/cri.js';
import { filterImages, imagesTable, normalizeRepoDigest, normalizeRepoTagPairs, sortImages, truncateId, verboseImage } from '../../src/commands/images.js';
import { imageStatusTable } from '../../src/cli/output/status-tables.js';
import { fsInfoTable } from '../../src/commands/imagefsinfo.js';
import { imagesToRemove } from '../../src/commands/rmi.js';
import { getAuth, parseCreds, progressDisplay, progressLine } from '../../src/commands/pull.js';

const ID1 = `sha256:${'a1'.repeat(32)}`;
const ID2 = `sha256:${'b2'.repeat(32)}`;
const ID3 = `sha256:${'c3'.repeat(32)}`;

function image(over: Partial<Image>): Image {
  return { id: ID1, repoTags: [], repoDigests: [], size: '0', uid: null, username: '', spec: null, pinned: false, ...over };
}

const busybox = image({ id: ID1, repoTags: ['127.0.0.1:5001/library/busybox:latest'], repoDigests: [`127.0.0.1:5001/library/busybox@sha256:${'d4'.repeat(32)}`], size: '1234567' });
const pause = image({ id: ID2, repoTags: ['127.0.0.1:5001/pause:3.9'], repoDigests: [`127.0.0.1:5001/pause@sha256:${'e5'.repeat(32)}`], size: '745', pinned: true });
const untagged = image({ id: ID3, repoDigests: [`127.0.0.1:5001/old@sha256:${'f6'.repeat(32)}`], size: '5620' });

describe('images table', () => {
  it('prints crictl columns with truncated IDs and human sizes', () => {
    expect(imagesTable(sortImages([pause, busybox]), {})).toBe(
      [
        'IMAGE                            TAG                 IMAGE ID            SIZE',
        '127.0.0.1:5001/library/busybox   latest              a1a1a1a1a1a1a       1.23MB',
        '127.0.0.1:5001/pause             3.9                 b2b2b2b2b2b2b       745B',
        '',
      ].join('\n'),
    );
  });

  it('shows <none> as the tag of an untagged image and its digest with --digests', () => {
    const out = imagesTable([untagged], { digests: true });
    expect(out.split('\n')[0]).toMatch(/^IMAGE\s+TAG\s+DIGEST\s+IMAGE ID\s+SIZE$/);
    expect(out.split('\n')[1].split(/\s+/)).toEqual(['127.0.0.1:5001/old', '<none>', 'f6f6f6f6f6f6f', 'c3c3c3c3c3c3c', '5.62kB']);
  });

  it('keeps full IDs with --no-trunc and adds PINNED with --pinned', () => {
    const out = imagesTable([pause], { noTrunc: true, pinned: true });
    expect(out).toContain(ID2);
    expect(out.split('\n')[1].trim().endsWith('true')).toBe(true);
  });

  it('normalizes tags and digests as crictl does', () => {
    expect(normalizeRepoDigest([])).toEqual(['<none>', '<none>']);
    expect(normalizeRepoDigest(['bad'])).toEqual(['errorName', 'errorRepoDigest']);
    expect(normalizeRepoTagPairs(['a/b:1', 'localhost:5000/c:2'], 'x')).toEqual([['a/b', '1'], ['localhost:5000/c', '2']]);
    expect(normalizeRepoTagPairs([], 'x')).toEqual([['x', '<none>']]);
    expect(truncateId(ID1, 'sha256:')).toBe('a1a1a1a1a1a1a');
  });

  it('prints verbose blocks', () => {
    expect(verboseImage(image({ ...busybox, uid: { value: '0' }, username: 'root' }))).toBe(
      `ID: ${ID1}\nRepoTags: ${busybox.repoTags[0]}\nRepoDigests: ${busybox.repoDigests[0]}\nSize: 1234567\nUid: &Int64Value{Value:0,}\nUsername: root\n\n`,
    );
  });
});

describe('image filters', () => {
  const all = [busybox, pause, untagged];
  it.each([
    [['dangling=true'], [ID3]],
    [['dangling=false'], [ID1, ID2]],
    [['reference=pause'], [ID2]],
    [['reference=busybox', 'dangling=false'], [ID1]],
    [['since=127.0.0.1:5001/pause:3.9'], [ID1]],
    [['before=127.0.0.1:5001/library/busybox:latest'], [ID2, ID3]],
    [[`before=${ID2.slice(7, 20)}`], [ID3]],
  ])('%j keeps %j', (filters, ids) => {
    expect(filterImages(all, filters).map((i) => i.id)).toEqual(ids);
  });

  it('rejects unknown filters and bad values', () => {
    expect(() => filterImages(all, ['label=x'])).toThrow('unknown filter flag: label=x');
    expect(() => filterImages(all, ['dangling=maybe'])).toThrow(/true or false/);
    expect(() => filterImages(all, ['reference=('])).toThrow(/invalid filter/);
  });
});

describe('inspecti and imagefsinfo tables', () => {
  it('prints an image status table', () => {
    expect(imageStatusTable({ image: busybox, info: {} })).toBe(`ID: ${ID1}\nTag: ${busybox.repoTags[0]}\nDigest: ${busybox.repoDigests[0]}\nSize: 1.23MB\n`);
  });

  it('prints filesystem usage', () => {
    const fs = { timestamp: '1700000000000000000', fsId: { mountpoint: '/var/lib/x' }, usedBytes: { value: '2048' }, inodesUsed: { value: '12' } };
    expect(fsInfoTable({ imageFilesystems: [fs], containerFilesystems: [] } as any)).toBe(
      'Container Filesystem \nImage Filesystem \nTimeStamp[0]: 1700000000000000000\nDisk[0]: 2.048kB\nInodes[0]: 12\nMountpoint[0]: /var/lib/x\n',
    );
  });
});

describe('pull helpers', () => {
  it('parses --creds as crictl does', () => {
    expect(parseCreds('user:pa:ss')).toEqual({ username: 'user', password: 'pa:ss' });
    expect(parseCreds('user')).toEqual({ username: 'user', password: '' });
    expect(() => parseCreds(':x')).toThrow("username can't be empty");
  });

  it('refuses --creds with --auth and passes --auth through', async () => {
    const io = { stdin: process.stdin, stdout: process.stdout };
    await expect(getAuth('a:b', 'YTpi', undefined, io)).rejects.toThrow('both `--creds` and `--auth` are specified');
    await expect(getAuth(undefined, 'YTpi', undefined, io)).resolves.toEqual({ auth: 'YTpi' });
    await expect(getAuth(undefined, undefined, undefined, io)).resolves.toBeUndefined();
  });

  it('renders layer progress lines with and without a bar', () => {
    const e = { layer: `sha256:${'ab'.repeat(32)}`, total: 2_000_000, done: 1_000_000, state: 'downloading' as const };
    expect(progressLine(e)).toBe('abababababab: Downloading');
    expect(progressLine(e, 10)).toBe('abababababab: Downloading [=====>    ] 1MB/2MB');
    expect(progressLine({ ...e, state: 'exists' }, 10)).toBe('abababababab: Already exists');
  });

  it('prints one plain line per layer state change when not on a terminal', () => {
    const written: string[] = [];
    const out = { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const d = progressDisplay(out);
    const layer = `sha256:${'cd'.repeat(32)}`;
    d.update({ layer, total: 100, done: 0, state: 'downloading' });
    d.update({ layer, total: 100, done: 50, state: 'downloading' });
    d.update({ layer, total: 100, done: 100, state: 'done' });
    d.finish();
    expect(written).toEqual(['cdcdcdcdcdcd: Downloading\n', 'cdcdcdcdcdcd: Pull complete\n']);
  });

  it('redraws bars in place on a terminal', () => {
    const written: string[] = [];
    const out = { isTTY: true, columns: 80, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const d = progressDisplay(out);
    d.update({ layer: 'sha256:aa', total: 10, done: 5, state: 'downloading' });
    d.update({ layer: 'sha256:bb', total: 10, done: 0, state: 'waiting' });
    d.finish();
    expect(written[0]).toMatch(/^\x1b\[2Kaa: Downloading \[=+>\s+\] 5B\/10B\n$/);
    // Later frames move the cursor back up over the lines drawn before.
    expect(written[written.length - 1].startsWith('\x1b[2A')).toBe(true);
  });
});

describe('rmi selection', () => {
  const images = [
    { id: 'sha256:a', pinned: false },
    { id: 'sha256:b', pinned: false },
    { id: 'sha256:p', pinned: true },
  ];
  it.each([
    [['x'], { all: false, prune: false }, [], ['x']],
    [[], { all: true, prune: false }, [], ['sha256:a', 'sha256:b', 'sha256:p']],
    [[], { all: false, prune: true }, ['sha256:b'], ['sha256:a']],
    [['sha256:b'], { all: false, prune: true }, ['sha256:b'], ['sha256:a']],
  ])('%j with %j (in use %j) removes %j', (named, opts, inUse, want) => {
    expect(imagesToRemove(named, images, inUse, opts)).toEqual(want);
  });
});
