// The doctor's node rows (src/doctor/checks/node-layout.ts) from fixtures shaped as a Debian 12
// node with systemd: cgroup v2 only, the daemon in /system.slice/isulats.service, /run tmpfs
// noexec, /var/run a link to /run, kubelet with cgroupDriver: systemd.
import { describe, expect, it } from 'vitest';
import type { HostProbe } from '../../src/doctor/host-probe.js';
import { evaluateNodeLayout, kubeletCgroupRoot, unifiedCgroupOf, type NodeLayoutFacts } from '../../src/doctor/checks/node-layout.js';
import { gatherNodeLayout } from '../../src/doctor/gather.js';
import { kubeletPaths } from '../../src/doctor/kubelet-settings.js';
import { evaluateCgroups } from '../../src/doctor/checks/cgroups.js';

const MOUNTINFO = [
  '22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw',
  '24 22 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot',
  '26 22 0:23 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=401680k,mode=755,inode64',
].join('\n');

const KUBELET = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\ncgroupRoot: /kubepods\n';

function fixtureProbe(files: Record<string, string>, links: Record<string, string> = {}): HostProbe {
  const none = async () => undefined;
  return {
    readText: async (p) => files[p],
    list: none,
    statfs: async () => ({ totalBytes: 0, freeBytes: 0, totalInodes: 0, freeInodes: 0 }),
    which: none,
    versionOf: none,
    isExecutable: async () => false,
    realpath: async (p) => links[p] ?? p,
    processes: async () => [],
    now: () => new Date(0),
  };
}

const byId = (rows: ReturnType<typeof evaluateNodeLayout>, id: string) => rows.find((r) => r.id === id);

describe('doctor: node layout', () => {
  it('gathers a systemd node: v2 delegation, the linked state, kubelet cgroupRoot, and skips the noexec /run for the executable', async () => {
    const probe = fixtureProbe({
      '/sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io memory hugetlb pids rdma misc\n',
      '/proc/4242/cgroup': '0::/system.slice/isulats.service\n',
      '/sys/fs/cgroup/system.slice/isulats.service/cgroup.controllers': 'cpuset cpu io memory pids\n',
      '/var/lib/kubelet/config.yaml': KUBELET,
      '/proc/self/mountinfo': MOUNTINFO,
    }, { '/var/run/isulats': '/run/isulats' });
    const facts = await gatherNodeLayout(probe, { kind: 'isulats-daemon', cniConfDir: '/etc/cni/net.d', cniBinDirs: [], root: '/var/lib/isulats', state: '/var/run/isulats', pid: 4242, configDriver: { driver: 'systemd', source: 'daemon.json cgroup-manager' } }, kubeletPaths({}), { XDG_RUNTIME_DIR: '/run/user/0' }, 0);
    expect(facts).toEqual({
      cgroupVersion: 2,
      manager: 'systemd',
      daemonCgroup: { pid: 4242, path: '/system.slice/isulats.service', controllers: ['cpuset', 'cpu', 'io', 'memory', 'pids'] },
      kubeletCgroupRoot: { value: '/kubepods', source: '/var/lib/kubelet/config.yaml' },
      dirs: [{ role: 'root', path: '/var/lib/isulats', real: '/var/lib/isulats' }, { role: 'state', path: '/var/run/isulats', real: '/run/isulats' }],
      sea: { candidates: [{ dir: '/run/user/0/isulats-sea', noexec: true }, { dir: '/var/lib/isulats/sea', noexec: false }], override: false },
    });
    const rows = evaluateNodeLayout(facts);
    expect(byId(rows, 'cgroup.delegation')).toMatchObject({ status: 'ok', evidence: 'process 4242 in /system.slice/isulats.service: cpuset cpu io memory pids delegated' });
    expect(byId(rows, 'cgroup.parent')).toMatchObject({ status: 'ok', evidence: 'pods without a cgroup_parent go to system.slice (systemd)' });
    expect(byId(rows, 'cgroup.kubelet-root')).toMatchObject({ status: 'fail', evidence: expect.stringMatching(/^\/var\/lib\/kubelet\/config\.yaml: cgroup parent "\/kubepods" is not a systemd slice/) });
    expect(byId(rows, 'dirs.state')).toMatchObject({ status: 'ok', evidence: '/var/run/isulats is reached through a link: resolved to /run/isulats at start' });
    expect(byId(rows, 'dirs.root')).toMatchObject({ status: 'ok', evidence: '/var/lib/isulats' });
    expect(byId(rows, 'sea.unpack')).toMatchObject({ status: 'ok', evidence: '/var/lib/isulats/sea (/run/user/0/isulats-sea skipped: noexec)' });
  });

  it('warns about a daemon cgroup without its controllers, and fails a default parent that is no slice', () => {
    const base: NodeLayoutFacts = { cgroupVersion: 2, dirs: [], sea: { candidates: [{ dir: '/var/lib/isulats/sea', noexec: false }], override: false } };
    const rows = evaluateNodeLayout({ ...base, manager: 'systemd', cgroupParent: '/isulats', daemonCgroup: { pid: 7, path: '/system.slice/isulats.service', controllers: ['cpu'] } });
    expect(byId(rows, 'cgroup.delegation')).toMatchObject({ status: 'warn', evidence: expect.stringMatching(/missing memory, pids/), fix: expect.stringMatching(/Delegate=yes/) });
    expect(byId(rows, 'cgroup.parent')).toMatchObject({ status: 'fail', evidence: expect.stringMatching(/^cgroup parent "\/isulats" is not a systemd slice/) });
    expect(byId(evaluateNodeLayout({ ...base, manager: 'cgroupfs' }), 'cgroup.parent')).toMatchObject({ status: 'ok', evidence: 'pods without a cgroup_parent go to /isulats (cgroupfs)' });
    expect(byId(evaluateNodeLayout({ ...base, cgroupVersion: 1, daemonCgroup: { pid: 7, path: '/', controllers: [] } }), 'cgroup.delegation')).toBeUndefined();
  });

  it('fails when every unpack dir of the single executable is on a noexec mount, naming ISULATS_SEA_DIR', () => {
    const rows = evaluateNodeLayout({ cgroupVersion: 2, dirs: [], sea: { candidates: [{ dir: '/run/isulats/sea', noexec: true }], override: true } });
    expect(byId(rows, 'sea.unpack')).toMatchObject({ status: 'fail', evidence: '/run/isulats/sea: on a noexec mount, where the executable\'s addon and helpers cannot run', fix: 'set ISULATS_SEA_DIR to a directory on a mount without noexec' });
  });

  it('names the driver with the cgroup version, and fails a kubelet on the other driver', () => {
    const r = evaluateCgroups({ version: 2, controllers: ['cpu', 'memory', 'pids'], systemdIsInit: true, runtimeDriver: { driver: 'cgroupfs', source: 'daemon.json cgroup-manager' }, kubeletDriver: { driver: 'systemd', source: '/var/lib/kubelet/config.yaml' } });
    expect(r[1]).toMatchObject({ id: 'cgroup.driver', status: 'fail', evidence: 'runtime uses cgroupfs (daemon.json cgroup-manager), cgroup v2, kubelet systemd (/var/lib/kubelet/config.yaml)' });
  });

  it("reads kubelet's cgroupRoot and a process's unified cgroup", () => {
    expect(kubeletCgroupRoot(KUBELET)).toBe('/kubepods');
    expect(kubeletCgroupRoot('cgroupRoot: "/"\n')).toBe('/');
    expect(kubeletCgroupRoot('cgroupDriver: systemd\n')).toBeUndefined();
    expect(unifiedCgroupOf('12:pids:/x\n0::/system.slice/isulats.service\n')).toBe('/system.slice/isulats.service');
    expect(unifiedCgroupOf('12:pids:/x\n')).toBeUndefined();
  });
});
