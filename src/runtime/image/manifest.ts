// OCI / Docker schema2 manifest shapes and media types.
export const MEDIA = {
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerConfig: 'application/vnd.docker.container.image.v1+json',
  dockerLayerGzip: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
  dockerForeignLayerGzip: 'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
  ociLayer: 'application/vnd.oci.image.layer.v1.tar',
  ociLayerGzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  ociLayerZstd: 'application/vnd.oci.image.layer.v1.tar+zstd',
  schema1: 'application/vnd.docker.distribution.manifest.v1+json',
  schema1Signed: 'application/vnd.docker.distribution.manifest.v1+prettyjws',
} as const;

export const MANIFEST_ACCEPT = [MEDIA.ociIndex, MEDIA.dockerList, MEDIA.ociManifest, MEDIA.dockerManifest].join(', ');

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  urls?: string[];
  annotations?: Record<string, string>;
  platform?: Platform;
}

export interface Platform {
  architecture: string;
  os: string;
  variant?: string;
  'os.version'?: string;
  'os.features'?: string[];
}

export interface ImageManifest {
  schemaVersion: number;
  mediaType?: string;
  config: Descriptor;
  layers: Descriptor[];
  annotations?: Record<string, string>;
}

export interface ImageIndex {
  schemaVersion: number;
  mediaType?: string;
  manifests: Descriptor[];
}

/** The image config as the OCI image spec defines it (the parts we read). */
export interface OciImageConfig {
  created?: string;
  author?: string;
  architecture: string;
  os: string;
  variant?: string;
  config?: {
    User?: string;
    ExposedPorts?: Record<string, object>;
    Env?: string[];
    Entrypoint?: string[] | null;
    Cmd?: string[] | null;
    Volumes?: Record<string, object>;
    WorkingDir?: string;
    Labels?: Record<string, string>;
    StopSignal?: string;
  };
  rootfs: { type: string; diff_ids: string[] };
  history?: Array<Record<string, unknown>>;
}

export const LAYER_TYPES = new Set<string>([
  MEDIA.dockerLayerGzip,
  MEDIA.dockerForeignLayerGzip,
  MEDIA.ociLayer,
  MEDIA.ociLayerGzip,
  MEDIA.ociLayerZstd,
  'application/vnd.oci.image.layer.nondistributable.v1.tar',
  'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip',
  'application/vnd.oci.image.layer.nondistributable.v1.tar+zstd',
]);

/** Classifies a fetched manifest body; throws on schema1 and unknown types. */
export function manifestKind(mediaType: string | undefined, body: Buffer): 'index' | 'manifest' {
  let parsed: { mediaType?: string; schemaVersion?: number; manifests?: unknown; layers?: unknown; fsLayers?: unknown };
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new Error('manifest is not valid JSON');
  }
  const type = (parsed.mediaType ?? mediaType ?? '').split(';')[0]!.trim();
  if (type === MEDIA.schema1 || type === MEDIA.schema1Signed || parsed.schemaVersion === 1 || parsed.fsLayers) {
    throw new Error('Docker image manifest schema 1 is not supported (deprecated); push the image with schema 2 or OCI');
  }
  if (type === MEDIA.ociIndex || type === MEDIA.dockerList) return 'index';
  if (type === MEDIA.ociManifest || type === MEDIA.dockerManifest) return 'manifest';
  if (Array.isArray(parsed.manifests)) return 'index';
  if (Array.isArray(parsed.layers)) return 'manifest';
  throw new Error(`unsupported manifest media type "${type}"`);
}
