// Builds images in memory and pushes them to a registry with plain HTTP calls
// of the distribution API (monolithic blob upload, manifest PUT), so tests
// control every byte: lying digests, escaping layers, manifest lists.
import { gzipSync } from 'node:zlib';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { MEDIA, type Descriptor } from '../../src/runtime/image/manifest.js';
import { tarEntry, tarStream, type TarWriteEntry } from '../../src/runtime/image/tar-writer.js';

export interface BuiltLayer {
  blob: Buffer;
  digest: string;
  diffId: string;
  mediaType: string;
}

export async function tarOf(entries: TarWriteEntry[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of tarStream(entries)) parts.push(b);
  return Buffer.concat(parts);
}

/**
 * A tar archive and the offsets where its last entry's content and padding end, for cutting it
 * short as some Go-written tools do (no trailing padding, no end-of-archive blocks).
 */
export async function tarWithOffsets(entries: TarWriteEntry[]): Promise<{ tar: Buffer; lastContentEnd: number; lastPaddingEnd: number }> {
  const parts: Buffer[] = [];
  for (const e of entries) for await (const b of tarEntry(e)) parts.push(b);
  const body = Buffer.concat(parts);
  const last = entries[entries.length - 1];
  const size = last?.type === 'file' ? Buffer.byteLength(last.data ?? '') : 0;
  return { tar: Buffer.concat([body, Buffer.alloc(1024)]), lastContentEnd: body.length - ((512 - (size % 512)) % 512), lastPaddingEnd: body.length };
}

export async function layer(entries: TarWriteEntry[], gzip = true): Promise<BuiltLayer> {
  const tar = await tarOf(entries);
  const blob = gzip ? gzipSync(tar) : tar;
  return { blob, digest: sha256Digest(blob), diffId: sha256Digest(tar), mediaType: gzip ? MEDIA.dockerLayerGzip : MEDIA.ociLayer };
}

export interface PushTarget {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Authorization header value for push (basic or bearer). */
  authorization?: string;
}

function headers(t: PushTarget, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(t.authorization ? { Authorization: t.authorization } : {}), ...extra };
}

export async function pushBlob(t: PushTarget, repo: string, blob: Buffer, digest = sha256Digest(blob)): Promise<void> {
  const start = await fetch(`${t.url}/v2/${repo}/blobs/uploads/`, { method: 'POST', headers: headers(t) });
  await start.arrayBuffer();
  if (start.status !== 202) throw new Error(`blob upload start: ${start.status}`);
  const location = new URL(start.headers.get('location')!, t.url);
  location.searchParams.set('digest', digest);
  const put = await fetch(location, { method: 'PUT', body: new Uint8Array(blob), headers: headers(t, { 'Content-Type': 'application/octet-stream' }) });
  const text = await put.text();
  if (put.status !== 201) throw new Error(`blob upload ${digest}: ${put.status} ${text}`);
}

export async function pushManifest(t: PushTarget, repo: string, reference: string, body: Buffer, mediaType: string): Promise<string> {
  const res = await fetch(`${t.url}/v2/${repo}/manifests/${reference}`, { method: 'PUT', body: new Uint8Array(body), headers: headers(t, { 'Content-Type': mediaType }) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`manifest push ${repo}:${reference}: ${res.status} ${text}`);
  return sha256Digest(body);
}

export interface PushedImage {
  manifestDigest: string;
  manifestSize: number;
  configDigest: string;
  layers: BuiltLayer[];
}

/** Pushes config + layers + a schema2 manifest; `reference` may be a tag or omitted (push by digest). */
export async function pushImage(
  t: PushTarget,
  repo: string,
  reference: string | undefined,
  layers: BuiltLayer[],
  opts: { arch?: string; config?: Record<string, unknown>; diffIds?: string[] } = {},
): Promise<PushedImage> {
  const config = Buffer.from(
    JSON.stringify({
      created: '2024-01-01T00:00:00Z',
      architecture: opts.arch ?? 'amd64',
      os: 'linux',
      config: { Env: ['PATH=/bin'], Cmd: ['sh'], ...opts.config },
      rootfs: { type: 'layers', diff_ids: opts.diffIds ?? layers.map((l) => l.diffId) },
    }),
  );
  const configDigest = sha256Digest(config);
  await pushBlob(t, repo, config);
  for (const l of layers) await pushBlob(t, repo, l.blob, l.digest);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA.dockerManifest,
      config: { mediaType: MEDIA.dockerConfig, digest: configDigest, size: config.length },
      layers: layers.map((l): Descriptor => ({ mediaType: l.mediaType, digest: l.digest, size: l.blob.length })),
    }),
  );
  const manifestDigest = await pushManifest(t, repo, reference ?? sha256Digest(manifest), manifest, MEDIA.dockerManifest);
  return { manifestDigest, manifestSize: manifest.length, configDigest, layers };
}

export async function pushIndex(t: PushTarget, repo: string, tag: string, entries: Array<{ image: PushedImage; arch: string; variant?: string }>): Promise<string> {
  const index = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA.ociIndex,
      manifests: entries.map((e) => ({
        mediaType: MEDIA.dockerManifest,
        digest: e.image.manifestDigest,
        size: e.image.manifestSize,
        platform: { os: 'linux', architecture: e.arch, ...(e.variant ? { variant: e.variant } : {}) },
      })),
    }),
  );
  return pushManifest(t, repo, tag, index, MEDIA.ociIndex);
}

/** A layer exercising every entry kind the unpacker handles. */
export function richEntries(): TarWriteEntry[] {
  return [
    { name: 'bin', type: 'directory', mode: 0o755, mtime: 1_600_000_000 },
    { name: 'bin/tool', type: 'file', data: '#!/bin/sh\necho hi\n', mode: 0o755, mtime: 1_600_000_001 },
    { name: 'bin/tool-link', type: 'hardlink', linkname: 'bin/tool' },
    { name: 'bin/sh', type: 'symlink', linkname: '/bin/tool' },
    { name: 'etc', type: 'directory', mode: 0o755 },
    { name: 'etc/secret', type: 'file', data: 'k', mode: 0o600, uid: 1000, gid: 1000, mtime: 1_600_000_002, xattrs: { 'user.label': 'x' } },
    { name: 'etc/old', type: 'file', data: 'old' },
    { name: 'var/cache', type: 'directory' },
    { name: 'var/cache/a', type: 'file', data: 'a' },
    { name: 'dev/null', type: 'char', devmajor: 1, devminor: 3, mode: 0o666 },
    { name: 'dev/fifo', type: 'fifo', mode: 0o644 },
  ];
}
