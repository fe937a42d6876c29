// Pod-level resources: the sum kubelet's pod cgroup takes, the systemd slice
// path, and the cgroup file writes on v1 and v2 (v2 against a fixture tree: this host cannot run it for real).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { podCgroupResources } from '../../src/runtime/container/cri-resources.js';
import { CgroupReader } from '../../src/runtime/oci/cgroups.js';
import { CgroupWriteError, cgroupWrites, sharesToWeight, writeCgroupResources } from '../../src/runtime/oci/cgroup-writer.js';
import { podCgroupPath, sharedCgroupProblem } from '../../src/runtime/sandbox/pod-cgroup.js';
import type { SandboxRecord } from '../../src/runtime/sandbox/sandbox-record.js';

describe('podCgroupResources', () => {
  it('adds the overhead to each limit the resources set, rescaling the overhead quota to the pod period', () => {
    const out = podCgroupResources(
      { cpuShares: 100, cpuQuota: 5000, cpuPeriod: 50_000, memoryLimitInBytes: 1000 },
      { cpuShares: 400, cpuQuota: 20_000, cpuPeriod: 100_000, memoryLimitInBytes: 4000, memorySwapLimitInBytes: 8000, cpusetCpus: '0-1' },
    );
    expect(out).toEqual({
      cpu: { shares: 500, quota: 30_000, period: 100_000, cpus: '0-1', mems: undefined },
      memory: { limit: 5000, swap: 9000 },
      unified: undefined,
    });
  });

  it('leaves unset what the resources leave unset, even with an overhead', () => {
    expect(podCgroupResources({ cpuShares: 100, memoryLimitInBytes: 1000 }, { cpuShares: 200 })).toEqual({
      cpu: { shares: 300, quota: undefined, period: undefined, cpus: undefined, mems: undefined },
      memory: { limit: undefined, swap: undefined },
      unified: undefined,
    });
  });

  it('keeps -1 (unlimited) quota and swap, defaults the period, and merges unified keys with the resources winning', () => {
    const out = podCgroupResources({ unified: { 'memory.high': '1', 'pids.max': '10' } }, { cpuQuota: -1, memorySwapLimitInBytes: -1, unified: { 'memory.high': '2' } });
    expect(out.cpu).toMatchObject({ quota: -1, period: 100_000 });
    expect(out.memory?.swap).toBe(-1);
    expect(out.unified).toEqual({ 'memory.high': '2', 'pids.max': '10' });
  });
});

describe('podCgroupPath', () => {
  it.each([
    ['/kubepods/burstable/pod1', 'cgroupfs', '/kubepods/burstable/pod1'],
    ['kubepods-burstable-pod1.slice', 'systemd', '/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice'],
    ['machine.slice', 'systemd', '/machine.slice'],
    ['-.slice', 'systemd', '/'],
  ] as const)('%s (%s) is %s', (parent, manager, path) => {
    expect(podCgroupPath(parent, manager)).toBe(path);
  });
});

describe('sharedCgroupProblem', () => {
  const pod = (id: string, own: string | undefined, parent: string) => ({ id, cgroupParent: parent, config: { linux: own === undefined ? undefined : { cgroupParent: own } } }) as unknown as SandboxRecord;

  it('accepts a pod with a parent nobody else uses', () => {
    expect(sharedCgroupProblem(pod('a', '/k/pa', '/k/pa'), [pod('b', '/k/pb', '/k/pb')], '/isulats')).toBeUndefined();
  });
  it('refuses the engine default parent and a parent another pod uses', () => {
    expect(sharedCgroupProblem(pod('a', undefined, '/isulats'), [], '/isulats')).toMatch(/shared cgroup parent \/isulats/);
    expect(sharedCgroupProblem(pod('a', '/isulats', '/isulats'), [], '/isulats')).toMatch(/shared cgroup parent/);
    expect(sharedCgroupProblem(pod('a', '/k/p', '/k/p'), [pod('b', '/k/p', '/k/p')], '/isulats')).toMatch(/shares its cgroup parent \/k\/p with pod b/);
  });
});

describe('cgroup file writes', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** A fake cgroup tree: files with initial contents under root. */
  function tree(files: Record<string, string>): string {
    dir = mkdtempSync('/tmp/ist-cgw-');
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    return dir;
  }
  const read = (path: string) => readFileSync(join(dir!, path), 'utf8');

  it('converts shares to weight as runc does', () => {
    expect([2, 1024, 262144].map(sharesToWeight)).toEqual([1, 39, 10000]);
  });

  it('writes cgroup v2 files: weight, cpu.max, memory.max, swap alone, unified keys', async () => {
    const root = tree({ 'cgroup.controllers': 'cpu memory\n', 'pod/cpu.weight': '100\n', 'pod/cpu.max': 'max 100000\n', 'pod/memory.max': 'max\n', 'pod/memory.swap.max': 'max\n', 'pod/memory.high': 'max\n' });
    const cg = new CgroupReader(root);
    expect(cg.version).toBe(2);
    await writeCgroupResources(cg, '/pod', { cpu: { shares: 1024, quota: 50_000, period: 100_000 }, memory: { limit: 1000, swap: 3000 }, unified: { 'memory.high': '900' } });
    expect([read('pod/cpu.weight'), read('pod/cpu.max'), read('pod/memory.max'), read('pod/memory.swap.max'), read('pod/memory.high')]).toEqual(['39', '50000 100000', '1000', '2000', '900']);
    await writeCgroupResources(cg, '/pod', { cpu: { quota: -1, period: 100_000 }, memory: { limit: -1 } });
    expect([read('pod/cpu.max'), read('pod/memory.max')]).toEqual(['max 100000', 'max']);
  });

  it('refuses unified keys that are not cgroup file names and swap without a memory limit on v2', () => {
    const cg = new CgroupReader('/nonexistent', 2);
    expect(() => cgroupWrites(cg, '/pod', { unified: { '../escape': '1' } })).toThrow(/not a cgroup v2 file name/);
    expect(() => cgroupWrites(cg, '/pod', { memory: { swap: 5000 } })).toThrow(/needs a memory limit/);
  });

  it('writes cpu.max as QUOTA [PERIOD], a period alone meaning no quota (as runc does)', () => {
    const cg = new CgroupReader('/cg', 2);
    const cpuMax = (cpu: { quota?: number; period?: number }) => cgroupWrites(cg, '/pod', { cpu })[0]![0]!.value;
    expect([cpuMax({ quota: 20_000 }), cpuMax({ period: 50_000 }), cpuMax({ quota: -1, period: 100_000 })]).toEqual(['20000', 'max 50000', 'max 100000']);
  });

  it('maps v1 files per controller and refuses unified resources on v1', () => {
    const cg = new CgroupReader('/sys/fs/cgroup', 1);
    const writes = cgroupWrites(cg, '/k/pod', { cpu: { shares: 512, quota: 20_000, period: 100_000, cpus: '0' }, memory: { limit: 4096, swap: 8192 } });
    expect(writes.map((g) => g.map((w) => `${w.file}=${w.value}`))).toEqual([
      ['/sys/fs/cgroup/cpu/k/pod/cpu.shares=512'],
      ['/sys/fs/cgroup/cpu/k/pod/cpu.cfs_period_us=100000', '/sys/fs/cgroup/cpu/k/pod/cpu.cfs_quota_us=20000'],
      ['/sys/fs/cgroup/cpuset/k/pod/cpuset.cpus=0'],
      ['/sys/fs/cgroup/memory/k/pod/memory.limit_in_bytes=4096', '/sys/fs/cgroup/memory/k/pod/memory.memsw.limit_in_bytes=8192'],
    ]);
    expect(() => cgroupWrites(cg, '/k/pod', { unified: { 'memory.high': '1' } })).toThrow(/cgroup v1 host/);
  });

  it('puts back what it wrote when a later file refuses the value', async () => {
    // memory.max as a directory: its write fails (EISDIR) after the cpu files were written.
    const root = tree({ 'cgroup.controllers': 'cpu memory\n', 'pod/cpu.weight': '100\n', 'pod/cpu.max': 'max 100000\n', 'pod/memory.max/.dir': '' });
    const cg = new CgroupReader(root);
    const err = await writeCgroupResources(cg, '/pod', { cpu: { shares: 1024, quota: 50_000, period: 100_000 }, memory: { limit: 1000 } }).catch((e) => e);
    expect(err).toBeInstanceOf(CgroupWriteError);
    expect(err.message).toMatch(/memory\.max: EISDIR/);
    expect([read('pod/cpu.weight'), read('pod/cpu.max')]).toEqual(['100', 'max 100000']);
  });
});
