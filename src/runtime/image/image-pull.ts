// Pull = resolve manifest (select platform) -> config and layer blobs downloaded
// together (as containerd dispatches a manifest's children) -> each layer unpacked
// into a chain-ID snapshot once its blob and the config's diff IDs are there -> record.
// Each step is idempotent and committed by rename, so a pull killed anywhere
// is finished by the next one; concurrent pulls share blobs and snapshots
// through their locks.
import type { IncomingMessage } from 'node:http';
import { IsulatsError, invalidArgument } from '../errors.js';
import { chainIds as computeChainIds, checkDigest } from './digest.js';
import { failpoint } from './failpoint.js';
import { mapLimit, type ImageContext } from './image-context.js';
import type { ImageRecord } from './image-store.js';
import { unpackLayerFile } from './layer-unpack.js';
import { checkDescriptorSize, MAX_BLOB_SIZE, MAX_CONFIG_SIZE, MAX_MANIFEST_SIZE } from './descriptor-check.js';
import { LAYER_TYPES, manifestKind, type Descriptor, type ImageIndex, type ImageManifest, type OciImageConfig, type Platform } from './manifest.js';
import { hostPlatform, selectManifest } from './platform.js';
import { repository, tagName, type ImageReference } from './reference.js';
import { isRetryable, type RegistryClient } from './registry-client.js';
import type { PullProgress } from '../../api/cri-service.js';

export interface PullOptions {
  platform?: Platform;
  progress?: PullProgress;
  /** Layers fetched at once (default 4). */
  concurrency?: number;
  /** Aborts when the caller has gone: downloads stop, lock waits end, nothing more is unpacked. */
  signal?: AbortSignal;
}

export async function pull(ctx: ImageContext, client: RegistryClient, ref: ImageReference, opts: PullOptions = {}): Promise<ImageRecord> {
  return ctx.addingContent(async () => {
    const top = await client.fetchManifest(ref);
    opts.signal?.throwIfAborted();
    await ctx.blobs.put(top.body, top.digest);
    let manifestDigest = top.digest;
    let manifestBody = top.body;
    let indexDigest: string | undefined;
    let indexSize = 0;
    if (kindOf(top.mediaType, top.body) === 'index') {
      const index = JSON.parse(top.body.toString('utf8')) as ImageIndex;
      const want = opts.platform ?? hostPlatform();
      const chosen = selectManifest(index.manifests ?? [], want);
      if (!chosen) {
        const have = (index.manifests ?? []).map((m) => (m.platform ? [m.platform.os, m.platform.architecture, m.platform.variant].filter(Boolean).join('/') : '?'));
        throw new IsulatsError('not-found', `no manifest for platform ${[want.os, want.architecture, want.variant].filter(Boolean).join('/')} in ${repository(ref)} (has: ${have.join(', ')})`);
      }
      checkDigest(chosen.digest, 'manifest digest');
      checkDescriptorSize(chosen, 'manifest', MAX_MANIFEST_SIZE);
      const fetched = await client.fetchManifest(ref, chosen.digest);
      if (fetched.body.length !== chosen.size) {
        throw invalidArgument(`manifest ${chosen.digest} has ${fetched.body.length} bytes, the index declares ${chosen.size}`);
      }
      if (kindOf(fetched.mediaType, fetched.body) !== 'manifest') throw invalidArgument(`nested index ${chosen.digest} is not supported`);
      await ctx.blobs.put(fetched.body, chosen.digest);
      indexDigest = top.digest;
      indexSize = top.body.length;
      manifestDigest = chosen.digest;
      manifestBody = fetched.body;
    }
    failpoint('pull-after-manifest');
    const manifest = JSON.parse(manifestBody.toString('utf8')) as ImageManifest;
    validateManifest(manifest);
    // The layers need only the manifest to download; the config (diff IDs) is needed to unpack.
    const configured = fetchConfig(ctx, client, ref, manifest, opts.signal);
    const { config, diffIds, chains } = await fetchAndUnpack(ctx, client, ref, manifest.layers, configured, opts);

    const repo = repository(ref);
    const record: ImageRecord = {
      id: manifest.config.digest,
      targetDigest: top.digest,
      manifestDigest,
      indexDigest,
      config: manifest.config,
      layers: manifest.layers,
      diffIds,
      chainIds: chains,
      size: indexSize + manifestBody.length + manifest.config.size + manifest.layers.reduce((s, l) => s + l.size, 0),
      repoDigests: [`${repo}@${top.digest}`],
      createdAt: config.created ?? new Date(0).toISOString(),
    };
    opts.signal?.throwIfAborted();
    await ctx.images.commit(record, tagName(ref));
    return record;
  }, opts.signal);
}

interface ConfigFacts {
  config: OciImageConfig;
  diffIds: string[];
  chains: string[];
}

/** Downloads, reads and checks the image config: its diff IDs must match the manifest's layers. */
async function fetchConfig(ctx: ImageContext, client: RegistryClient, ref: ImageReference, manifest: ImageManifest, signal?: AbortSignal): Promise<ConfigFacts> {
  await fetchBlob(ctx, client, ref, manifest.config, signal);
  const config = JSON.parse((await ctx.blobs.read(manifest.config.digest)).toString('utf8')) as OciImageConfig;
  const diffIds = config.rootfs?.diff_ids ?? [];
  if (diffIds.length !== manifest.layers.length) {
    throw invalidArgument(`image config lists ${diffIds.length} layer diff IDs, the manifest ${manifest.layers.length} layers`);
  }
  diffIds.forEach((d, i) => checkDigest(d, `diff ID of layer ${i + 1}`));
  return { config, diffIds, chains: computeChainIds(diffIds) };
}

/**
 * Downloads the layers (`concurrency` at once) while the config arrives, and unpacks each as soon
 * as its blob and the config are there (`concurrency` at once too). Downloads run ahead of
 * unpacking: a layer's unpack (CPU and disk) holds no download slot, so later layers arrive while
 * earlier ones unpack. A layer whose blob is stored is not downloaded again; one whose snapshot is
 * there too is not unpacked again. Rejects with the first error (the config's, then a download's)
 * once all started work has settled.
 */
async function fetchAndUnpack(
  ctx: ImageContext, client: RegistryClient, ref: ImageReference, layers: Descriptor[], configured: Promise<ConfigFacts>, opts: PullOptions,
): Promise<ConfigFacts> {
  const concurrency = opts.concurrency ?? 4;
  const progress = (layer: Descriptor) => (state: 'waiting' | 'downloading' | 'extracting' | 'done' | 'exists', done: number) =>
    opts.progress?.({ layer: layer.digest.slice(7, 19), total: layer.size, done, state });
  // Per layer: resolves once its blob is stored.
  const downloaded = layers.map(() => deferred<void>());
  let abandoned = false;
  // A bad config stops downloads not yet started; it is the error the pull reports.
  void configured.catch(() => void (abandoned = true));
  const fetching = mapLimit(layers, concurrency, async (layer, i) => {
    const report = progress(layer);
    try {
      if (abandoned) throw new Error('pull abandoned');
      opts.signal?.throwIfAborted();
      if (!(await ctx.blobs.has(layer.digest))) {
        report('waiting', 0);
        await fetchBlob(ctx, client, ref, layer, opts.signal, (n) => report('downloading', n));
      }
      downloaded[i]!.resolve();
    } catch (error) {
      downloaded[i]!.reject(error);
      throw error;
    }
  });
  // Downloads that never started (an earlier one failed) release the unpack side.
  void fetching.catch(() => undefined).then(() => {
    for (const d of downloaded) d.reject(new Error('download not started'));
  });
  let unpackFailed = false;
  const unpacking = configured.then(({ diffIds, chains }) => mapLimit(layers, concurrency, async (layer, i) => {
    await downloaded[i]!.promise;
    opts.signal?.throwIfAborted();
    const report = progress(layer);
    if (await ctx.layers.get(chains[i]!)) {
      report('exists', layer.size);
      return;
    }
    report('extracting', layer.size);
    try {
      await ctx.layers.ensure(chains[i]!, diffIds[i]!, i > 0 ? chains[i - 1] : undefined, (dir) =>
        unpackLayerFile(ctx.blobs.path(layer.digest), dir),
      );
    } catch (error) {
      unpackFailed = abandoned = true; // downloads not yet started are not worth making
      throw error;
    }
    report('done', layer.size);
  }));
  const [facts, fetched, unpacked] = await Promise.allSettled([configured, fetching, unpacking]);
  if (facts.status === 'rejected') throw facts.reason;
  if (unpacked.status === 'rejected' && unpackFailed) throw unpacked.reason;
  if (fetched.status === 'rejected') throw fetched.reason;
  if (unpacked.status === 'rejected') throw unpacked.reason;
  return facts.value;
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  // Awaited only by the unpack side, which may have stopped: never an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

function kindOf(mediaType: string, body: Buffer): 'index' | 'manifest' {
  try {
    return manifestKind(mediaType, body);
  } catch (error) {
    throw invalidArgument((error as Error).message);
  }
}

function validateManifest(m: ImageManifest): void {
  if (!m.config?.digest || !Array.isArray(m.layers)) throw invalidArgument('manifest lacks config or layers');
  checkDigest(m.config.digest, 'config digest');
  checkDescriptorSize(m.config, 'image config', MAX_CONFIG_SIZE);
  m.layers.forEach((layer, i) => {
    if (!LAYER_TYPES.has(layer.mediaType)) throw invalidArgument(`unsupported layer media type "${layer.mediaType}"`);
    checkDigest(layer.digest, `digest of layer ${i + 1}`);
    checkDescriptorSize(layer, `layer ${i + 1}`, MAX_BLOB_SIZE);
  });
}

/**
 * Downloads a blob into the store (verified), once for all the pulls in this process that want it
 * at the same time: the download goes on while one of them still waits (its own client and
 * connections, so it outlives the pull that started it) and stops when the last one leaves.
 * Progress goes to the pull that started it.
 */
async function fetchBlob(
  ctx: ImageContext, client: RegistryClient, ref: ImageReference, desc: Descriptor, signal?: AbortSignal, progress?: (n: number) => void,
): Promise<void> {
  if (await ctx.blobs.has(desc.digest)) return;
  // By size too: a download is checked against the size its descriptor declares.
  await ctx.downloads.join(downloadKey(desc), async (shared) => {
    const own = client.withSignal(shared);
    try {
      await download(ctx, own, ref, desc, shared, progress);
    } finally {
      own.close();
    }
  }, signal);
}

/** The key of a blob's download in ImageContext.downloads. */
export function downloadKey(desc: Descriptor): string {
  return `${desc.digest}@${desc.size}`;
}

/**
 * Downloads a blob into the store (verified), retrying transient failures mid-stream. The
 * descriptor's size bounds it: a body announced or found longer (or shorter) fails the pull.
 */
async function download(
  ctx: ImageContext, client: RegistryClient, ref: ImageReference, desc: Descriptor, signal: AbortSignal, progress?: (n: number) => void,
): Promise<void> {
  const attempts = 3;
  let from = '';
  const open = async (): Promise<IncomingMessage> => {
    const res = await client.fetchBlob(ref, desc.digest);
    from = res.usedUrl;
    const announced = Number(res.headers['content-length']);
    if (res.headers['content-length'] !== undefined && announced > desc.size) {
      res.destroy();
      throw invalidArgument(`blob ${desc.digest} is larger than the ${desc.size} bytes its descriptor declares (the registry announces ${announced})`);
    }
    return res;
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.blobs.ensure(desc.digest, open, desc.size, progress, signal);
      ctx.pulled.bytes += desc.size;
      return;
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error) || signal.aborted) throw signal.aborted ? signal.reason : blobError(desc.digest, from, error);
    }
  }
}

/** A download's failure as the client sees it: engine errors as they are, network ones naming the blob and its URL. */
function blobError(digest: string, url: string, error: unknown): unknown {
  if (error instanceof IsulatsError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  // Node's message for a body cut short is only "aborted".
  const what = (error as Error).message === 'aborted' ? 'the registry closed the connection in the middle of the body' : (error as Error).message;
  return new IsulatsError('unavailable', `blob ${digest}${url ? ` from ${url}` : ''}: ${what}${code ? ` (${code})` : ''}`, { cause: error });
}
