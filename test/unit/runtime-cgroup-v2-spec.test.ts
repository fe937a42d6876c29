// cgroup v2 details of the OCI spec and the update a container gets from kubelet's resources:
// unified passed through, hugepage limits, the swap default containerd has (swap = limit, i.e. no
// swap, where swap can be limited; no swap value where it cannot), and the swap controller probe
// against fixture trees (v2: memory.swap.max of this process's own cgroup, which the root lacks).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContainerSpec, systemdSwapProperty, type ContainerSpecInput } from '../../src/runtime/container/spec.js';
import { resourcesUpdateFromCri } from '../../src/runtime/container/cri-resources.js';
import { swapControllerAvailable } from '../../src/runtime/oci/swap-controller.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const MiB = 1024 * 1024;

function spec(resources: Record<string, unknown>, swapControl: boolean | undefined) {
  const input: ContainerSpecInput = {
    id: 'c1',
    rootfs: '/r/rootfs',
    config: { metadata: { name: 'c' }, image: { image: 'busybox' }, command: ['sh'], linux: { resources } },
    sandbox: { id: 's1', pausePid: 0, netnsPath: '/run/x/netns/s1', namespaces: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' }, hostname: 'h', hostsPath: '/s/hosts', hostnamePath: '/s/hostname', resolvConfPath: '/s/resolv.conf' },
    image: { config: {}, passwd: 'root:x:0:0::/root:/bin/sh\n', group: 'root:x:0:\n' },
    host: { oomScoreFloor: 0, apparmor: false, selinux: false, hugepageSizes: ['2MB', '1GB'], swapControl },
    cgroupsPath: 'kubepods-burstable-pod1.slice:isulats:c1',
  };
  return buildContainerSpec(input).linux.resources;
}

// kubelet's resources for a burstable container on a v2 node (kubelet sends a 0 limit per page size).
const KUBELET = {
  cpuPeriod: '100000', cpuQuota: '50000', cpuShares: '512', memoryLimitInBytes: String(128 * MiB), oomScoreAdj: '936',
  hugepageLimits: [{ pageSize: '2MB', limit: '0' }, { pageSize: '1GB', limit: '0' }],
  unified: { 'memory.oom.group': '1', 'memory.high': String(120 * MiB) },
};

describe('cgroup v2 resources in the spec', () => {
  it('keeps unified as given, hugepage limits for the host page sizes, and a memory limit with no swap where swap is limited', () => {
    const r = spec(KUBELET, true);
    expect(r.unified).toEqual({ 'memory.oom.group': '1', 'memory.high': String(120 * MiB) });
    expect(r.hugepageLimits).toEqual([{ pageSize: '2MB', limit: 0 }, { pageSize: '1GB', limit: 0 }]);
    expect(r.memory).toEqual({ limit: 128 * MiB, swap: 128 * MiB });
    expect(r.cpu).toEqual({ shares: 512, quota: 50_000, period: 100_000 });
  });

  it('keeps a swap limit given (memory_swap_limit_in_bytes; runc writes memory.swap.max = swap - limit) and -1 (no limit)', () => {
    expect(spec({ memoryLimitInBytes: String(64 * MiB), memorySwapLimitInBytes: String(96 * MiB) }, true).memory).toEqual({ limit: 64 * MiB, swap: 96 * MiB });
    expect(spec({ memoryLimitInBytes: String(64 * MiB), memorySwapLimitInBytes: '-1' }, true).memory).toEqual({ limit: 64 * MiB, swap: -1 });
  });

  it('gives no swap value where swap cannot be limited, and none without a memory limit', () => {
    expect(spec({ memoryLimitInBytes: String(64 * MiB), memorySwapLimitInBytes: String(96 * MiB) }, false).memory).toEqual({ limit: 64 * MiB });
    expect(spec({ cpuShares: '2' }, true).memory).toBeUndefined();
  });

  it('updates a memory limit with swap = limit where swap is limited (v1 refuses a limit above the memsw one set at create)', () => {
    expect(resourcesUpdateFromCri({ memoryLimitInBytes: String(256 * MiB) }, true).memory).toEqual({ limit: 256 * MiB, swap: 256 * MiB });
    expect(resourcesUpdateFromCri({ memoryLimitInBytes: String(256 * MiB), memorySwapLimitInBytes: '-1' }, true).memory).toEqual({ limit: 256 * MiB, swap: -1 });
    expect(resourcesUpdateFromCri({ memoryLimitInBytes: String(256 * MiB) }, false).memory).toEqual({ limit: 256 * MiB, swap: undefined });
    expect(resourcesUpdateFromCri({ unified: { 'pids.max': '100', 'io.weight': 'default 200' } }, true).unified).toEqual({ 'pids.max': '100', 'io.weight': 'default 200' });
  });
});

describe('swap controller probe', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir('istswap-');
    await mkdir(join(dir, 'v2', 'system.slice', 'isulats.service'), { recursive: true });
    await writeFile(join(dir, 'v2', 'cgroup.controllers'), 'cpu memory pids\n');
    await writeFile(join(dir, 'v2', 'system.slice', 'isulats.service', 'memory.swap.max'), 'max\n');
    await mkdir(join(dir, 'v2-noswap', 'system.slice', 'isulats.service'), { recursive: true });
    await writeFile(join(dir, 'v2-noswap', 'cgroup.controllers'), 'cpu memory pids\n');
    await mkdir(join(dir, 'v1', 'memory'), { recursive: true });
    await writeFile(join(dir, 'v1', 'memory', 'memory.memsw.limit_in_bytes'), '9223372036854771712\n');
    await mkdir(join(dir, 'v1-noswap', 'memory'), { recursive: true });
  });
  afterAll(async () => {
    await removeTempDir(dir);
  });

  it("looks in this process's own cgroup on v2, and for memsw on v1", () => {
    const self = () => '0::/system.slice/isulats.service\n';
    expect(swapControllerAvailable(join(dir, 'v2'), self)).toBe(true);
    expect(swapControllerAvailable(join(dir, 'v2-noswap'), self)).toBe(false);
    expect(swapControllerAvailable(join(dir, 'v1'), self)).toBe(true);
    expect(swapControllerAvailable(join(dir, 'v1-noswap'), self)).toBe(false);
  });
});

describe('systemd driver: the swap limit as the scope property too', () => {
  it('gives a systemd scope MemorySwapMax = swap - limit, so a daemon-reload keeps it; nothing for cgroupfs or without a swap limit', () => {
    const scope = 'kubepods-burstable-pod1.slice:isulats:abc';
    expect(systemdSwapProperty(scope, { memory: { limit: 64, swap: 64 } })).toEqual({ 'org.systemd.property.MemorySwapMax': 'uint64 0' });
    expect(systemdSwapProperty(scope, { memory: { limit: 64, swap: 96 } })).toEqual({ 'org.systemd.property.MemorySwapMax': 'uint64 32' });
    expect(systemdSwapProperty(scope, { memory: { limit: 64, swap: -1 } })).toEqual({});
    expect(systemdSwapProperty(scope, { memory: { limit: 64 } })).toEqual({});
    expect(systemdSwapProperty(scope, undefined)).toEqual({});
    expect(systemdSwapProperty('/kubepods/burstable/pod1/abc', { memory: { limit: 64, swap: 64 } })).toEqual({});
  });
});
