// Writes an OCI image layout from bytes the test made itself (no umoci), so a test controls every
// byte of every blob, e.g. a layer tar no tar tool would write. Push it with images.ts pushLayout.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Digest } from '../../src/runtime/image/digest.js';

export interface LayoutLayer {
  /** The blob as pushed (compressed or not). */
  blob: Buffer;
  /** sha256 of the uncompressed tar. */
  diffId: string;
  mediaType: string;
}

export interface LayoutImage {
  tag: string;
  layers: LayoutLayer[];
  /** Merged into the image config's `config` (Env, Cmd, ...). */
  config?: Record<string, unknown>;
}

async function putBlob(layout: string, blob: Buffer): Promise<{ digest: string; size: number }> {
  const digest = sha256Digest(blob);
  await writeFile(join(layout, 'blobs', 'sha256', digest.slice('sha256:'.length)), blob);
  return { digest, size: blob.length };
}

/** Creates `layout` (which must not hold another layout) with one single-platform image. */
export async function writeOciLayout(layout: string, image: LayoutImage): Promise<void> {
  await mkdir(join(layout, 'blobs', 'sha256'), { recursive: true });
  await writeFile(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  const config = await putBlob(
    layout,
    Buffer.from(
      JSON.stringify({
        created: '2024-01-01T00:00:00Z',
        architecture: 'amd64',
        os: 'linux',
        config: { Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'], ...image.config },
        rootfs: { type: 'layers', diff_ids: image.layers.map((l) => l.diffId) },
      }),
    ),
  );
  const layers = [];
  for (const l of image.layers) layers.push({ mediaType: l.mediaType, ...(await putBlob(layout, l.blob)) });
  const manifest = await putBlob(
    layout,
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
        layers,
      }),
    ),
  );
  const index = {
    schemaVersion: 2,
    manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest, annotations: { 'org.opencontainers.image.ref.name': image.tag } }],
  };
  await writeFile(join(layout, 'index.json'), JSON.stringify(index));
}
