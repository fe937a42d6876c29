// Applies one layer tarball into a directory in the form overlayfs expects of
// a lowerdir: whiteouts become 0/0 character devices, opaque markers become
// trusted.overlay.opaque=y. Ownership, modes, xattrs and mtimes are kept. The
// layer streams through (decompress -> tar -> disk); its uncompressed digest
// (diff ID) is computed on the way.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  lchownSync,
  linkSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { IsulatsError, invalidArgument } from '../errors.js';
import { lsetxattr, mknod, S_IFBLK, S_IFCHR, S_IFIFO } from '../native.js';
import { decompressFile } from './decompress.js';
import { failpoint } from './failpoint.js';
import { entryComponents, resolveInRoot } from './path-safety.js';
import { readTar, type TarEntry } from './tar-reader.js';
import { UnpackTreeKnowledge } from './unpack-tree-knowledge.js';

const WHITEOUT = '.wh.';
const OPAQUE = '.wh..wh..opq';

export interface UnpackResult {
  diffId: string;
  /** Bytes of regular file content written. */
  bytes: number;
  /** Entries created (files, dirs, links, devices, whiteouts). */
  inodes: number;
}

export interface UnpackOptions {
  /** Called with uncompressed bytes consumed so far. */
  progress?: (bytes: number) => void;
}

/** Unpacks a (possibly compressed) layer blob file into `root`, which must exist. */
export async function unpackLayerFile(blobPath: string, root: string, opts: UnpackOptions = {}): Promise<UnpackResult> {
  const hash = createHash('sha256');
  let consumed = 0;
  let reported = 0;
  async function* tap(): AsyncGenerator<Buffer> {
    for await (const chunk of decompressFile(blobPath)) {
      hash.update(chunk);
      consumed += chunk.length;
      if (opts.progress && consumed - reported > 1 << 20) {
        reported = consumed;
        opts.progress(consumed);
      }
      yield chunk;
    }
  }
  const stats = await applyTar(tap(), root);
  opts.progress?.(consumed);
  return { diffId: `sha256:${hash.digest('hex')}`, ...stats };
}

/**
 * Applies an uncompressed tar stream into `root`. Into an empty `root` (a fresh snapshot), an
 * entry costs only the syscalls that make it: parents this unpack made are not probed again,
 * nothing is looked for where nothing can be, and a new inode is not chowned to what it has.
 */
export async function applyTar(source: AsyncIterable<Uint8Array>, root: string): Promise<{ bytes: number; inodes: number }> {
  const dirTimes: Array<{ path: string; mtime: number }> = [];
  const tree = new UnpackTreeKnowledge(readdirSync(root).length === 0, (statSync(root).mode & 0o2000) !== 0);
  const owner = { uid: process.geteuid?.() ?? -1, gid: process.getegid?.() ?? -1 };
  let bytes = 0;
  let inodes = 0;
  let midpoint = false;
  for await (const { entry, body } of readTar(source)) {
    const components = entryComponents(entry.name);
    if (components.length === 0) {
      // The root entry ("./"): apply its metadata to the root itself.
      if (entry.type === 'directory') {
        applyMetadata(root, entry, dirTimes, true);
        tree.directoryMade('', entry.mode);
      }
      continue;
    }
    const base = components[components.length - 1]!;
    let parentRel = components.slice(0, -1);
    if (!tree.knowsDirectory(parentRel)) {
      parentRel = resolveInRoot(root, components).slice(0, -1);
      mkdirSync(parentRel.length ? `${root}/${parentRel.join('/')}` : root, { recursive: true, mode: 0o755 });
      tree.directoriesExist(parentRel);
    }
    const parentKey = parentRel.join('/');
    const parent = parentKey ? `${root}/${parentKey}` : root;
    const relOf = (name: string) => (parentKey ? `${parentKey}/${name}` : name);
    if (base === OPAQUE) {
      lsetxattr(parent, 'trusted.overlay.opaque', 'y');
      inodes++;
      continue;
    }
    if (base.startsWith(WHITEOUT)) {
      const hidden = base.slice(WHITEOUT.length);
      if (hidden.startsWith('.wh.')) continue; // other AUFS metadata (.wh..wh.plnk ...)
      if (!hidden) throw invalidArgument(`layer entry "${entry.name}" is a whiteout without a name`);
      const target = `${parent}/${hidden}`;
      if (tree.mayExist(relOf(hidden))) removeExisting(target, false);
      mknod(target, S_IFCHR, 0, 0);
      tree.nonDirectoryMade(relOf(hidden));
      inodes++;
      continue;
    }
    const path = `${parent}/${base}`;
    const rel = relOf(base);
    // Nothing was at `path`: the inode made here is new and owned by us.
    const fresh = !tree.mayExist(rel);
    inodes++;
    switch (entry.type) {
      case 'directory': {
        if (fresh) {
          mkdirSync(path, { mode: 0o700 });
        } else if (!tree.isDirectory(rel) && !isDirectory(path)) {
          removeExisting(path, false);
          mkdirSync(path, { mode: 0o700 });
        }
        tree.directoryMade(rel, entry.mode);
        break;
      }
      case 'file': {
        if (!fresh) removeExisting(path, false);
        const fd = openSync(path, 'wx', 0o600);
        tree.nonDirectoryMade(rel);
        try {
          for await (const chunk of body) {
            let off = 0;
            while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
            bytes += chunk.length;
          }
        } finally {
          closeSync(fd);
        }
        if (!midpoint) {
          midpoint = true;
          failpoint('unpack-mid-layer');
        }
        break;
      }
      case 'symlink':
        if (!fresh) removeExisting(path, false);
        symlinkSync(entry.linkname, path);
        tree.nonDirectoryMade(rel);
        break;
      case 'hardlink': {
        const targetComponents = entryComponents(entry.linkname);
        if (targetComponents.length === 0) throw invalidArgument(`hardlink "${entry.name}" has an empty target`);
        const target = `${root}/${resolveInRoot(root, targetComponents).join('/')}`;
        let targetStat;
        try {
          targetStat = lstatSync(target);
        } catch {
          throw invalidArgument(`hardlink "${entry.name}" points to "${entry.linkname}", which is not in the layer`);
        }
        if (targetStat.isDirectory()) throw invalidArgument(`hardlink "${entry.name}" points to a directory`);
        if (target === path) continue;
        if (!fresh) removeExisting(path, false);
        linkSync(target, path);
        tree.nonDirectoryMade(rel);
        // The link's header metadata is applied to the shared inode, as containerd does.
        applyMetadata(path, entry, dirTimes, true);
        continue;
      }
      case 'char':
      case 'block':
      case 'fifo': {
        if (!fresh) removeExisting(path, false);
        const type = entry.type === 'char' ? S_IFCHR : entry.type === 'block' ? S_IFBLK : S_IFIFO;
        mknod(path, type | 0o600, entry.devmajor, entry.devminor);
        tree.nonDirectoryMade(rel);
        break;
      }
    }
    const ownedAlready = fresh && entry.uid === owner.uid && entry.gid === owner.gid && tree.ownGroupIn(parentKey);
    applyMetadata(path, entry, dirTimes, !ownedAlready);
  }
  // Directory mtimes last: creating children changed them.
  for (let i = dirTimes.length - 1; i >= 0; i--) {
    const { path, mtime } = dirTimes[i]!;
    lutimesSync(path, mtime, mtime);
  }
  return { bytes, inodes };
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Removes whatever is at `path` (a directory only when not merging into it). */
function removeExisting(path: string, keepDir: boolean): void {
  try {
    const st = lstatSync(path);
    if (st.isDirectory() && keepDir) return;
    rmSync(path, { recursive: true, force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function applyMetadata(path: string, entry: TarEntry, dirTimes: Array<{ path: string; mtime: number }>, chown: boolean): void {
  if (chown) lchownSync(path, entry.uid, entry.gid);
  // chmod after chown: chown clears set-id bits.
  if (entry.type !== 'symlink') chmodSync(path, entry.mode);
  for (const [name, value] of entry.xattrs) {
    try {
      lsetxattr(path, name, value);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTSUP') continue;
      throw new IsulatsError('internal', `cannot set xattr ${name} on ${path}: ${(error as Error).message}`, { cause: error });
    }
  }
  if (entry.type === 'directory') dirTimes.push({ path, mtime: entry.mtime });
  else lutimesSync(path, entry.mtime, entry.mtime);
}
