// Content digests. Every digest that came from outside (an archive, a registry, a client) is
// checked by checkDigest before it names a path or a URL: `algorithm:hex` with lowercase hex of
// the algorithm's length, as the OCI image spec and containerd's go-digest require. Content is
// stored by sha256 only (what registries serve).
import { createHash } from 'node:crypto';
import { invalidArgument } from '../errors.js';

/** The algorithms the OCI image spec registers, with their hex lengths. */
const HEX_LENGTH: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

export function sha256Digest(data: Uint8Array | string): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** A digest as it may appear in an error line: quoted, escaped, cut short. */
function shown(digest: unknown): string {
  const text = JSON.stringify(typeof digest === 'string' && digest.length > 150 ? `${digest.slice(0, 150)}…` : digest) ?? String(digest);
  return text;
}

/**
 * Returns `digest` when it is `algorithm:hex` of a known algorithm with exactly its length of
 * lowercase hex; otherwise InvalidArgument naming the digest and `what` carries it.
 */
export function checkDigest(digest: unknown, what = 'digest'): string {
  if (typeof digest === 'string') {
    const colon = digest.indexOf(':');
    const want = colon > 0 ? HEX_LENGTH[digest.slice(0, colon)] : undefined;
    const hex = digest.slice(colon + 1);
    if (want !== undefined && hex.length === want && /^[0-9a-f]+$/.test(hex)) return digest;
  }
  throw invalidArgument(`invalid ${what} ${shown(digest)}: want sha256:<64 lowercase hex> (or sha384, sha512 of their lengths)`);
}

/** The hex part of a sha256 digest, validated (it becomes a file name). */
export function digestHex(digest: string, what = 'digest'): string {
  checkDigest(digest, what);
  if (!digest.startsWith('sha256:')) throw invalidArgument(`unsupported ${what} ${shown(digest)}: content is stored by sha256 only`);
  return digest.slice(7);
}

/** OCI chain IDs: chain(0) = diff(0); chain(n) = sha256(chain(n-1) + " " + diff(n)). */
export function chainIds(diffIds: string[]): string[] {
  const out: string[] = [];
  for (const diff of diffIds) {
    out.push(out.length === 0 ? diff : sha256Digest(`${out[out.length - 1]} ${diff}`));
  }
  return out;
}
