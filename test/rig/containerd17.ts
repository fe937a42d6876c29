import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where scripts/fetch-containerd17.sh unpacks trixie's containerd (1.7, with NRI). */
export const CONTAINERD17_DIR = process.env.ISULATS_CONTAINERD17_DIR ?? '/var/cache/isulats/containerd-trixie';

/**
 * The bin dir of the fetched containerd 1.7 (containerd and its own containerd-shim-runc-v2).
 * Throws, rather than letting a test skip, when it is missing: setup.sh always fetches it.
 */
export function containerd17BinDir(): string {
  const bin = join(CONTAINERD17_DIR, 'usr', 'bin');
  for (const name of ['containerd', 'containerd-shim-runc-v2']) {
    if (!existsSync(join(bin, name))) {
      throw new Error(`containerd 1.7 not found (${join(bin, name)}): run scripts/fetch-containerd17.sh (scripts/setup.sh does)`);
    }
  }
  return bin;
}
