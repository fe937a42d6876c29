// A large config's env copied, NUL-checked and written in slices: the copy storable() makes, the error
// refuseNulBytes gives for the whole config, the text JSON.stringify writes.
import { describe, expect, it } from 'vitest';
import { specJsonInSlices, storableEnvsInSlices } from '../../src/runtime/container/large-env.js';
import { refuseNulBytes } from '../../src/runtime/nul-bytes.js';
import { storable } from '../../src/runtime/storable.js';

const envs = () => Array.from({ length: 5000 }, (_, i) => ({ key: `SVC_${i}_SERVICE_PORT`, value: i % 2 ? String(10000 + i) : Buffer.from(String(10000 + i)) }));

describe('storableEnvsInSlices', () => {
  it('copies as storable() does, a slice at a time', async () => {
    const input = envs();
    let turns = 0;
    const out = await storableEnvsInSlices(input, 1024, async () => void turns++);
    expect(turns).toBe(4);
    expect(out).toEqual(storable(input));
    expect(out[4]).toEqual({ key: 'SVC_4_SERVICE_PORT', value: '10004' });
  });

  it.each([
    ['value', { key: 'A', value: Buffer.from('x\0y') }],
    ['key', { key: 'A\0B', value: '1' }],
  ])('refuses a NUL byte in a %s with the message refuseNulBytes gives for the config', async (_what, bad) => {
    const input: Array<{ key: string; value: string | Buffer }> = envs();
    input[4321] = bad;
    let whole: unknown;
    try {
      refuseNulBytes({ envs: input }, 'config');
    } catch (err) {
      whole = err;
    }
    expect(whole).toBeDefined();
    await expect(storableEnvsInSlices(input, 1024, async () => undefined)).rejects.toThrow((whole as Error).message);
  });
});

describe('specJsonInSlices', () => {
  it('writes the text JSON.stringify writes, the env a slice at a time', async () => {
    const env = Array.from({ length: 5000 }, (_, i) => `SVC_${i}_PORT=tcp://10.0.0.1:${i} "quoted" \\ ü`);
    const spec = { ociVersion: '1.2.0', process: { user: { uid: 0 }, args: ['sh'], env, cwd: '/' }, root: { path: 'rootfs' }, annotations: { a: 'b' } };
    let turns = 0;
    const text = await specJsonInSlices(spec, 1024, async () => void turns++);
    expect(turns).toBe(5);
    expect(text).toBe(JSON.stringify(spec));
    expect(await specJsonInSlices({ ...spec, process: { ...spec.process, env: env.slice(0, 3) } }, 1024, async () => void turns++)).toBe(JSON.stringify({ ...spec, process: { ...spec.process, env: env.slice(0, 3) } }));
  });
});
