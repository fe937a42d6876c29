// Content digests (sha256 only, as the OCI distribution spec requires of registries we talk to).
import { createHash } from 'node:crypto';
import { invalidArgument } from '../errors.js';

export function sha256Digest(data: Uint8Array | string): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** The hex part of a sha256 digest, validated (it becomes a file name). */
export function digestHex(digest: string): string {
  const m = /^sha256:([0-9a-f]{64})$/.exec(digest);
  if (!m) throw invalidArgument(`unsupported or malformed digest "${digest}" (want sha256:<64 hex>)`);
  return m[1]!;
}

/** OCI chain IDs: chain(0) = diff(0); chain(n) = sha256(chain(n-1) + " " + diff(n)). */
export function chainIds(diffIds: string[]): string[] {
  const out: string[] = [];
  for (const diff of diffIds) {
    out.push(out.length === 0 ? diff : sha256Digest(`${out[out.length - 1]} ${diff}`));
  }
  return out;
}
