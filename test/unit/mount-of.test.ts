// src/util/mount-of.ts: the mount holding a path and its options, from mountinfo text shaped as a
// systemd node has it (/run tmpfs noexec, /var/run a link to it, a noexec /tmp overmounted).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mountContaining, nearestRealPath, onNoexecMount, parseMountinfo } from '../../src/util/mount-of.js';

const MOUNTINFO = [
  '22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro',
  '23 22 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs sysfs rw',
  '26 22 0:23 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=401680k,mode=755,inode64',
  '27 26 0:25 / /run/user/0 rw,nosuid,nodev,relatime shared:6 - tmpfs tmpfs rw,size=200840k,mode=700,inode64',
  '30 22 0:26 / /tmp rw,nosuid,nodev,noexec shared:7 - tmpfs tmpfs rw',
  '31 30 0:27 / /tmp rw,nosuid,nodev shared:8 - tmpfs tmpfs rw',
  '40 22 0:28 / /var/lib/with\\040space rw,noexec shared:9 - tmpfs tmpfs rw',
].join('\n');

describe('mount-of', () => {
  const mounts = parseMountinfo(MOUNTINFO);

  it('parses mount points (octal escapes decoded), per-mount options and the type', () => {
    expect(mounts).toHaveLength(7);
    expect(mounts[2]).toEqual({ mountPoint: '/run', options: ['rw', 'nosuid', 'nodev', 'noexec', 'relatime'], fsType: 'tmpfs' });
    expect(mounts[6]!.mountPoint).toBe('/var/lib/with space');
  });

  it('finds the longest mount point above a path, the latest of a stack, never a sibling with the same prefix', () => {
    expect(mountContaining('/run/isulats/sea', mounts)?.mountPoint).toBe('/run');
    expect(mountContaining('/run/user/0/isulats-sea', mounts)?.options).not.toContain('noexec');
    expect(mountContaining('/var/lib/isulats/sea', mounts)?.mountPoint).toBe('/');
    expect(mountContaining('/runner/x', mounts)?.mountPoint).toBe('/');
    expect(mountContaining('/tmp/x', mounts)?.options).not.toContain('noexec'); // the upper /tmp mount covers the noexec one
    expect(mountContaining('/var/lib/with space/x', mounts)?.options).toContain('noexec');
  });

  it('says noexec for /run and dirs not made yet under it, and not for /var/lib', () => {
    expect(onNoexecMount('/run', MOUNTINFO)).toBe(true);
    expect(onNoexecMount('/', MOUNTINFO)).toBe(false);
    expect(onNoexecMount('/run/isulats-not-made-yet/sea', MOUNTINFO)).toBe(true);
  });

  it('resolves links and missing tails to the nearest real dir (/var/run -> /run)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ist-mntof-'));
    try {
      mkdirSync(join(dir, 'run'));
      symlinkSync(join(dir, 'run'), join(dir, 'varrun'));
      expect(nearestRealPath(join(dir, 'varrun', 'isulats', 'sea'))).toBe(realpathSync(join(dir, 'run')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
