// isula load/save: docker-archive (manifest.json + config + layer files) and
// OCI image layout (oci-layout + index.json + blobs/sha256/*) tarballs.
// Load unpacks the outer tarball into a temp dir (streamed), then imports
// blobs into the store with verification, like a pull from a local source.
import { closeSync, createReadStream, createWriteStream, openSync, writeSync } from 'node:fs';
import { lstat, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { invalidArgument } from '../errors.js';
import { chainIds as computeChainIds, checkDigest, digestHex, sha256Digest } from './digest.js';
import type { ImageContext } from './image-context.js';
import type { ImageRecord } from './image-store.js';
import { unpackLayerFile } from './layer-unpack.js';
import { decompressFile, fileCompression } from './decompress.js';
import { manifestKind, MEDIA, type Descriptor, type ImageIndex, type ImageManifest, type OciImageConfig } from './manifest.js';
import { entryComponents } from './path-safety.js';
import { hostPlatform, selectManifest } from './platform.js';
import { parseReference, repository, tagName } from './reference.js';
import { readTar } from './tar-reader.js';
import { tarStream, type TarWriteEntry } from './tar-writer.js';

export type ArchiveFormat = 'docker-archive' | 'oci-archive';

const REF_NAME = 'org.opencontainers.image.ref.name';
const CONTAINERD_NAME = 'io.containerd.image.name';

export async function loadArchive(ctx: ImageContext, tarPath: string, tagForUnnamed?: string): Promise<Array<{ id: string; tags: string[] }>> {
  return ctx.addingContent(async () => {
    const work = join(ctx.blobs.tmpDir, `${process.pid}-load-${randomBytes(4).toString('hex')}`);
    await mkdir(work, { recursive: true });
    try {
      await extractPlain(tarPath, work);
      const has = async (p: string) => stat(join(work, p)).then(() => true, () => false);
      if (await has('manifest.json')) return await loadDocker(ctx, work);
      if (await has('index.json')) return await loadOci(ctx, work, tagForUnnamed);
      throw invalidArgument(`${tarPath} is neither a docker-archive (manifest.json) nor an OCI layout (index.json)`);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
}

/** Extracts regular files and directories only; names are confined to `dir`. */
async function extractPlain(tarPath: string, dir: string): Promise<void> {
  for await (const { entry, body } of readTar(decompressFile(tarPath))) {
    const parts = entryComponents(entry.name);
    if (!parts.length) continue;
    const path = join(dir, ...parts);
    if (entry.type === 'directory') {
      await mkdir(path, { recursive: true });
    } else if (entry.type === 'file') {
      await mkdir(dirname(path), { recursive: true });
      const fd = openSync(path, 'w', 0o600);
      try {
        for await (const chunk of body) writeSync(fd, chunk);
      } finally {
        closeSync(fd);
      }
    }
  }
}

async function importBlobFile(ctx: ImageContext, path: string, expected?: string): Promise<{ digest: string; size: number }> {
  const size = (await stat(path)).size;
  if (expected) {
    await ctx.blobs.ensure(expected, async () => createReadStream(path, { highWaterMark: 1 << 20 }), size);
    return { digest: expected, size };
  }
  return ctx.blobs.putStream(createReadStream(path, { highWaterMark: 1 << 20 }));
}

async function commitImported(ctx: ImageContext, manifestBody: Buffer, manifest: ImageManifest, names: string[], targetDigest?: string): Promise<{ id: string; tags: string[] }> {
  const manifestDigest = await ctx.blobs.put(manifestBody);
  const config = JSON.parse((await ctx.blobs.read(manifest.config.digest)).toString('utf8')) as OciImageConfig;
  const diffIds = config.rootfs?.diff_ids ?? [];
  if (diffIds.length !== manifest.layers.length) throw invalidArgument('image config and manifest disagree on the number of layers');
  diffIds.forEach((d, i) => checkDigest(d, `diff ID of layer ${i + 1}`));
  const chains = computeChainIds(diffIds);
  for (let i = 0; i < manifest.layers.length; i++) {
    await ctx.layers.ensure(chains[i]!, diffIds[i]!, chains[i - 1], (dir) => unpackLayerFile(ctx.blobs.path(manifest.layers[i]!.digest), dir));
  }
  const tags = names.map((n) => tagName(parseReference(n))).filter((t): t is string => !!t);
  const record: ImageRecord = {
    id: manifest.config.digest,
    targetDigest: targetDigest ?? manifestDigest,
    manifestDigest,
    config: manifest.config,
    layers: manifest.layers,
    diffIds,
    chainIds: chains,
    size: manifestBody.length + manifest.config.size + manifest.layers.reduce((s, l) => s + l.size, 0),
    repoDigests: [],
    createdAt: config.created ?? new Date(0).toISOString(),
  };
  await ctx.images.commit(record, tags[0]);
  for (const t of tags.slice(1)) await ctx.images.tag(t, record.id);
  return { id: record.id, tags };
}

async function loadDocker(ctx: ImageContext, work: string): Promise<Array<{ id: string; tags: string[] }>> {
  const entries = JSON.parse(await readFile(join(work, 'manifest.json'), 'utf8')) as Array<{ Config: string; RepoTags?: string[] | null; Layers: string[] }>;
  const out: Array<{ id: string; tags: string[] }> = [];
  for (const e of entries) {
    const safe = (p: string) => join(work, ...entryComponents(p));
    const configBody = await readFile(safe(e.Config));
    const configDigest = await ctx.blobs.put(configBody);
    const layers: Descriptor[] = [];
    for (const l of e.Layers) {
      const { digest, size } = await importBlobFile(ctx, safe(l));
      const c = fileCompression(ctx.blobs.path(digest));
      layers.push({ mediaType: c === 'gzip' ? MEDIA.ociLayerGzip : c === 'zstd' ? MEDIA.ociLayerZstd : MEDIA.ociLayer, digest, size });
    }
    const manifest: ImageManifest = { schemaVersion: 2, mediaType: MEDIA.ociManifest, config: { mediaType: MEDIA.ociConfig, digest: configDigest, size: configBody.length }, layers };
    out.push(await commitImported(ctx, Buffer.from(JSON.stringify(manifest)), manifest, e.RepoTags ?? []));
  }
  return out;
}

async function loadOci(ctx: ImageContext, work: string, tagForUnnamed?: string): Promise<Array<{ id: string; tags: string[] }>> {
  // Checked before it names a file: `sha256:../../dev/zero` would read a host path. Only regular
  // files are extracted, so anything else (a FIFO, a device, a link) is simply not there.
  const blobPath = async (digest: unknown, what: string) => {
    const path = join(work, 'blobs', 'sha256', digestHex(checkDigest(digest, what), what));
    const info = await lstat(path).catch(() => undefined);
    if (!info?.isFile()) throw invalidArgument(`${what} ${digest as string} is not in the archive`);
    return path;
  };
  const readBlob = async (d: Descriptor, what: string) => {
    const body = await readFile(await blobPath(d.digest, what));
    if (sha256Digest(body) !== d.digest) throw invalidArgument(`blob ${d.digest} in the archive does not match its digest`);
    return body;
  };
  const index = JSON.parse(await readFile(join(work, 'index.json'), 'utf8')) as ImageIndex;
  const out: Array<{ id: string; tags: string[] }> = [];
  for (const desc of index.manifests ?? []) {
    let body = await readBlob(desc, 'manifest digest');
    let manifestDesc = desc;
    if (manifestKind(desc.mediaType, body) === 'index') {
      await ctx.blobs.put(body, desc.digest);
      const chosen = selectManifest((JSON.parse(body.toString('utf8')) as ImageIndex).manifests ?? [], hostPlatform());
      if (!chosen) throw invalidArgument(`no manifest for this platform in ${desc.digest}`);
      manifestDesc = chosen;
      body = await readBlob(chosen, 'manifest digest');
    }
    const manifest = JSON.parse(body.toString('utf8')) as ImageManifest;
    if (!manifest.config || !Array.isArray(manifest.layers)) throw invalidArgument(`manifest ${manifestDesc.digest} lacks config or layers`);
    await importBlobFile(ctx, await blobPath(manifest.config.digest, 'config digest'), manifest.config.digest);
    for (const l of manifest.layers) await importBlobFile(ctx, await blobPath(l.digest, 'layer digest'), l.digest);
    const name = desc.annotations?.[CONTAINERD_NAME] ?? desc.annotations?.[REF_NAME];
    let names: string[] = [];
    if (name && /[/:]/.test(name)) names = [name];
    else if (name && tagForUnnamed) names = [`${repository(parseReference(tagForUnnamed))}:${name}`];
    else if (tagForUnnamed) names = [tagForUnnamed];
    const result = await commitImported(ctx, body, manifest, names, desc.digest !== manifestDesc.digest ? desc.digest : undefined);
    out.push(result);
  }
  return out;
}

export async function saveArchive(ctx: ImageContext, images: Array<{ record: ImageRecord; name?: string }>, tarPath: string, format: ArchiveFormat): Promise<void> {
  const blobs = new Map<string, number>();
  const manifestJson: Array<{ Config: string; RepoTags: string[]; Layers: string[] }> = [];
  const indexManifests: Descriptor[] = [];
  for (const { record, name } of images) {
    const manifestBody = await ctx.blobs.read(record.manifestDigest);
    const mediaType = (JSON.parse(manifestBody.toString('utf8')) as { mediaType?: string }).mediaType ?? MEDIA.ociManifest;
    for (const d of [record.manifestDigest, record.config.digest, ...record.layers.map((l) => l.digest)]) {
      blobs.set(d, (await ctx.blobs.size(d)) ?? 0);
    }
    const blobName = (d: string) => `blobs/sha256/${d.slice(7)}`;
    manifestJson.push({ Config: blobName(record.config.digest), RepoTags: name ? [name] : [], Layers: record.layers.map((l) => blobName(l.digest)) });
    indexManifests.push({
      mediaType,
      digest: record.manifestDigest,
      size: manifestBody.length,
      ...(name ? { annotations: { [CONTAINERD_NAME]: name, [REF_NAME]: parseReference(name).tag ?? 'latest' } } : {}),
    });
  }
  const entries: TarWriteEntry[] = [
    { name: 'blobs', type: 'directory' },
    { name: 'blobs/sha256', type: 'directory' },
    ...[...blobs].map(([d, size]): TarWriteEntry => ({ name: `blobs/sha256/${d.slice(7)}`, type: 'file', sourcePath: ctx.blobs.path(d), size })),
    { name: 'oci-layout', type: 'file', data: JSON.stringify({ imageLayoutVersion: '1.0.0' }) },
    { name: 'index.json', type: 'file', data: JSON.stringify({ schemaVersion: 2, mediaType: MEDIA.ociIndex, manifests: indexManifests }) },
  ];
  if (format === 'docker-archive') entries.push({ name: 'manifest.json', type: 'file', data: JSON.stringify(manifestJson) });
  const tmp = `${tarPath}.tmp-${process.pid}`;
  try {
    await pipeline(Readable.from(tarStream(entries)), createWriteStream(tmp, { mode: 0o644 }));
    await rename(tmp, tarPath);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
