// Descriptor sizes from a registry's manifest are what bounds each download: a blob is read
// up to its declared size and no further, so the size must be there and sane before anything
// is fetched. containerd refuses the same descriptors (no size, negative, past int64).
import { invalidArgument } from '../errors.js';
import { sha256Digest } from './digest.js';

/** The largest layer a descriptor may declare (1 TiB): far above real layers, far below what a disk holds. */
export const MAX_BLOB_SIZE = 2 ** 40;
/** Manifests and indexes: containerd's MaxManifestSize (`4 * 1048 * 1048`, a little over 4 MiB, which registries accept). */
export const MAX_MANIFEST_SIZE = 4 * 1048 * 1048;
/** Image configs are read whole into memory. */
export const MAX_CONFIG_SIZE = 8 << 20;

const EMPTY_DIGEST = sha256Digest('');

/**
 * Refuses a descriptor whose size is missing, not a whole number of bytes, negative, above `max`,
 * or 0 for content that is not empty. `what` names it in the error ("layer 2", "image config").
 */
export function checkDescriptorSize(desc: { digest?: unknown; size?: unknown }, what: string, max: number): void {
  const name = `${what} ${typeof desc.digest === 'string' ? desc.digest : '(no digest)'}`;
  const size = desc.size;
  if (size === undefined || size === null) throw invalidArgument(`${name}: the descriptor has no size`);
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw invalidArgument(`${name}: descriptor size ${JSON.stringify(size)} is not a whole number of bytes`);
  }
  if (size > max) throw invalidArgument(`${name}: descriptor size ${size} is larger than the limit of ${max} bytes`);
  if (size === 0 && desc.digest !== EMPTY_DIGEST) throw invalidArgument(`${name}: descriptor size 0 for content that is not empty`);
}
