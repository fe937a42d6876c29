// Paths inside a container's rootfs, resolved as the container will see them: symlinks are
// followed as if the rootfs were `/` (an absolute target restarts at the rootfs, `..` stops at
// it), so an image whose `/etc` is `-> /etc`, `-> ../../../etc` or reached through another link
// never leads the engine to a host file. A component-by-component walk with lstat and readlink,
// like containerd's fs.RootPath and runc's securejoin: the rootfs is not running yet when the
// engine reads it (CreateContainer), so nothing swaps a component between the walk and the read.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import { IsulatsError } from '../errors.js';

/** Symlinks followed in one resolution before giving up (Linux's MAXSYMLINKS, as securejoin). */
export const MAX_SYMLINK_HOPS = 40;

/**
 * The host path of `path` (absolute or not, as seen inside the container) in the rootfs at
 * `root`: every symlink on the way, the last component's too, resolved inside the rootfs. Missing
 * components are kept as they are (the answer is where the file would be). Too many links: ELOOP.
 */
export function resolveInRootfs(root: string, path: string): string {
  const resolved: string[] = [];
  const queue = path.split('/');
  let hops = 0;
  let missing = false;
  while (queue.length) {
    const c = queue.shift()!;
    if (c === '' || c === '.') continue;
    if (c === '..') {
      resolved.pop(); // clamped at the root: `/..` is `/`
      continue;
    }
    if (missing) {
      resolved.push(c);
      continue;
    }
    const host = `${root}/${[...resolved, c].join('/')}`;
    let isLink = false;
    try {
      isLink = lstatSync(host).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      missing = true;
    }
    if (!isLink) {
      resolved.push(c);
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) {
      throw new IsulatsError('invalid-argument', `too many levels of symbolic links resolving ${path} in the image (ELOOP)`);
    }
    const target = readlinkSync(host);
    if (target.startsWith('/')) resolved.length = 0;
    queue.unshift(...target.split('/'));
  }
  return resolved.length ? `${root}/${resolved.join('/')}` : root;
}

/**
 * Reads a file of the rootfs (resolved inside it) when it is a regular file; undefined when it is
 * absent, not a regular file (a FIFO would block the read, a device is never opened) or its
 * links loop. Synchronous: /etc/passwd and /etc/group are small.
 */
export function readRootfsFile(root: string, path: string): string | undefined {
  let host: string;
  try {
    host = resolveInRootfs(root, path);
    if (!lstatSync(host).isFile()) return undefined;
  } catch {
    return undefined;
  }
  // O_NOFOLLOW and O_NONBLOCK: a file replaced by a link or a FIFO since the lstat is not followed or waited on.
  let fd: number;
  try {
    fd = openSync(host, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
