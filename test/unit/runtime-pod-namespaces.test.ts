// Which namespaces a pod pins, which sysctls it may set (runc's rules), and
// the pod cgroup made for a pod without a pause on cgroup v2 (fixture tree:
// this host's unified hierarchy has only hugetlb).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { enginePaths } from '../../src/runtime/config/engine-config.js';
import { checkPodSysctls, podPinPaths, sysctlNamespace } from '../../src/runtime/sandbox/pod-namespaces.js';
import { ensurePodCgroup } from '../../src/runtime/sandbox/pod-cgroup.js';

const paths = enginePaths({ root: '/var/lib/ist', state: '/run/ist' });
const pod = { network: 'POD', ipc: 'POD' } as const;

describe('pod namespace pins', () => {
  it('pins net and UTS unless the pod uses the host network, IPC unless host IPC', () => {
    expect(podPinPaths(paths, 'abc', pod)).toEqual({ net: '/run/ist/netns/abc', uts: '/run/ist/utsns/abc', ipc: '/run/ist/ipcns/abc' });
    expect(podPinPaths(paths, 'abc', { network: 'NODE', ipc: 'POD' })).toEqual({ ipc: '/run/ist/ipcns/abc' });
    expect(podPinPaths(paths, 'abc', { network: 'NODE', ipc: 'NODE' })).toEqual({});
  });

  it.each([
    ['net.ipv4.ip_unprivileged_port_start', 'net'],
    ['net.core.somaxconn', 'net'],
    ['kernel.shmmax', 'ipc'],
    ['kernel.sem', 'ipc'],
    ['kernel.msgmnb', 'ipc'],
    ['fs.mqueue.msg_max', 'ipc'],
    ['kernel.domainname', 'uts'],
    ['kernel.hostname', undefined],
    ['kernel.pid_max', undefined],
    ['vm.overcommit_memory', undefined],
    ['fs.file-max', undefined],
  ])('places %s in the %s namespace', (key, ns) => {
    expect(sysctlNamespace(key)).toBe(ns);
  });

  it('refuses sysctls of the node and of namespaces the pod shares with the node', () => {
    expect(() => checkPodSysctls({ 'net.ipv4.ip_forward': '1', 'kernel.shmmni': '4096' }, pod)).not.toThrow();
    expect(() => checkPodSysctls({ 'kernel.pid_max': '4096' }, pod)).toThrow(/"kernel.pid_max" is not in a separate kernel namespace/);
    expect(() => checkPodSysctls({ 'net.core.somaxconn': '1' }, { network: 'NODE', ipc: 'POD' })).toThrow(/host's network namespace/);
    expect(() => checkPodSysctls({ 'kernel.shmmax': '1' }, { network: 'POD', ipc: 'NODE' })).toThrow(/host's IPC namespace/);
    expect(() => checkPodSysctls({ 'net.ipv4/../../kernel/pid_max': '1' }, pod)).toThrow(/not in a separate kernel namespace/);
    expect(() => checkPodSysctls({ 'net.ipv4.ip_forward': '1\nkernel.x=2' }, pod)).toThrow(/one line/);
  });
});

describe('ensurePodCgroup on cgroup v2 (fixture tree)', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('makes each missing level and leaves a parent that passes all its controllers down as it is', () => {
    root = mkdtempSync(join(tmpdir(), 'ist-cg2-'));
    writeFileSync(join(root, 'cgroup.controllers'), 'cpuset cpu io memory hugetlb pids\n');
    writeFileSync(join(root, 'cgroup.subtree_control'), 'cpu memory\n');
    mkdirSync(join(root, 'kubepods.slice'));
    writeFileSync(join(root, 'kubepods.slice', 'cgroup.controllers'), 'cpu memory pids\n');
    writeFileSync(join(root, 'kubepods.slice', 'cgroup.subtree_control'), 'cpu memory pids\n');
    return ensurePodCgroup('/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234.slice', 2, root).then(() => {
      // An existing level is left as it is; the new one's parent had all it offers enabled already.
      expect(readFileSync(join(root, 'cgroup.subtree_control'), 'utf8')).toBe('cpu memory\n');
      expect(readFileSync(join(root, 'kubepods.slice', 'cgroup.subtree_control'), 'utf8')).toBe('cpu memory pids\n');
      expect(existsSync(join(root, 'kubepods.slice', 'kubepods-burstable.slice', 'kubepods-burstable-pod1234.slice'))).toBe(true);
    });
  });

  it('enables what the parent offers but does not yet pass down', async () => {
    root = mkdtempSync(join(tmpdir(), 'ist-cg2-'));
    writeFileSync(join(root, 'cgroup.controllers'), 'cpu io memory pids\n');
    writeFileSync(join(root, 'cgroup.subtree_control'), 'memory\n');
    await ensurePodCgroup('/kubepods/burstable/pod1234', 2, root);
    expect(readFileSync(join(root, 'cgroup.subtree_control'), 'utf8')).toBe('+cpu +io +pids');
    expect(existsSync(join(root, 'kubepods', 'burstable', 'pod1234'))).toBe(true);
  });

  it('makes the path in every v1 hierarchy but the hybrid unified one', async () => {
    root = mkdtempSync(join(tmpdir(), 'ist-cg1-'));
    for (const c of ['cpu', 'memory', 'pids', 'unified']) mkdirSync(join(root, c));
    await ensurePodCgroup('/kubepods/burstable/pod1234', 1, root);
    for (const c of ['cpu', 'memory', 'pids']) expect(existsSync(join(root, c, 'kubepods/burstable/pod1234'))).toBe(true);
    expect(existsSync(join(root, 'unified', 'kubepods'))).toBe(false);
  });
});
