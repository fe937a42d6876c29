// kubelet's cgroup driver as a node sets it (src/doctor/kubelet-settings.ts): kubeadm's config
// file, the --cgroup-driver flag in kubeadm-flags.env and /etc/default/kubelet (flags win, the
// later file wins), kubelet's cgroupfs default when it sets none; and the doctor row each gives.
import { describe, expect, it } from 'vitest';
import type { HostProbe } from '../../src/doctor/host-probe.js';
import { kubeletConfigValue, kubeletFlagValue, kubeletPaths, readKubeletSetting } from '../../src/doctor/kubelet-settings.js';
import { gatherCgroups } from '../../src/doctor/gather.js';
import { evaluateCgroups } from '../../src/doctor/checks/cgroups.js';
import type { RuntimeLayout } from '../../src/doctor/runtime-layout.js';

function fixtureProbe(files: Record<string, string>): HostProbe {
  const none = async () => undefined;
  return {
    readText: async (p) => files[p],
    list: async (p) => (p === '/run/systemd/system' ? [] : undefined),
    statfs: async () => ({ totalBytes: 0, freeBytes: 0, totalInodes: 0, freeInodes: 0 }),
    which: none,
    versionOf: none,
    isExecutable: async () => false,
    realpath: async (p) => p,
    processes: async () => [],
    now: () => new Date(0),
  };
}

const V2 = { '/sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io memory pids\n' };
const SYSTEMD_RUNTIME: RuntimeLayout = { kind: 'isulats-daemon', cniConfDir: '/etc/cni/net.d', cniBinDirs: [], configDriver: { driver: 'systemd', source: 'daemon.json cgroup-manager' } };
const KUBEADM_CONFIG = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n';

async function driverRow(files: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  const facts = await gatherCgroups(fixtureProbe({ ...V2, ...files }), undefined, SYSTEMD_RUNTIME, kubeletPaths(env));
  return { facts, row: evaluateCgroups(facts).find((r) => r.id === 'cgroup.driver')! };
}

describe('kubelet settings', () => {
  it('reads a config key quoted, unquoted or commented, and not a nested one', () => {
    expect(kubeletConfigValue(KUBEADM_CONFIG, 'cgroupDriver')).toBe('systemd');
    expect(kubeletConfigValue("cgroupDriver: 'cgroupfs' # kubeadm\n", 'cgroupDriver')).toBe('cgroupfs');
    expect(kubeletConfigValue('cgroupDriver: "systemd"\n', 'cgroupDriver')).toBe('systemd');
    expect(kubeletConfigValue('logging:\n  cgroupDriver: systemd\n', 'cgroupDriver')).toBeUndefined();
    expect(kubeletConfigValue('cgroupRoot: "/"\n', 'cgroupRoot')).toBe('/');
  });

  it('reads the last --cgroup-driver of an env file, = or space separated, comments skipped', () => {
    expect(kubeletFlagValue('KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/isulats/isulats.sock --cgroup-driver=cgroupfs --pod-infra-container-image=registry.k8s.io/pause:3.9"\n', 'cgroup-driver')).toBe('cgroupfs');
    expect(kubeletFlagValue('# KUBELET_EXTRA_ARGS=--cgroup-driver=cgroupfs\nKUBELET_EXTRA_ARGS=--cgroup-driver systemd --v=2\n', 'cgroup-driver')).toBe('systemd');
    expect(kubeletFlagValue("KUBELET_EXTRA_ARGS='--cgroup-driver=cgroupfs --cgroup-driver=systemd'\n", 'cgroup-driver')).toBe('systemd');
    expect(kubeletFlagValue('KUBELET_EXTRA_ARGS=--cgroup-driver-x=systemd --cgroup-driver\n', 'cgroup-driver')).toBeUndefined();
    expect(kubeletFlagValue('KUBELET_EXTRA_ARGS=\n', 'cgroup-driver')).toBeUndefined();
  });

  it('takes its paths from the environment for tests and moved installs', () => {
    expect(kubeletPaths({})).toEqual({ config: '/var/lib/kubelet/config.yaml', flagFiles: ['/var/lib/kubelet/kubeadm-flags.env', '/etc/default/kubelet', '/etc/sysconfig/kubelet'] });
    expect(kubeletPaths({ ISULATS_KUBELET_DIR: '/k', ISULATS_KUBELET_ENV_FILES: '/e1:/e2' })).toEqual({ config: '/k/config.yaml', flagFiles: ['/k/kubeadm-flags.env', '/e1', '/e2'] });
    expect(kubeletPaths({ ISULATS_KUBELET_ENV_FILES: '' }, '/c.yaml')).toEqual({ config: '/c.yaml', flagFiles: ['/var/lib/kubelet/kubeadm-flags.env'] });
  });

  it('lets a flag win over the config file, and the later env file over the earlier', async () => {
    const files = {
      '/var/lib/kubelet/config.yaml': KUBEADM_CONFIG,
      '/var/lib/kubelet/kubeadm-flags.env': 'KUBELET_KUBEADM_ARGS="--cgroup-driver=cgroupfs"\n',
    };
    expect(await readKubeletSetting(fixtureProbe(files), kubeletPaths({}), 'cgroupDriver', 'cgroup-driver'))
      .toEqual({ value: 'cgroupfs', source: '/var/lib/kubelet/kubeadm-flags.env', from: 'flag' });
    expect(await readKubeletSetting(fixtureProbe({ ...files, '/etc/default/kubelet': 'KUBELET_EXTRA_ARGS=--cgroup-driver=systemd\n' }), kubeletPaths({}), 'cgroupDriver', 'cgroup-driver'))
      .toEqual({ value: 'systemd', source: '/etc/default/kubelet', from: 'flag' });
  });
});

describe('doctor: the cgroup driver row against kubelet', () => {
  it('agrees with kubeadm config on the systemd driver', async () => {
    const { row } = await driverRow({ '/var/lib/kubelet/config.yaml': KUBEADM_CONFIG });
    expect(row).toMatchObject({ status: 'ok', evidence: 'runtime uses systemd (daemon.json cgroup-manager), cgroup v2, kubelet agrees (/var/lib/kubelet/config.yaml)' });
  });

  it('fails a --cgroup-driver flag on the other driver, with the fix in that file', async () => {
    const { row } = await driverRow({ '/var/lib/kubelet/config.yaml': KUBEADM_CONFIG, '/etc/default/kubelet': 'KUBELET_EXTRA_ARGS=--cgroup-driver=cgroupfs\n' });
    expect(row).toMatchObject({
      status: 'fail',
      evidence: 'runtime uses systemd (daemon.json cgroup-manager), cgroup v2, kubelet cgroupfs (/etc/default/kubelet --cgroup-driver)',
      fix: 'make them agree: set --cgroup-driver=systemd in /etc/default/kubelet, or change the runtime\'s',
    });
  });

  it('fails a config file on the other driver', async () => {
    const { row } = await driverRow({ '/var/lib/kubelet/config.yaml': 'cgroupDriver: cgroupfs\n' });
    expect(row).toMatchObject({ status: 'fail', fix: "make them agree: set cgroupDriver: systemd in /var/lib/kubelet/config.yaml, or change the runtime's" });
  });

  it("warns a kubelet that sets no driver (cgroupfs by default before 1.31), and says nothing of a node without kubelet", async () => {
    const { facts, row } = await driverRow({ '/var/lib/kubelet/config.yaml': 'kind: KubeletConfiguration\n' });
    expect(facts.kubeletDriver).toEqual({ driver: 'cgroupfs', source: '/var/lib/kubelet/config.yaml', from: 'default' });
    expect(row).toMatchObject({ status: 'warn', fix: 'set cgroupDriver: systemd in /var/lib/kubelet/config.yaml' });
    const none = await driverRow({});
    expect(none.facts.kubeletDriver).toBeUndefined();
    expect(none.row).toMatchObject({ status: 'ok', evidence: expect.stringMatching(/no kubelet config to compare$/) });
  });
});
