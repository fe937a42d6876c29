// Local images without a registry: a one-layer image from a directory
// (tests, the offline demo) or from a rootfs tarball (isula import).
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { invalidArgument } from '../errors.js';
import { decompressFile, fileCompression } from './decompress.js';
import type { ImageContext } from './image-context.js';
import type { ImageRecord } from './image-store.js';
import { unpackLayerFile } from './layer-unpack.js';
import { MEDIA, type Descriptor, type ImageManifest, type OciImageConfig } from './manifest.js';
import { hostPlatform } from './platform.js';
import { parseReference, tagName } from './reference.js';
import { directoryEntries, tarStream } from './tar-writer.js';

/** Image config fields a build may set (OCI config names). */
export interface BuildConfig {
  Env?: string[];
  Entrypoint?: string[];
  Cmd?: string[];
  WorkingDir?: string;
  User?: string;
  Labels?: Record<string, string>;
  ExposedPorts?: Record<string, object>;
  StopSignal?: string;
  /** Fixed creation time (ISO 8601) for reproducible builds; default: now. */
  created?: string;
}

const DEFAULT_PATH = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export async function buildFromRootfs(ctx: ImageContext, dir: string, ref: string, config: BuildConfig = {}): Promise<string> {
  return ctx.addingContent(async () => {
    const layer = await ctx.blobs.putStream(tarStream(directoryEntries(dir)));
    // Uncompressed layer: its digest is its diff ID.
    return commitSingleLayer(ctx, ref, { mediaType: MEDIA.ociLayer, digest: layer.digest, size: layer.size }, layer.digest, config);
  });
}

export async function importRootfs(ctx: ImageContext, tarPath: string, ref: string, config: BuildConfig = {}): Promise<string> {
  return ctx.addingContent(async () => {
    const compression = fileCompression(tarPath);
    const layer = await ctx.blobs.putStream(createReadStream(tarPath, { highWaterMark: 1 << 20 }));
    const hash = createHash('sha256');
    for await (const chunk of decompressFile(ctx.blobs.path(layer.digest))) hash.update(chunk);
    const diffId = `sha256:${hash.digest('hex')}`;
    const mediaType = compression === 'gzip' ? MEDIA.ociLayerGzip : compression === 'zstd' ? MEDIA.ociLayerZstd : MEDIA.ociLayer;
    return commitSingleLayer(ctx, ref, { mediaType, digest: layer.digest, size: layer.size }, diffId, config);
  });
}

async function commitSingleLayer(ctx: ImageContext, ref: string, layer: Descriptor, diffId: string, config: BuildConfig): Promise<string> {
  const parsed = parseReference(ref);
  if (parsed.digest) throw invalidArgument(`cannot name a built image by digest ("${ref}")`);
  await ctx.layers.ensure(diffId, diffId, undefined, (dir) => unpackLayerFile(ctx.blobs.path(layer.digest), dir));
  const platform = hostPlatform();
  const { created, ...runConfig } = config;
  const imageConfig: OciImageConfig = {
    created: created ?? new Date().toISOString(),
    architecture: platform.architecture,
    os: platform.os,
    ...(platform.variant ? { variant: platform.variant } : {}),
    config: { Env: [DEFAULT_PATH], ...runConfig },
    rootfs: { type: 'layers', diff_ids: [diffId] },
    history: [{ created: created ?? new Date().toISOString(), created_by: 'isulats build' }],
  };
  const configBody = Buffer.from(JSON.stringify(imageConfig));
  const configDigest = await ctx.blobs.put(configBody);
  const manifest: ImageManifest & { mediaType: string } = {
    schemaVersion: 2,
    mediaType: MEDIA.ociManifest,
    config: { mediaType: MEDIA.ociConfig, digest: configDigest, size: configBody.length },
    layers: [layer],
  };
  const manifestBody = Buffer.from(JSON.stringify(manifest));
  const manifestDigest = await ctx.blobs.put(manifestBody);
  const record: ImageRecord = {
    id: configDigest,
    targetDigest: manifestDigest,
    manifestDigest,
    config: manifest.config,
    layers: [layer],
    diffIds: [diffId],
    chainIds: [diffId],
    size: manifestBody.length + configBody.length + layer.size,
    repoDigests: [],
    createdAt: imageConfig.created!,
  };
  await ctx.images.commit(record, tagName(parsed));
  return configDigest;
}
