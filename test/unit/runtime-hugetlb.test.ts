// Hugepage limits only where this host's cgroups can take them: the hugetlb
// controller on cgroup v1 (/proc/cgroups hierarchy) and v2 (root
// cgroup.controllers), page sizes from /sys/kernel/mm/hugepages. Fixture
// trees mirror those files on hosts of each kind.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageSizeName, probeHugepageSizes } from '../../src/runtime/oci/hugetlb.js';
import { buildContainerSpec, buildSandboxSpec, type ContainerSpecInput } from '../../src/runtime/container/spec.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/hugetlb');
const probe = (name: string) => {
  const dir = join(FIXTURES, name);
  return probeHugepageSizes({ cgroupRoot: join(dir, 'cgroup'), procCgroups: join(dir, 'proc-cgroups'), hugepagesDir: join(dir, 'hugepages') });
};

// As kubelet sends them with every container of a node with 2Mi and 1Gi pages.
const KUBELET_HUGEPAGES = [{ pageSize: '2MB', limit: '0' }, { pageSize: '1GB', limit: '0' }];

function containerInput(hugepageSizes: string[] | undefined, hugepageLimits = KUBELET_HUGEPAGES, warn?: (m: string) => void): ContainerSpecInput {
  return {
    id: 'c1',
    rootfs: '/r/rootfs',
    config: {
      metadata: { name: 'app' },
      image: { image: 'busybox' },
      linux: { resources: { cpuShares: '102', cpuPeriod: '100000', cpuQuota: '50000', memoryLimitInBytes: '134217728', oomScoreAdj: '1000', hugepageLimits } },
    },
    sandbox: { id: 's1', pausePid: 1, namespaces: { network: 'POD', pid: 'POD', ipc: 'POD' }, hostname: 'h', hostsPath: '/s/hosts', hostnamePath: '/s/hostname' },
    image: { config: { Cmd: ['sh'] } },
    host: { oomScoreFloor: 0, apparmor: false, selinux: false, hugepageSizes },
    cgroupsPath: '/kubepods/burstable/pod1/c1',
    warn,
  };
}

describe('hugetlb: which hugepage limits a container can take', () => {
  it.each([
    ['v1-hugetlb-unmounted', [], 'cgroup v1, hugetlb on hierarchy 0 (this kind of host)'],
    ['v1-hugetlb', ['2MB', '1GB'], 'cgroup v1 with a hugetlb hierarchy'],
    ['v1-hugetlb-2mb-only', ['2MB'], 'a kernel with 2 MiB pages only'],
    ['v2-hugetlb', ['2MB', '1GB'], 'cgroup v2 with hugetlb in the root cgroup.controllers'],
    ['v2-no-hugetlb', [], 'cgroup v2 without hugetlb'],
    ['no-hugepages', [], 'a kernel without hugepages'],
  ])('%s: %j (%s)', (fixture, sizes) => {
    expect(probe(fixture)).toEqual(sizes);
  });

  it.each([
    ['hugepages-2048kB', '2MB'],
    ['hugepages-1048576kB', '1GB'],
    ['hugepages-64kB', '64KB'],
    ['hugepages-32768kB', '32MB'],
    ['hugepages-16777216kB', '16GB'],
    ['nr_hugepages', undefined],
  ])('names %s as %s, as runc and kubelet do', (dir, name) => {
    expect(pageSizeName(dir)).toBe(name);
  });

  it('leaves kubelet\'s limits out of the spec without a hugetlb controller, the rest of the resources kept', () => {
    const warnings: string[] = [];
    const spec = buildContainerSpec(containerInput(probe('v1-hugetlb-unmounted'), KUBELET_HUGEPAGES, (m) => warnings.push(m)));
    expect(spec.linux.resources.hugepageLimits).toBeUndefined();
    expect(spec.linux.resources.cpu).toEqual({ shares: 102, quota: 50000, period: 100000 });
    expect(spec.linux.resources.memory).toEqual({ limit: 134217728 });
    // A zero limit left out changes nothing worth a warning.
    expect(warnings).toEqual([]);
  });

  it('keeps the limits where the controller exists and drops page sizes the kernel lacks', () => {
    expect(buildContainerSpec(containerInput(probe('v2-hugetlb'))).linux.resources.hugepageLimits).toEqual([{ pageSize: '2MB', limit: 0 }, { pageSize: '1GB', limit: 0 }]);
    const warnings: string[] = [];
    const limits = [{ pageSize: '2MB', limit: '4194304' }, { pageSize: '1GB', limit: '1073741824' }];
    expect(buildContainerSpec(containerInput(probe('v1-hugetlb-2mb-only'), limits, (m) => warnings.push(m))).linux.resources.hugepageLimits).toEqual([{ pageSize: '2MB', limit: 4194304 }]);
    expect(warnings).toEqual(['hugepage limits 1GB=1073741824 ignored (page sizes on this host: 2MB)']);
  });

  it('keeps every limit when the host was not probed', () => {
    expect(buildContainerSpec(containerInput(undefined)).linux.resources.hugepageLimits).toEqual([{ pageSize: '2MB', limit: 0 }, { pageSize: '1GB', limit: 0 }]);
  });

  it('filters a pod\'s own hugepage limits the same way', () => {
    const spec = buildSandboxSpec({
      id: 's1', rootfs: '/r', args: ['/pause'], hostname: 'h', cgroupsPath: '/kubepods/burstable/pod1/s1',
      config: { metadata: { name: 'p' }, linux: { resources: { hugepageLimits: KUBELET_HUGEPAGES } } } as never,
      host: { oomScoreFloor: 0, apparmor: false, selinux: false, hugepageSizes: [] },
    });
    expect(spec.linux.resources.hugepageLimits).toBeUndefined();
  });
});
