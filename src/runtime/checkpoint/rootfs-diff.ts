// The rw layer of a container as a checkpoint carries it, in CRI-O's form: rootfs-diff.tar holds
// what the container added or changed (read from the overlay's upper dir, whiteouts left out) and
// deleted.files lists what it removed (its whiteouts, and what an opaque dir hides of the image).
// A restore applies both onto the new container's mounted rootfs: the tar through the layer
// unpacker (paths resolved inside the rootfs, so a hostile archive writes nowhere else; a
// containerd archive's gzip layer with whiteouts goes the same way), then the deletions.
import { createWriteStream, existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { invalidArgument } from '../errors.js';
import { lgetxattr } from '../native.js';
import { entryBase, leafEntry, tarStream, type TarWriteEntry } from '../image/tar-writer.js';
import { unpackLayerFile } from '../image/layer-unpack.js';
import { entryComponents, resolveInRoot } from '../image/path-safety.js';
import { joinPath } from '../store/path-join.js';

export interface RootfsDiffSource {
  upperdir: string;
  /** Topmost first: what an opaque dir hides is looked up here. */
  lowerdirs: string[];
  /** Container paths (mount destinations) left out with everything below them. */
  exclude: string[];
}

/** Writes `tarPath` from the upper dir; returns the deleted paths ("/etc/motd"), sorted. */
export async function writeRootfsDiff(src: RootfsDiffSource, tarPath: string): Promise<string[]> {
  const excluded = new Set(src.exclude.map((p) => entryComponents(p).join('/')).filter(Boolean));
  const deleted: string[] = [];
  const seen = new Map<string, string>();
  async function* walk(rel: string): AsyncGenerator<TarWriteEntry> {
    const dir = rel ? joinPath(src.upperdir, rel) : src.upperdir;
    for (const name of (await readdir(dir)).sort()) {
      const relPath = rel ? `${rel}/${name}` : name;
      if (excluded.has(relPath)) continue;
      const full = joinPath(src.upperdir, relPath);
      const st = await lstat(full);
      if (st.isCharacterDevice() && st.rdev === 0) {
        // An overlay whiteout: the image's file at this path was removed.
        deleted.push(`/${relPath}`);
      } else if (st.isDirectory()) {
        yield { ...entryBase(relPath, st), type: 'directory' };
        if (lgetxattr(full, 'trusted.overlay.opaque')?.toString() === 'y') deleted.push(...hiddenByOpaque(src, relPath));
        yield* walk(relPath);
      } else {
        const entry = await leafEntry(relPath, full, st, seen);
        if (entry) yield entry;
      }
      // Sockets are not archived (tar has no type for them; CRIU recreates the ones in use).
    }
  }
  await pipeline(Readable.from(tarStream(walk(''))), createWriteStream(tarPath, { mode: 0o600 }));
  return deleted.sort();
}

/** Entries of the image at `rel` that an opaque dir of the upper layer hides (and the upper does not have). */
function hiddenByOpaque(src: RootfsDiffSource, rel: string): string[] {
  const names = new Set<string>();
  for (const lower of src.lowerdirs) {
    const dir = joinPath(lower, rel);
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      continue;
    }
    if (!st.isDirectory()) break;
    for (const n of readdirSync(dir)) {
      const entry = lstatSync(joinPath(dir, n));
      if (!(entry.isCharacterDevice() && entry.rdev === 0)) names.add(n);
    }
    if (lgetxattr(dir, 'trusted.overlay.opaque')?.toString() === 'y') break;
  }
  const upper = new Set(readdirSync(joinPath(src.upperdir, rel)));
  return [...names].filter((n) => !upper.has(n)).map((n) => `/${rel}/${n}`);
}

/** Applies a checkpoint's rootfs-diff.tar and deleted.files (in `dir`) onto a mounted rootfs. */
export async function applyRootfsDiff(dir: string, rootfs: string): Promise<void> {
  const tar = joinPath(dir, 'rootfs-diff.tar');
  if (existsSync(tar)) {
    if (!lstatSync(tar).isFile()) throw invalidArgument('checkpoint archive: rootfs-diff.tar is not a regular file');
    await unpackLayerFile(tar, rootfs);
  }
  for (const path of readDeletedFiles(dir)) {
    const components = entryComponents(path);
    if (components.length === 0) continue;
    const at = [...resolveInRoot(rootfs, components).slice(0, -1), components[components.length - 1]!];
    rmSync(joinPath(rootfs, at.join('/')), { recursive: true, force: true });
  }
}

function readDeletedFiles(dir: string): string[] {
  const file = joinPath(dir, 'deleted.files');
  if (!existsSync(file)) return [];
  if (!lstatSync(file).isFile()) throw invalidArgument('checkpoint archive: deleted.files is not a regular file');
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw invalidArgument(`checkpoint archive: deleted.files is not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string')) throw invalidArgument('checkpoint archive: deleted.files is not a list of paths');
  return list as string[];
}
