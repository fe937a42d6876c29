// Container root filesystems: an overlay of the image's layer snapshots
// (read-only lowerdirs) with a per-container rw layer under
// root/containers-rw/<key>/{fs,work}, mounted at state/rootfs/<key>.
// The record (snapshot.json) lives with the rw layer, so after a reboot or a
// restart `mount(key)` brings the same rootfs back; mount and unmount are
// idempotent, and remove never leaves a mount behind.
//
// A rootfs for a pod with a user namespace (`idmap`) stacks idmapped clones of
// the layers instead (attached under <rw>/idmap/<n> for the overlay mount,
// then detached: the overlay keeps its own references), with the upper dir
// owned by the pod's root: files show with their image owners inside the pod,
// and no layer is copied or chowned.
import { chownSync, mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { lstat, mkdir, readdir, rm, symlink } from 'node:fs/promises';
import { invalidArgument, notFound } from '../errors.js';
import { idmapMount, MNT, mount as sysMount, umount2 } from '../native.js';
import { fsyncDir, fsyncFile, writeJsonAtomic } from '../store/atomic-file.js';
import { removeHeldLock, withFileLock } from '../store/lock.js';
import { mkdirPrivate } from '../store/private-dirs.js';
import { placeChildTreesApart } from '../store/top-directory.js';
import { discard, makeTrash } from '../store/trash.js';
import { joinPath } from '../store/path-join.js';
import { detachEntriesAndRemove } from './detach-mounts.js';
import { runtimeFailpoint } from '../recovery/failpoints.js';

/** What the snapshotter needs from the image service. */
export interface ImageResolver {
  resolveImage(ref: string): Promise<ResolvedLayers>;
  /**
   * Runs `fn` (a new rootfs's record written) while no gc runs, after checking that the layers of
   * `image` are still there: once its record names them, gc keeps them until it is removed.
   */
  holdingLayers<T>(image: ResolvedLayers, fn: () => Promise<T>): Promise<T>;
  /** A rootfs over `imageId` went: what an image removed meanwhile left to it is collected. */
  releaseLayers(imageId: string): Promise<void>;
}

/** An image as the snapshotter stacks it. */
export interface ResolvedLayers {
  id: string;
  chainIds: string[];
  snapshotDirs: string[];
}

export interface SnapshotMounts {
  mountpoint: string;
  upperdir: string;
  workdir: string;
  /** Topmost first. */
  lowerdirs: string[];
}

export interface ContainerSnapshot extends SnapshotMounts {
  key: string;
  imageId: string;
  chainIds: string[];
  createdAt: string;
  /** Layers shown through this user namespace; the upper dir belongs to its root (hostUid:hostGid). */
  idmap?: SnapshotIdmap;
}

export interface SnapshotIdmap {
  /** The pod's pinned user namespace. */
  usernsPath: string;
  hostUid: number;
  hostGid: number;
  /** Where the rootfs is mounted (`<mountDir>/<key>`): a dir the pod's root can reach. */
  mountDir: string;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
// The kernel copies mount options into one page.
const MAX_MOUNT_DATA = 4000;
/** Lower layers one overlay mount takes (the kernel's OVL_MAX_STACK); containerd's overlay snapshotter has the same bound. */
export const OVERLAY_MAX_LOWER = 500;

export interface OverlaySnapshotterOptions {
  root: string;
  state: string;
  images: ImageResolver;
}

export class OverlaySnapshotter {
  private readonly rwDir: string;
  private readonly mountDir: string;
  private readonly lockDir: string;
  private readonly trashDir: string;

  constructor(private readonly opts: OverlaySnapshotterOptions) {
    this.rwDir = joinPath(opts.root, 'containers-rw');
    this.mountDir = joinPath(opts.state, 'rootfs');
    this.lockDir = joinPath(opts.root, 'locks', 'containers-rw');
    this.trashDir = joinPath(opts.root, 'trash');
  }

  static async open(opts: OverlaySnapshotterOptions): Promise<OverlaySnapshotter> {
    const s = new OverlaySnapshotter(opts);
    await mkdirPrivate(s.rwDir);
    placeChildTreesApart(s.rwDir); // each rw layer (and the container's new files in its upper) a tree of its own
    await mkdirPrivate(s.mountDir);
    await makeTrash(s.trashDir);
    return s;
  }

  private check(key: string): void {
    if (!KEY.test(key)) throw invalidArgument(`invalid snapshot key "${key}"`);
  }

  private recordPath(key: string): string {
    return joinPath(this.rwDir, key, 'snapshot.json');
  }

  private lock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return withFileLock(joinPath(this.lockDir, `${key}.lock`), fn, { timeoutMs: 60_000 });
  }

  /**
   * Creates the rw layer for `key` over `image` (a name, or the image the caller already resolved)
   * and mounts it; an existing key is returned (and mounted) as is. `durable: false` leaves the
   * record's fsync to `persist`, so a caller can overlap it with its own committing write.
   */
  async prepare(key: string, image: string | ResolvedLayers, opts: { durable?: boolean; idmap?: SnapshotIdmap } = {}): Promise<SnapshotMounts> {
    this.check(key);
    return this.lock(key, async () => {
      let record = await this.get(key);
      const fresh = !record;
      if (!record) {
        const resolved = typeof image === 'string' ? await this.opts.images.resolveImage(image) : image;
        record = await this.opts.images.holdingLayers(resolved, () => this.create(key, resolved, opts));
      }
      await this.mountRecord(record, fresh);
      return pick(record);
    });
  }

  /** Makes the rw layer of `key` and writes its record (under the image's layers held). */
  private async create(key: string, resolved: ResolvedLayers, opts: { durable?: boolean; idmap?: SnapshotIdmap }): Promise<ContainerSnapshot> {
    // Checked before anything is made: the kernel's refusal is a bare EINVAL from mount(2).
    if (resolved.snapshotDirs.length > OVERLAY_MAX_LOWER) {
      throw invalidArgument(`image ${resolved.id} has ${resolved.snapshotDirs.length} layers; overlayfs stacks at most ${OVERLAY_MAX_LOWER} (the kernel's OVL_MAX_STACK)`);
    }
    const base = joinPath(this.rwDir, key);
    const upperdir = joinPath(base, 'fs');
    const workdir = joinPath(base, 'work');
    // The upperdir's mode is the container's `/`: others must traverse it, and only the private base keeps them out.
    // Metadata calls on the calling thread: cheaper than thread-pool round trips.
    await mkdirPrivate(base);
    mkdirSync(upperdir, { recursive: true, mode: 0o755 });
    mkdirSync(workdir, { recursive: true, mode: 0o700 });
    // The container's `/` belongs to its root; new files get their owner from the creator.
    if (opts.idmap) chownSync(upperdir, opts.idmap.hostUid, opts.idmap.hostGid);
    let lowerdirs = resolved.snapshotDirs;
    if (lowerdirs.length === 0) {
      // overlay needs a lowerdir: an image without layers gets an empty one.
      const empty = joinPath(base, 'empty');
      mkdirSync(empty, { recursive: true, mode: 0o755 });
      lowerdirs = [empty];
    }
    const record: ContainerSnapshot = {
      key,
      imageId: resolved.id,
      chainIds: resolved.chainIds,
      mountpoint: joinPath(opts.idmap?.mountDir ?? this.mountDir, key),
      upperdir,
      workdir,
      lowerdirs,
      createdAt: new Date().toISOString(),
      ...(opts.idmap ? { idmap: opts.idmap } : {}),
    };
    await writeJsonAtomic(this.recordPath(key), record, 0o644, { durable: opts.durable ?? true });
    return record;
  }

  /** Makes a record prepared with `durable: false` survive power loss (its file, then its directory). */
  async persist(key: string): Promise<void> {
    this.check(key);
    await fsyncFile(this.recordPath(key));
    await fsyncDir(joinPath(this.rwDir, key));
  }

  async get(key: string): Promise<ContainerSnapshot | undefined> {
    this.check(key);
    // A small file: read synchronously (cheaper than a thread-pool round trip).
    try {
      return JSON.parse(readFileSync(this.recordPath(key), 'utf8')) as ContainerSnapshot;
    } catch {
      return undefined;
    }
  }

  /** Mounts an existing snapshot (after a reboot or restart); no-op when mounted. */
  async mount(key: string): Promise<SnapshotMounts> {
    this.check(key);
    return this.lock(key, async () => {
      const record = await this.get(key);
      if (!record) throw notFound(`snapshot ${key} not found`);
      await this.mountRecord(record);
      return pick(record);
    });
  }

  /** Unmounts; no-op when not mounted. */
  async unmount(key: string): Promise<void> {
    this.check(key);
    await this.lock(key, async () => {
      for (const mountpoint of await this.mountpoints(key)) await this.unmountPath(mountpoint);
    });
  }

  /** Unmounts and deletes the rw layer; no-op for an unknown key. */
  async remove(key: string): Promise<void> {
    this.check(key);
    const imageId = await this.lock(key, async () => {
      const imageId = (await this.get(key))?.imageId;
      const [mountpoint, ...others] = await this.mountpoints(key);
      await this.unmountPath(mountpoint!);
      // Idmapped layer clones a kill left attached mid-mount (they hold the rw dir busy).
      detachEntriesAndRemove(joinPath(this.rwDir, key, 'idmap'));
      // Empty once unmounted: one rmdir (anything else in it goes the long way).
      try {
        rmdirSync(mountpoint!);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') await rm(mountpoint!, { recursive: true, force: true });
      }
      // A rootfs mounted elsewhere (a pod with a user namespace): unmounted, its dir removed (never recursively).
      for (const other of others) {
        await this.unmountPath(other);
        try {
          rmdirSync(other);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
      // The rw layer may hold many files: it leaves at once, into the trash.
      await discard(this.trashDir, joinPath(this.rwDir, key));
      removeHeldLock(joinPath(this.lockDir, `${key}.lock`));
      return imageId;
    });
    // The layers of an image removed while this rootfs used them were kept for it: they go now.
    if (imageId) await this.opts.images.releaseLayers(imageId);
  }

  /** The default mountpoint, then the record's own when it is elsewhere. */
  private async mountpoints(key: string): Promise<string[]> {
    const usual = joinPath(this.mountDir, key);
    const own = (await this.get(key))?.mountpoint;
    return own && own !== usual ? [usual, own] : [usual];
  }

  /** Bytes and inodes used by the rw layer. */
  async usage(key: string): Promise<{ bytes: number; inodes: number }> {
    this.check(key);
    const record = await this.get(key);
    if (!record) throw notFound(`snapshot ${key} not found`);
    return diskUsage(record.upperdir);
  }

  /** Every container snapshot on disk, for reconciliation. */
  async list(): Promise<Array<ContainerSnapshot & { mounted: boolean }>> {
    const out: Array<ContainerSnapshot & { mounted: boolean }> = [];
    const mounted = await mountedPaths();
    for (const name of await readdir(this.rwDir).catch(() => [] as string[])) {
      if (!KEY.test(name)) continue;
      const record = await this.get(name);
      if (record) out.push({ ...record, mounted: mounted.has(record.mountpoint) });
    }
    return out;
  }

  /** Mounts the record's overlay unless it is mounted; `fresh`: just made under our lock, so it cannot be. */
  private async mountRecord(record: ContainerSnapshot, fresh = false): Promise<void> {
    mkdirSync(record.mountpoint, { recursive: true, mode: 0o755 });
    // Reading /proc/self/mountinfo grows with every pod on the node: skipped when it cannot matter.
    if (!fresh && (await mountedPaths()).has(record.mountpoint)) return;
    if (!record.idmap) return this.mountOverlay(record, record.lowerdirs);
    const dir = joinPath(record.upperdir, '..', 'idmap');
    detachEntriesAndRemove(dir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const lowers: string[] = [];
    try {
      for (const [i, lower] of record.lowerdirs.entries()) {
        const at = joinPath(dir, String(i));
        mkdirSync(at, { mode: 0o700 });
        idmapMount(lower, at, record.idmap.usernsPath);
        lowers.push(at);
      }
      runtimeFailpoint('idmap-after-layers');
      await this.mountOverlay(record, lowers);
    } finally {
      // The overlay holds its own references to its layers: the clones need not stay attached.
      detachEntriesAndRemove(dir);
    }
  }

  private async mountOverlay(record: ContainerSnapshot, lowerdirs: string[]): Promise<void> {
    const data = `lowerdir=${lowerdirs.join(':')},upperdir=${record.upperdir},workdir=${record.workdir}`;
    if (data.length <= MAX_MOUNT_DATA) {
      sysMount('overlay', record.mountpoint, 'overlay', 0, data);
      return;
    }
    // Too long for one page: mount through short symlinks l/0, l/1, ... named
    // relative to the working directory, as docker's overlay2 does. chdir is
    // safe here: nothing else runs on this thread between it and the chdir back.
    const links = joinPath(record.upperdir, '..', 'l');
    await rm(links, { recursive: true, force: true });
    await mkdir(links, { mode: 0o700 });
    for (const [i, dir] of lowerdirs.entries()) await symlink(dir, joinPath(links, String(i)));
    const short = `lowerdir=${lowerdirs.map((_, i) => String(i)).join(':')},upperdir=${record.upperdir},workdir=${record.workdir}`;
    if (short.length > MAX_MOUNT_DATA) throw invalidArgument(`image has too many layers (${lowerdirs.length}) for one overlay mount`);
    const cwd = process.cwd();
    process.chdir(links);
    try {
      sysMount('overlay', record.mountpoint, 'overlay', 0, short);
    } finally {
      process.chdir(cwd);
    }
  }

  private async unmountPath(mountpoint: string): Promise<void> {
    // Stacked mounts are possible (a bind over the rootfs): unmount until the kernel says the path
    // is no mount point (EINVAL), bounded. No /proc/self/mountinfo is read for that: it grows with
    // every pod on the node, and reading and parsing it cost more than the unmount.
    for (let i = 0; i < 8; i++) {
      try {
        umount2(mountpoint, 0);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EINVAL' || code === 'ENOENT') return;
        if (code === 'EBUSY') umount2(mountpoint, MNT.DETACH);
        else throw error;
      }
    }
  }
}

function pick(r: ContainerSnapshot): SnapshotMounts {
  return { mountpoint: r.mountpoint, upperdir: r.upperdir, workdir: r.workdir, lowerdirs: r.lowerdirs };
}

/** Mount points of this mount namespace (octal escapes in mountinfo decoded). */
export async function mountedPaths(): Promise<Set<string>> {
  // A procfs read: synchronous, cheaper than the thread-pool round trips of an async read.
  const text = readFileSync('/proc/self/mountinfo', 'utf8');
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const field = line.split(' ')[4];
    if (field) out.add(field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8))));
  }
  return out;
}

/** Apparent bytes of regular files and the number of inodes under `dir` (hardlinks counted once). */
export async function diskUsage(dir: string): Promise<{ bytes: number; inodes: number }> {
  const seen = new Set<string>();
  let bytes = 0;
  let inodes = 0;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop()!;
    const st = await lstat(current).catch(() => undefined);
    if (!st) continue;
    const id = `${st.dev}:${st.ino}`;
    if (seen.has(id)) continue;
    seen.add(id);
    inodes++;
    if (st.isFile()) bytes += st.size;
    if (st.isDirectory()) for (const name of await readdir(current).catch(() => [] as string[])) stack.push(joinPath(current, name));
  }
  return { bytes, inodes };
}
