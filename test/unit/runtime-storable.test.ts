import { describe, expect, it } from 'vitest';
import { storable } from '../../src/runtime/storable.js';

describe('storable', () => {
  it('gives what the JSON round trip it replaces gave, bytes as UTF-8 strings', () => {
    const value = {
      metadata: { name: 'app', attempt: 0 },
      envs: [{ key: 'A', value: Buffer.from('1') }, { key: 'B', value: new Uint8Array([0x68, 0xc3, 0xa9]) }, { key: 'C', value: Buffer.from([0xff]) }],
      labels: { 'io.kubernetes.pod.name': 'p' },
      gone: undefined,
      list: [undefined, () => 1, 2, Number.NaN],
      big: 5n,
      buffered: { type: 'Buffer', data: [0x78] },
    };
    expect(storable(value)).toEqual({
      metadata: { name: 'app', attempt: 0 },
      envs: [{ key: 'A', value: '1' }, { key: 'B', value: 'hé' }, { key: 'C', value: '\ufffd' }],
      labels: { 'io.kubernetes.pod.name': 'p' },
      list: [null, null, 2, null],
      big: '5',
      buffered: 'x',
    });
  });

  it('copies: the result shares nothing with its input', () => {
    const input = { mounts: [{ containerPath: '/a' }] };
    const copy = storable(input);
    copy.mounts[0]!.containerPath = '/b';
    expect(input.mounts[0]!.containerPath).toBe('/a');
  });
});
