import { describe, expect, it } from 'vitest';
import { checkDigest, digestHex, sha256Digest } from '../../src/runtime/image/digest.js';
import { IsulatsError } from '../../src/runtime/errors.js';

const hex64 = 'a'.repeat(64);

describe('checkDigest', () => {
  it.each([
    `sha256:${hex64}`,
    sha256Digest('x'),
    `sha384:${'0'.repeat(96)}`,
    `sha512:${'f'.repeat(128)}`,
  ])('accepts %s', (d) => {
    expect(checkDigest(d)).toBe(d);
  });

  it.each([
    ['a path through the digest', 'sha256:../../../../dev/zero'],
    ['a path to a secret', 'sha256:../../../../etc/shadow'],
    ['an absolute path', `sha256:/${hex64.slice(1)}`],
    ['upper-case hex', `sha256:${'A'.repeat(64)}`],
    ['mixed-case hex', `sha256:${'aB'.repeat(32)}`],
    ['too short', `sha256:${hex64.slice(1)}`],
    ['too long', `sha256:${hex64}0`],
    ['sha512 of sha256 length', `sha512:${hex64}`],
    ['an unknown algorithm', `md5:${'0'.repeat(32)}`],
    ['no algorithm', hex64],
    ['an empty string', ''],
    ['a newline after the hex', `sha256:${hex64}\n`],
    ['a NUL byte', `sha256:${hex64.slice(1)}\0`],
  ])('refuses %s', (_what, d) => {
    let error: unknown;
    try {
      checkDigest(d, 'layer digest');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IsulatsError);
    expect((error as IsulatsError).kind).toBe('invalid-argument');
    const message = (error as Error).message;
    expect(message).toContain('invalid layer digest');
    expect(message).toContain(JSON.stringify(d));
    expect(message).not.toContain('\n');
  });

  it('refuses what is not a string', () => {
    expect(() => checkDigest(undefined, 'config digest')).toThrow(/invalid config digest undefined/);
    expect(() => checkDigest(42)).toThrow(/invalid digest 42/);
  });

  it('names files by sha256 only', () => {
    expect(digestHex(`sha256:${hex64}`)).toBe(hex64);
    expect(() => digestHex(`sha512:${'f'.repeat(128)}`)).toThrow(/stored by sha256 only/);
    expect(() => digestHex('sha256:../../x')).toThrow(/invalid digest/);
  });
});
