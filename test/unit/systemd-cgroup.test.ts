// The systemd cgroup driver's names (src/runtime/oci/systemd-cgroup.ts) and the stats, pod paths and
// updates that use them, against a fixture cgroup v2 tree laid out as systemd lays it out under
// kubelet's `cgroupDriver: systemd`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cgroupWrites } from '../../src/runtime/oci/cgroup-writer.js';
import { CgroupReader } from '../../src/runtime/oci/cgroups.js';
import { cgroupfsPathOf, expandSlice, sliceNameProblem, sliceOf, systemdCgroupsPath } from '../../src/runtime/oci/systemd-cgroup.js';
import { cgroupParentProblem, engineCgroupParent, podCgroupParent, podCgroupPath } from '../../src/runtime/sandbox/pod-cgroup.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const UID = '0f6c8a2e_4b1d_4e7a_9c3f_5d2b8e1a7c64';
const KUBELET_PARENT = `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${UID}.slice`;
const POD_SLICE = `kubepods-burstable-pod${UID}.slice`;
const ID = 'c4a1e2f9b7d34c8e9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f';

describe('systemd cgroup names', () => {
  it('takes the base name of the path of slices kubelet sends, as containerd and CRI-O do', () => {
    expect(sliceOf(KUBELET_PARENT)).toBe(POD_SLICE);
    expect(sliceOf(POD_SLICE)).toBe(POD_SLICE);
    expect(sliceOf('/test.slice/')).toBe('test.slice');
    expect(systemdCgroupsPath(KUBELET_PARENT, ID)).toBe(`${POD_SLICE}:isulats:${ID}`);
    expect(systemdCgroupsPath('', ID)).toBe(`system.slice:isulats:${ID}`);
  });

  it('validates a slice name as systemd and runc do', () => {
    for (const ok of [POD_SLICE, 'system.slice', '-.slice', 'test.slice', 'a-b_c:d\\x2d.slice']) expect(sliceNameProblem(ok), ok).toBeUndefined();
    expect(sliceNameProblem('/isulats')).toMatch(/ends in ".slice"/);
    expect(sliceNameProblem('.slice')).toMatch(/ends in ".slice"/);
    expect(sliceNameProblem('kubepods.scope')).toMatch(/ends in ".slice"/);
    expect(sliceNameProblem('-test.slice')).toMatch(/dashes/);
    expect(sliceNameProblem('test--a.slice')).toMatch(/dashes/);
    expect(sliceNameProblem('test-.slice')).toMatch(/dashes/);
    expect(sliceNameProblem('te st.slice')).toMatch(/only letters/);
    expect(sliceNameProblem(`${'a'.repeat(250)}.slice`)).toMatch(/at most 255/);
  });

  it('expands a slice into the slices that hold it', () => {
    expect(expandSlice(POD_SLICE)).toBe(`/kubepods.slice/kubepods-burstable.slice/${POD_SLICE}`);
    expect(expandSlice('system.slice')).toBe('/system.slice');
    expect(expandSlice('-.slice')).toBe('/');
  });

  it('turns slice:prefix:name into the scope cgroupfs path runc makes, and leaves cgroupfs paths alone', () => {
    expect(cgroupfsPathOf(`${POD_SLICE}:isulats:${ID}`)).toBe(`/kubepods.slice/kubepods-burstable.slice/${POD_SLICE}/isulats-${ID}.scope`);
    expect(cgroupfsPathOf(`:isulats:${ID}`)).toBe(`/system.slice/isulats-${ID}.scope`);
    expect(cgroupfsPathOf(`system.slice::${ID}`)).toBe(`/system.slice/${ID}.scope`);
    expect(cgroupfsPathOf('-.slice:isulats:x')).toBe('/isulats-x.scope');
    expect(cgroupfsPathOf('system.slice:isulats:sub.slice')).toBe('/system.slice/sub.slice');
    expect(cgroupfsPathOf(`/kubepods/burstable/pod${UID}/${ID}`)).toBe(`/kubepods/burstable/pod${UID}/${ID}`);
  });

  it('keeps a pod slice name in the record, defaults to system.slice, and refuses a parent that is no slice', () => {
    expect(podCgroupParent(KUBELET_PARENT, 'systemd')).toBe(POD_SLICE);
    expect(podCgroupParent('/kubepods/burstable/pod1', 'cgroupfs')).toBe('/kubepods/burstable/pod1');
    expect(engineCgroupParent(undefined, 'systemd')).toBe('system.slice');
    expect(engineCgroupParent('', 'cgroupfs')).toBe('/isulats');
    expect(engineCgroupParent('isulats.slice', 'systemd')).toBe('isulats.slice');
    expect(cgroupParentProblem(KUBELET_PARENT, 'systemd')).toBeUndefined();
    expect(cgroupParentProblem('/isulats', 'systemd')).toBe('cgroup parent "/isulats" is not a systemd slice (a slice name ends in ".slice"), which the systemd cgroup manager needs: e.g. kubepods-burstable-pod<uid>.slice or a path ending in one');
    expect(cgroupParentProblem('/isulats', 'cgroupfs')).toBeUndefined();
    expect(podCgroupPath(KUBELET_PARENT, 'systemd')).toBe(`/kubepods.slice/kubepods-burstable.slice/${POD_SLICE}`);
    expect(podCgroupPath(POD_SLICE, 'systemd')).toBe(`/kubepods.slice/kubepods-burstable.slice/${POD_SLICE}`);
  });
});

describe('stats and updates under the systemd driver (cgroup v2 fixture tree)', () => {
  let root: string;
  const podDir = () => join(root, 'kubepods.slice', 'kubepods-burstable.slice', POD_SLICE);

  beforeAll(async () => {
    root = await makeTempDir('istsdcg-');
    await writeFile(join(root, 'cgroup.controllers'), 'cpuset cpu io memory hugetlb pids rdma misc\n');
    const scope = join(podDir(), `isulats-${ID}.scope`);
    await mkdir(scope, { recursive: true });
    await writeFile(join(scope, 'cpu.stat'), 'usage_usec 81234\nuser_usec 60000\nsystem_usec 21234\nnr_periods 0\n');
    await writeFile(join(scope, 'memory.current'), '4194304\n');
    await writeFile(join(scope, 'memory.stat'), 'anon 2097152\nfile 1048576\ninactive_file 524288\n');
    await writeFile(join(scope, 'memory.max'), '67108864\n');
    await writeFile(join(scope, 'memory.events'), 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n');
    await writeFile(join(podDir(), 'cpu.weight'), '100\n');
    await writeFile(join(podDir(), 'memory.max'), 'max\n');
  });
  afterAll(async () => {
    await removeTempDir(root);
  });

  it('reads a container scope through its slice:prefix:name cgroupsPath (not 0 from a path joined as is)', async () => {
    const stats = await new CgroupReader(root).stats(systemdCgroupsPath(KUBELET_PARENT, ID));
    expect(stats).toMatchObject({ cpuUsageNs: 81_234_000n, memoryUsageBytes: 4_194_304n, memoryWorkingSetBytes: 3_670_016n, memoryLimitBytes: 67_108_864n, oomKills: 1 });
  });

  it('writes a pod update into the slice systemd made for it', () => {
    const cg = new CgroupReader(root);
    const writes = cgroupWrites(cg, podCgroupPath(KUBELET_PARENT, 'systemd'), { memory: { limit: 268_435_456 } });
    expect(writes.flat().map((w) => w.file)).toEqual([join(podDir(), 'memory.max')]);
  });
});
