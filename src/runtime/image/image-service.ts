// The image service of the embedded engine: CRI ImageService (list, status,
// pull, remove, fs info) plus isula's extras (tag, load, save, import, build
// from a rootfs dir, login/logout, gc) and resolveImage for the runtime engine.
import { join } from 'node:path';
import type * as cri from '../../api/cri.js';
import type { ImageApi, PullImageOptions } from '../../api/cri-service.js';
import { failedPrecondition, invalidArgument, IsulatsError, notFound } from '../errors.js';
import { buildFromRootfs, importRootfs, type BuildConfig } from './image-build.js';
import { JsonFileCache } from '../store/json-cache.js';
import { ImageContext } from './image-context.js';
import { pull } from './image-pull.js';
import type { ImageRecord } from './image-store.js';
import { loadArchive, saveArchive, type ArchiveFormat } from './image-archive.js';
import type { OciImageConfig, Platform } from './manifest.js';
import { formatReference, parseReference, repository, tagName } from './reference.js';
import { AuthsFileStore, credentialsFromAuthConfig, normaliseServer, type RegistryCredentials } from './registry-auth.js';
import { RegistryClient } from './registry-client.js';
import { collectGarbage, type GcResult } from './image-gc.js';

export interface ImageServiceOptions {
  /** Persistent root (default /var/lib/isulats). */
  root: string;
  /** Volatile state dir (default /run/isulats). */
  state: string;
  /** containerd-style hosts.toml directory. */
  registryConfigDir?: string;
  registryMirrors?: string[];
  insecureRegistries?: string[];
  /** Login store (default /root/.isulats/auths.json). */
  authFile?: string;
  /** Platform to pull (default: this host's). */
  platform?: Platform;
  /** Where a failure of work that outlives its call goes (a removed image's collection). */
  warn?: (message: string) => void;
  /** References listed as pinned (the sandbox image, as containerd pins it): `rmi --prune` keeps them. */
  pinnedImages?: readonly string[];
}

/**
 * RemoveImage collects what the image alone held before it answers, as containerd does (kubelet's
 * image gc reads ImageFsInfo right after), except for an image of more than
 * REMOVE_IMAGE_SYNC_LAYERS layers: it answers after REMOVE_IMAGE_GC_WAIT_MS of that (crictl's
 * deadline is 2 s; 10,000 layers take seconds), the rest goes on after, and close() waits for it.
 */
export const REMOVE_IMAGE_SYNC_LAYERS = 1_000;
export const REMOVE_IMAGE_GC_WAIT_MS = 1_000;

/** What the runtime engine needs to create a container's rootfs from an image. */
export interface ResolvedImage {
  id: string;
  /** The name it was asked by, normalised (or the ID). */
  ref: string;
  config: OciImageConfig;
  chainIds: string[];
  /** Overlay lowerdirs, topmost layer first. */
  snapshotDirs: string[];
}

export const DEFAULT_AUTH_FILE = '/root/.isulats/auths.json';

export class ImageService implements ImageApi {
  readonly ctx: ImageContext;
  private readonly auths: AuthsFileStore;
  private readonly configs = new JsonFileCache(64);
  /** Registry endpoints found to speak plain http (loopback and insecure registries only). */
  private readonly plainHttp = new Set<string>();
  /** Collections that went on after their RemoveImage answered. */
  private readonly collecting = new Set<Promise<void>>();

  private constructor(private readonly opts: ImageServiceOptions) {
    this.ctx = new ImageContext(opts.root);
    this.auths = new AuthsFileStore(opts.authFile ?? DEFAULT_AUTH_FILE);
  }

  /** Opens (creating if needed) the image root; cleans temp files of dead processes. */
  static async open(opts: ImageServiceOptions): Promise<ImageService> {
    const service = new ImageService(opts);
    await service.ctx.init();
    return service;
  }

  // ---- CRI ----

  async listImages(req: cri.ListImagesRequestIn): Promise<cri.ListImagesResponse> {
    const wanted = req.filter?.image?.image;
    let records = await this.ctx.images.list();
    if (wanted) {
      const hit = await this.find(wanted).catch(() => undefined);
      records = hit ? [hit] : [];
    }
    const tags = await this.ctx.images.tagsById();
    const pinned = await this.pinnedIds();
    const images = await Promise.all(records.map((r) => this.toCri(r, tags.get(r.id) ?? [], pinned)));
    // Tagged images by name first, then <none> images by ID (plain code-point order).
    const key = (i: cri.Image) => `${i.repoTags.length ? '0' : '1'}${i.repoTags[0] ?? ''}\0${i.id}`;
    images.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    return { images };
  }

  async imageStatus(req: cri.ImageStatusRequestIn): Promise<cri.ImageStatusResponse> {
    const name = req.image?.image ?? '';
    if (!name) throw invalidArgument('image name is required');
    const record = await this.find(name).catch((error) => {
      if (error instanceof IsulatsError && error.kind === 'not-found') return undefined;
      throw error;
    });
    if (!record) return { image: null, info: {} };
    const tags = (await this.ctx.images.tagsById()).get(record.id) ?? [];
    const image = await this.toCri(record, tags, await this.pinnedIds());
    const info: Record<string, string> = {};
    if (req.verbose) {
      const config = await this.config(record);
      info.info = JSON.stringify({ chainID: record.chainIds[record.chainIds.length - 1] ?? '', imageSpec: config });
    }
    return { image, info };
  }

  async pullImage(req: cri.PullImageRequestIn, opts: PullImageOptions = {}): Promise<cri.PullImageResponse> {
    const name = req.image?.image ?? '';
    if (!name) throw invalidArgument('image name is required');
    const ref = parseReference(name);
    const requestCreds = credentialsFromAuthConfig(req.auth ?? undefined);
    const client = this.client(requestCreds, opts.signal);
    try {
      const record = await pull(this.ctx, client, ref, { progress: opts.progress, platform: this.opts.platform, signal: opts.signal });
      return { imageRef: record.id };
    } finally {
      client.close();
    }
  }

  async removeImage(req: cri.RemoveImageRequestIn): Promise<cri.RemoveImageResponse> {
    const name = req.image?.image ?? '';
    if (!name) throw invalidArgument('image name is required');
    let record: ImageRecord;
    try {
      record = await this.find(name);
    } catch (error) {
      // RemoveImage is idempotent: an image that is not there is removed.
      if (error instanceof IsulatsError && error.kind === 'not-found') return {};
      throw error;
    }
    // An image a container uses goes too, as on containerd: the container's rootfs record names
    // its layers, so gc keeps them until the container is removed (releaseLayers).
    await this.ctx.images.remove(record.id);
    // Free the space now, as containerd does, so ImageFsInfo drops; while a pull
    // holds the content lock this is left to the next gc.
    const gc = collectGarbage(this.ctx, this.containerSnapshotDir, 2_000).then(() => undefined, (error: unknown) => {
      if (!(error instanceof IsulatsError && error.kind === 'deadline-exceeded')) throw error;
    });
    if (record.layers.length <= REMOVE_IMAGE_SYNC_LAYERS) {
      await gc;
      return {};
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), REMOVE_IMAGE_GC_WAIT_MS)));
    const done = await Promise.race([gc.then(() => true as const), waited]).finally(() => clearTimeout(timer));
    if (!done) {
      const later: Promise<void> = gc
        .catch((error: unknown) => this.opts.warn?.(`collecting what image ${record.id} held: ${(error as Error).message}`))
        .finally(() => this.collecting.delete(later));
      this.collecting.add(later);
    }
    return {};
  }

  async imageFsInfo(_req: cri.ImageFsInfoRequestIn = {}): Promise<cri.ImageFsInfoResponse> {
    let bytes = 0;
    let inodes = 0;
    for (const digest of await this.ctx.blobs.list()) {
      bytes += (await this.ctx.blobs.size(digest)) ?? 0;
      inodes++;
    }
    for (const chain of await this.ctx.layers.list()) {
      const meta = await this.ctx.layers.get(chain);
      if (!meta) continue;
      bytes += meta.bytes;
      inodes += meta.inodes;
    }
    const usage: cri.FilesystemUsage = {
      timestamp: `${BigInt(Date.now()) * 1_000_000n}`,
      fsId: { mountpoint: this.ctx.layers.dir },
      usedBytes: { value: String(bytes) },
      inodesUsed: { value: String(inodes) },
    };
    return { imageFilesystems: [usage], containerFilesystems: [] };
  }

  // ---- isula extras ----

  /** Finds an image by tag, repo digest, ID or unique ID prefix. */
  async find(name: string): Promise<ImageRecord> {
    const images = this.ctx.images;
    const idLike = /^(?:sha256:)?([0-9a-f]{1,64})$/.exec(name);
    if (idLike && idLike[1]!.length === 64) {
      const rec = await images.get(`sha256:${idLike[1]}`);
      if (rec) return rec;
    }
    let ref;
    try {
      ref = parseReference(name);
    } catch {
      ref = undefined;
    }
    if (ref) {
      const tag = tagName(ref);
      if (tag && !ref.digest) {
        const id = (await images.tags())[tag];
        if (id) {
          const rec = await images.get(id);
          if (rec) return rec;
        }
      }
      if (ref.digest) {
        const want = `${repository(ref)}@${ref.digest}`;
        const hit = (await images.list()).find((r) => r.repoDigests.includes(want) || r.id === ref!.digest);
        if (hit) return hit;
      }
    }
    if (idLike && idLike[1]!.length < 64) {
      const matches = (await images.list()).filter((r) => r.id.slice(7).startsWith(idLike[1]!));
      if (matches.length === 1) return matches[0]!;
      if (matches.length > 1) throw invalidArgument(`image ID prefix "${name}" is ambiguous (${matches.length} images match)`);
    }
    throw notFound(`image "${name}" not found`);
  }

  /** What the runtime engine needs to build a rootfs; refuses images whose snapshots are missing. */
  async resolveImage(name: string): Promise<ResolvedImage> {
    const record = await this.find(name);
    const config = await this.config(record);
    for (const chain of record.chainIds) {
      if (!(await this.ctx.layers.get(chain))) throw failedPrecondition(`image ${name}: layer snapshot ${chain} is missing; pull the image again`);
    }
    const tags = (await this.ctx.images.tagsById()).get(record.id) ?? [];
    let ref = record.id;
    try {
      const parsed = formatReference(parseReference(name));
      ref = tags.includes(parsed) ? parsed : (tags[0] ?? record.id);
    } catch {
      ref = tags[0] ?? record.id;
    }
    return {
      id: record.id,
      ref,
      config,
      chainIds: record.chainIds,
      snapshotDirs: [...record.chainIds].reverse().map((c) => this.ctx.layers.fsPath(c)),
    };
  }

  /**
   * Runs `fn` (a container's rootfs record written) under the gc lock, shared: a RemoveImage's
   * collection runs before or after it, never between the check of the layers and the record that
   * then keeps them. Layers a collection took before are "not found", as the removed image is.
   */
  async holdingLayers<T>(image: { id: string; chainIds: string[] }, fn: () => Promise<T>): Promise<T> {
    return this.ctx.addingContent(async () => {
      for (const chain of image.chainIds) {
        if (!(await this.ctx.layers.get(chain))) throw notFound(`image ${image.id} was removed (its layer ${chain} is gone)`);
      }
      return fn();
    });
  }

  /**
   * A container's rootfs over `imageId` was removed: when the image was removed before, the layers
   * it left to that rootfs are collected now (the rest of them at the next gc if a pull holds the
   * content lock past the wait).
   */
  async releaseLayers(imageId: string): Promise<void> {
    if (await this.ctx.images.get(imageId)) return;
    await collectGarbage(this.ctx, this.containerSnapshotDir, 2_000).catch((error: unknown) => {
      if (!(error instanceof IsulatsError && error.kind === 'deadline-exceeded')) this.opts.warn?.(`collecting the layers image ${imageId} left: ${(error as Error).message}`);
    });
  }

  /** Adds tag `target` to the image `source` names. */
  async tag(source: string, target: string): Promise<void> {
    const record = await this.find(source);
    const ref = parseReference(target);
    if (ref.digest) throw invalidArgument(`cannot tag with a digest reference "${target}"`);
    await this.ctx.images.tag(tagName(ref)!, record.id);
  }

  /** Loads a docker-archive or OCI-layout tarball; returns the loaded image IDs with their names. */
  async load(tarPath: string, tagForUnnamed?: string): Promise<Array<{ id: string; tags: string[] }>> {
    return loadArchive(this.ctx, tarPath, tagForUnnamed);
  }

  async save(refs: string[], tarPath: string, format: ArchiveFormat = 'docker-archive'): Promise<void> {
    const records: Array<{ record: ImageRecord; name?: string }> = [];
    for (const name of refs) {
      const record = await this.find(name);
      let tag: string | undefined;
      try {
        tag = tagName(parseReference(name));
        if (tag && (await this.ctx.images.tags())[tag] !== record.id) tag = undefined;
      } catch {
        tag = undefined;
      }
      records.push({ record, name: tag });
    }
    await saveArchive(this.ctx, records, tarPath, format);
  }

  /** Makes a one-layer image from a rootfs tarball (isula import). Returns the image ID. */
  async importRootfs(tarPath: string, ref: string, config?: BuildConfig): Promise<string> {
    return importRootfs(this.ctx, tarPath, ref, config);
  }

  /** Makes a one-layer image from a local directory (tests, offline demo). Returns the image ID. */
  async buildFromRootfs(dir: string, ref: string, config?: BuildConfig): Promise<string> {
    return buildFromRootfs(this.ctx, dir, ref, config);
  }

  /** Checks the credentials against the registry, then stores them (mode 0600). */
  async login(server: string, username: string, password: string): Promise<void> {
    const host = normaliseServer(server);
    const creds = { username, password };
    const client = this.client(creds);
    try {
      await client.ping(parseReference(`${host}/isulats-login-probe`));
    } finally {
      client.close();
    }
    await this.auths.set(host, username, password);
  }

  /** Forgets stored credentials; false when there were none. */
  async logout(server: string): Promise<boolean> {
    return this.auths.remove(server);
  }

  /** Removes one tag only (isula rmi of one of several names); the image stays. */
  async untag(name: string): Promise<void> {
    const tag = tagName(parseReference(name));
    if (!tag || !(tag in (await this.ctx.images.tags()))) throw notFound(`image "${name}" not found`);
    await this.ctx.images.untag(tag);
  }

  /** Removes blobs and snapshots no image (or container snapshot) references. */
  async gc(): Promise<GcResult> {
    return collectGarbage(this.ctx, this.containerSnapshotDir);
  }

  private get containerSnapshotDir(): string {
    return join(this.opts.root, 'containers-rw');
  }

  async close(): Promise<void> {
    // Nothing held open between calls (each pull makes and closes its own client) but a
    // removed image's collection that outlived its call.
    await Promise.allSettled([...this.collecting]);
  }

  // ---- helpers ----

  private client(requestCreds: RegistryCredentials | undefined, signal?: AbortSignal): RegistryClient {
    return new RegistryClient({
      signal,
      configDir: this.opts.registryConfigDir,
      mirrors: this.opts.registryMirrors,
      insecure: this.opts.insecureRegistries,
      plainHttp: this.plainHttp,
      credentials: async (domain) => requestCreds ?? (await this.auths.get(domain)),
    });
  }

  /** The image's config blob, kept parsed while unchanged (as the image records are). */
  private config(record: ImageRecord): Promise<OciImageConfig> {
    return this.configs.read<OciImageConfig>(this.ctx.blobs.path(record.config.digest));
  }

  /** IDs of the images the pinned references name now (a reference not pulled yet names none). */
  private async pinnedIds(): Promise<Set<string>> {
    const ids = await Promise.all((this.opts.pinnedImages ?? []).map((ref) => this.find(ref).then((r) => r.id, () => undefined)));
    return new Set(ids.filter((id): id is string => id !== undefined));
  }

  private async toCri(record: ImageRecord, repoTags: string[], pinned: Set<string>): Promise<cri.Image> {
    const config = await this.config(record).catch(() => undefined);
    const user = config?.config?.User ?? '';
    const userPart = user.split(':')[0] ?? '';
    const numeric = /^\d+$/.test(userPart);
    return {
      id: record.id,
      repoTags,
      repoDigests: record.repoDigests,
      size: String(record.size),
      uid: numeric ? { value: userPart } : null,
      username: numeric ? '' : userPart,
      spec: { image: record.id, annotations: {}, userSpecifiedImage: '', runtimeHandler: '', imageRef: '' },
      pinned: pinned.has(record.id),
    };
  }
}

