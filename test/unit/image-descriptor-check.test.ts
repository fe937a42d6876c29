import { describe, expect, it } from 'vitest';
import { checkDescriptorSize, MAX_BLOB_SIZE } from '../../src/runtime/image/descriptor-check.js';
import { sha256Digest } from '../../src/runtime/image/digest.js';

const digest = sha256Digest('layer');

describe('descriptor sizes', () => {
  it.each([
    ['no size', {}, /layer 1 sha256:[0-9a-f]{64}: the descriptor has no size/],
    ['null', { size: null }, /has no size/],
    ['1e300', { size: 1e300 }, /descriptor size 1e\+300 is not a whole number of bytes/],
    ['a fraction', { size: 1.5 }, /descriptor size 1.5 is not a whole number/],
    ['negative', { size: -1 }, /descriptor size -1 is not a whole number/],
    ['a string', { size: '12' }, /descriptor size "12" is not a whole number/],
    ['past the limit', { size: MAX_BLOB_SIZE + 1 }, /larger than the limit of 1099511627776 bytes/],
    ['0 for content', { size: 0 }, /descriptor size 0 for content that is not empty/],
  ])('refuses %s, naming the blob', (_what, extra, message) => {
    let thrown: unknown;
    try {
      checkDescriptorSize({ digest, ...extra }, 'layer 1', MAX_BLOB_SIZE);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ kind: 'invalid-argument' });
    expect(String((thrown as Error).message)).toMatch(message);
  });

  it.each([
    ['a real size', { digest, size: 1234 }],
    ['the limit itself', { digest, size: MAX_BLOB_SIZE }],
    ['0 for the empty blob', { digest: sha256Digest(''), size: 0 }],
  ])('accepts %s', (_what, desc) => {
    expect(() => checkDescriptorSize(desc, 'layer 1', MAX_BLOB_SIZE)).not.toThrow();
  });
});
