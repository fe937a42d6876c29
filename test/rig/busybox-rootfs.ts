import { chmod, chown, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './proc.js';

/** Debian's busybox-static: one static binary, so the image needs no libc. */
export const BUSYBOX_BIN = '/bin/busybox';

/** Applets tests rely on; every one must exist in the host's busybox. */
export const REQUIRED_APPLETS = [
  'sh', 'ls', 'cat', 'echo', 'sleep', 'top', 'ps', 'env', 'id', 'hostname', 'wget', 'nc', 'ip',
  'mount', 'dd', 'head', 'tail', 'true', 'false', 'grep',
];

const PASSWD = [
  'root:x:0:0:root:/root:/bin/sh',
  'app:x:1000:1000:app:/home/app:/bin/sh',
  'nobody:x:65534:65534:nobody:/nonexistent:/bin/false',
].join('\n');

const GROUP = ['root:x:0:', 'app:x:1000:', 'nogroup:x:65534:'].join('\n');

/** Fills `rootfs` with /bin/busybox, a symlink per applet, /etc/passwd, /etc/group and the usual dirs. */
export async function populateBusyboxRootfs(rootfs: string): Promise<void> {
  for (const dir of ['bin', 'etc', 'dev', 'proc', 'sys', 'root', 'home/app', 'var', 'usr/bin']) {
    await mkdir(join(rootfs, dir), { recursive: true });
  }
  await mkdir(join(rootfs, 'tmp'), { recursive: true });
  await chmod(join(rootfs, 'tmp'), 0o1777);
  await chmod(join(rootfs, 'root'), 0o700);
  await chown(join(rootfs, 'home/app'), 1000, 1000);
  await copyFile(BUSYBOX_BIN, join(rootfs, 'bin/busybox'));
  await chmod(join(rootfs, 'bin/busybox'), 0o755);
  for (const applet of await listApplets()) {
    if (applet === 'busybox') continue;
    await symlink('busybox', join(rootfs, 'bin', applet));
  }
  await writeFile(join(rootfs, 'etc/passwd'), `${PASSWD}\n`);
  await writeFile(join(rootfs, 'etc/group'), `${GROUP}\n`);
}

/** Every applet of the host's busybox (so tests can use any of them), checked against the required set. */
async function listApplets(): Promise<string[]> {
  const { stdout } = await run(BUSYBOX_BIN, ['--list']);
  const applets = stdout.split('\n').map((s) => s.trim()).filter((s) => /^[\w.[-]+$/.test(s));
  const missing = REQUIRED_APPLETS.filter((a) => !applets.includes(a));
  if (missing.length > 0) throw new Error(`${BUSYBOX_BIN} lacks applets: ${missing.join(', ')}`);
  return applets;
}
