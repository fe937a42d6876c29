// Image records on disk: root/images/<config hex>.json (one per image ID,
// written atomically) and root/images/index.json, the name -> ID index that is
// the single authority for tags. Moving a tag is one atomic index write, so the
// previous image keeps its record and shows as <none> (CRI re-pull behaviour).
// All changes take root/images/index.lock.
import { readdir, rm } from 'node:fs/promises';
import { readJson, writeJsonAtomic } from '../store/atomic-file.js';
import { JsonFileCache } from '../store/json-cache.js';
import { withFileLock } from '../store/lock.js';
import { mkdirPrivate } from '../store/private-dirs.js';
import { digestHex } from './digest.js';
import { failpoint } from './failpoint.js';
import type { Descriptor } from './manifest.js';
import { joinPath } from '../store/path-join.js';

export interface ImageRecord {
  /** Config digest: the image ID. */
  id: string;
  /** Top-level digest the image was pulled by (index or manifest). */
  targetDigest: string;
  manifestDigest: string;
  indexDigest?: string;
  config: Descriptor;
  layers: Descriptor[];
  diffIds: string[];
  chainIds: string[];
  /** Bytes as containerd reports them: manifests + config + compressed layers. */
  size: number;
  /** "docker.io/library/busybox@sha256:..." */
  repoDigests: string[];
  createdAt: string;
}

interface IndexFile {
  /** "docker.io/library/busybox:latest" -> image ID */
  tags: Record<string, string>;
}

export class ImageStore {
  readonly dir: string;
  private readonly indexPath: string;
  private readonly lockPath: string;
  private readonly cache = new JsonFileCache();

  constructor(root: string) {
    this.dir = joinPath(root, 'images');
    this.indexPath = joinPath(this.dir, 'index.json');
    this.lockPath = joinPath(root, 'locks', 'images.lock');
  }

  async init(): Promise<void> {
    await mkdirPrivate(this.dir);
  }

  private recordPath(id: string): string {
    return joinPath(this.dir, `${digestHex(id)}.json`);
  }

  async get(id: string): Promise<ImageRecord | undefined> {
    try {
      return await this.cache.read<ImageRecord>(this.recordPath(id));
    } catch {
      return undefined;
    }
  }

  async list(): Promise<ImageRecord[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const out: ImageRecord[] = [];
    for (const name of names) {
      if (!/^[0-9a-f]{64}\.json$/.test(name)) continue;
      const rec = await this.get(`sha256:${name.slice(0, 64)}`);
      if (rec) out.push(rec);
    }
    return out;
  }

  async tags(): Promise<Record<string, string>> {
    return (await this.cache.read<IndexFile>(this.indexPath, { tags: {} })).tags ?? {};
  }

  /** Tags per image ID, sorted. */
  async tagsById(): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    for (const [tag, id] of Object.entries(await this.tags())) {
      const list = map.get(id) ?? [];
      list.push(tag);
      map.set(id, list);
    }
    for (const list of map.values()) list.sort();
    return map;
  }

  /**
   * Stores (or merges into) an image record, then points `tag` at it. The
   * record is written first: a crash in between leaves a complete untagged
   * image, never a tag without an image.
   */
  async commit(record: ImageRecord, tag?: string): Promise<void> {
    await withFileLock(this.lockPath, async () => {
      const existing = await this.get(record.id);
      const merged: ImageRecord = existing
        ? { ...record, repoDigests: [...new Set([...existing.repoDigests, ...record.repoDigests])].sort(), createdAt: existing.createdAt }
        : record;
      failpoint('record-before-write');
      // A pull of an image that is here already (kubelet's Always policy, `crictl run`) writes nothing.
      if (!existing || canonicalJson(existing) !== canonicalJson(merged)) await writeJsonAtomic(this.recordPath(record.id), merged);
      failpoint('record-after-write');
      if (tag) await this.writeTags((tags) => void (tags[tag] = record.id));
      failpoint('index-after-write');
    });
  }

  /** Points `tag` at an existing image ID. */
  async tag(tag: string, id: string): Promise<void> {
    await withFileLock(this.lockPath, () => this.writeTags((tags) => void (tags[tag] = id)));
  }

  /** Removes the record and every tag of an image. */
  async remove(id: string): Promise<void> {
    await withFileLock(this.lockPath, async () => {
      await this.writeTags((tags) => {
        for (const [tag, target] of Object.entries(tags)) if (target === id) delete tags[tag];
      });
      failpoint('remove-after-untag');
      await rm(this.recordPath(id), { force: true });
      failpoint('remove-after-record');
    });
  }

  /** Removes one tag only. */
  async untag(tag: string): Promise<void> {
    await withFileLock(this.lockPath, () => this.writeTags((tags) => void delete tags[tag]));
  }

  private async writeTags(change: (tags: Record<string, string>) => void): Promise<void> {
    const index = await readJson<IndexFile>(this.indexPath, { tags: {} });
    index.tags ??= {};
    const before = canonicalJson(index.tags);
    change(index.tags);
    if (canonicalJson(index.tags) === before) return; // nothing moved: no write, no fsync
    // Code-unit order, not localeCompare: a collator loads ICU data into the daemon (~3 MB of RSS).
    const sorted = Object.fromEntries(Object.entries(index.tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    await writeJsonAtomic(this.indexPath, { tags: sorted });
  }
}

/** JSON with object keys in code-unit order at every level: equal values give equal strings. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v));
}
