import { createHash, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './proc.js';

export interface TokenSigningCert {
  /** PEM private key (RSA 2048) the token server signs JWTs with (RS256). */
  keyPath: string;
  /** Self-signed PEM certificate; the registry's `rootcertbundle`. */
  certPath: string;
  /** Base64 DER of the certificate, ready for a JWT header `x5c: [certDer]`. */
  certDer: string;
  /** libtrust key ID of the public key, ready for a JWT header `kid` (the registry accepts either). */
  keyId: string;
}

/** Generates the key pair and certificate that docker-registry's token auth trusts. */
export async function makeTokenSigningCert(dir: string): Promise<TokenSigningCert> {
  const keyPath = join(dir, 'token.key');
  const certPath = join(dir, 'token.crt');
  await run('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath,
    '-days', '3', '-subj', '/CN=isulats-test-token',
  ], { timeoutMs: 60_000 });
  const cert = new X509Certificate(await readFile(certPath));
  return { keyPath, certPath, certDer: cert.raw.toString('base64'), keyId: libtrustKeyId(cert) };
}

/**
 * libtrust's key ID: SHA-256 of the DER SubjectPublicKeyInfo, first 240 bits, base32 without padding,
 * split into 12 groups of 4 joined by ':'.
 */
export function libtrustKeyId(cert: X509Certificate): string {
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  const digest = createHash('sha256').update(spki).digest().subarray(0, 30);
  const encoded = base32(digest);
  const groups: string[] = [];
  for (let i = 0; i < encoded.length; i += 4) groups.push(encoded.slice(i, i + 4));
  return groups.join(':');
}

function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
