// A pod's user namespace options (CRI userns_options): what is taken, what is
// refused and why, and how the mapping reaches pinns and the OCI spec.
import { describe, expect, it } from 'vitest';
import { enginePaths } from '../../src/runtime/config/engine-config.js';
import { mapArg, ociMappings, podUserns } from '../../src/runtime/sandbox/pod-userns.js';
import { podPinPaths } from '../../src/runtime/sandbox/pod-namespaces.js';

const own = { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } as const;
const map = (containerId: number, hostId: number, length: number) => ({ containerId, hostId, length });
const config = (usernsOptions: unknown) => ({ linux: { securityContext: { namespaceOptions: { usernsOptions } } } }) as never;

describe('pod user namespace options', () => {
  it('takes mode POD with one mapping of each kind from container ID 0 (numbers or names for the mode)', () => {
    const want = { uid: map(0, 1000, 100000), gid: map(0, 2000, 65536) };
    expect(podUserns(config({ mode: 'POD', uids: [map(0, 1000, 100000)], gids: [map(0, 2000, 65536)] }), own)).toEqual(want);
    expect(podUserns(config({ mode: 0, uids: [map(0, 1000, 100000)], gids: [map(0, 2000, 65536)] }), own)).toEqual(want);
  });

  it('keeps the node user namespace for mode NODE and for no options', () => {
    expect(podUserns(config({ mode: 'NODE' }), own)).toBeUndefined();
    expect(podUserns(config({ mode: 2 }), own)).toBeUndefined();
    expect(podUserns({} as never, own)).toBeUndefined();
  });

  it.each([
    [{ mode: 'CONTAINER' }, /mode CONTAINER is not supported/],
    [{ mode: 3 }, /mode TARGET is not supported/],
    [{ mode: 'POD' }, /needs a uid mapping/],
    [{ mode: 'POD', uids: [map(0, 1, 5)] }, /needs a gid mapping/],
    [{ mode: 'POD', uids: [map(0, 1000, 10), map(10, 5000, 10)], gids: [map(0, 1, 5)] }, /only one uid mapping is supported \(got 2\)/],
    [{ mode: 'POD', uids: [map(1, 1000, 10)], gids: [map(1, 1000, 10)] }, /uid mapping must map container ID 0 \(it starts at 1\)/],
    [{ mode: 'POD', uids: [map(0, 1000, 0)], gids: [map(0, 1000, 10)] }, /length must be at least 1/],
    [{ mode: 'POD', uids: [map(0, 2 ** 32 - 5, 10)], gids: [map(0, 1000, 10)] }, /out of range/],
    [{ mode: 'NODE', uids: [map(0, 1000, 10)] }, /NODE takes no uid or gid mappings/],
  ])('refuses %j', (opts, message) => {
    expect(() => podUserns(config(opts), own)).toThrow(message);
  });

  it('refuses mode POD with the node network, PID or IPC namespace', () => {
    const opts = config({ mode: 'POD', uids: [map(0, 1000, 10)], gids: [map(0, 1000, 10)] });
    expect(() => podUserns(opts, { ...own, network: 'NODE' })).toThrow(/node's network namespace/);
    expect(() => podUserns(opts, { ...own, pid: 'NODE', ipc: 'NODE' })).toThrow(/node's pid, ipc namespace/);
  });

  it('gives pinns C:H:L, the spec containerID/hostID/size, and the pod a user namespace pin', () => {
    expect(mapArg(map(0, 1000, 65536))).toBe('0:1000:65536');
    expect(ociMappings(map(0, 1000, 65536))).toEqual([{ containerID: 0, hostID: 1000, size: 65536 }]);
    const paths = enginePaths({ root: '/var/lib/ist', state: '/run/ist' });
    expect(podPinPaths(paths, 'abc', own, { uid: map(0, 1, 1), gid: map(0, 1, 1) }).user).toBe('/run/ist/userns/abc');
    expect(podPinPaths(paths, 'abc', own).user).toBeUndefined();
  });
});
