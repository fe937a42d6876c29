// The doctor's checks, each with a case that fails on purpose: pure evaluations over fixture
// facts (cgroup v2, a kubelet on another driver, a missing sysctl), and, gathered from real
// files, a broken CNI config, a missing plugin binary and a full tmpfs.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateCgroups, enabledV1Controllers, kubeletCgroupDriver } from '../../src/doctor/checks/cgroups.js';
import { cidrsOverlap, evaluateCni, parseProcNetRoute } from '../../src/doctor/checks/cni.js';
import { CLOCK_FLOOR, evaluateClock } from '../../src/doctor/checks/clock.js';
import { evaluateDisk } from '../../src/doctor/checks/disk-space.js';
import { evaluateEndpoint } from '../../src/doctor/checks/endpoint.js';
import { evaluateKernel } from '../../src/doctor/checks/kernel.js';
import { engineConmons, evaluateLeftovers, mountsUnder } from '../../src/doctor/checks/leftovers.js';
import { evaluateNri } from '../../src/doctor/checks/nri.js';
import { evaluateTools } from '../../src/doctor/checks/oci-tools.js';
import { evaluateStatus } from '../../src/doctor/checks/runtime-status.js';
import { evaluateSysctls } from '../../src/doctor/checks/sysctls.js';
import { gatherCni, gatherDisks } from '../../src/doctor/gather.js';
import { hostProbe } from '../../src/doctor/host-probe.js';
import { layoutFromContainerdInfo, type RuntimeLayout } from '../../src/doctor/runtime-layout.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const statuses = (rs: Array<{ status: string }>) => rs.map((r) => r.status);

describe('runtime checks', () => {
  it('fails an unreachable endpoint with a fix, and names a reachable one', () => {
    const down = evaluateEndpoint({ target: 'unix:///run/x.sock', error: 'connect ENOENT /run/x.sock' });
    expect(down[0]).toMatchObject({ status: 'fail', evidence: 'unix:///run/x.sock: connect ENOENT /run/x.sock' });
    expect(down[0]!.fix).toMatch(/--runtime-endpoint/);
    const up = evaluateEndpoint({ target: 'unix:///run/c.sock', api: 'v1', version: { runtimeName: 'containerd', runtimeVersion: 'v1.6.20', runtimeApiVersion: 'v1' } });
    expect(up[0]).toMatchObject({ status: 'ok', evidence: 'unix:///run/c.sock: containerd v1.6.20, CRI v1' });
  });

  it('fixes a socket this user may not open with permissions, not by starting the runtime', () => {
    const denied = evaluateEndpoint({ target: 'unix:///run/containerd/containerd.sock', error: 'permission denied on /run/containerd/containerd.sock' });
    expect(denied[0]!.status).toBe('fail');
    expect(denied[0]!.fix).toBe('run as root, or as a user allowed to write to the socket (its group: ls -l /run/containerd/containerd.sock)');
  });

  it('fails NetworkReady=false with its reason', () => {
    const r = evaluateStatus({ conditions: [
      { type: 'RuntimeReady', status: true },
      { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'cni config uninitialized' },
    ] });
    expect(statuses(r)).toEqual(['ok', 'fail']);
    expect(r[1]!.evidence).toBe('false (NetworkPluginNotReady: cni config uninitialized)');
  });
});

describe('cgroups', () => {
  const base = { version: 2 as const, controllers: ['cpuset', 'cpu', 'io', 'memory', 'pids'], systemdIsInit: true };

  it('accepts cgroup v2 with the controllers pods need and agreeing drivers', () => {
    const r = evaluateCgroups({ ...base, runtimeDriver: { driver: 'systemd', source: 'RuntimeConfig' }, kubeletDriver: { driver: 'systemd', source: '/var/lib/kubelet/config.yaml' } });
    expect(statuses(r)).toEqual(['ok', 'ok']);
  });

  it('fails a missing controller, and a kubelet on another driver than the runtime', () => {
    const r = evaluateCgroups({ ...base, controllers: ['cpuset', 'cpu', 'io'], runtimeDriver: { driver: 'systemd', source: 'RuntimeConfig' }, kubeletDriver: { driver: 'cgroupfs', source: '/k.yaml' } });
    expect(statuses(r)).toEqual(['fail', 'fail']);
    expect(r[0]!.evidence).toMatch(/missing memory, pids/);
    expect(r[0]!.fix).toMatch(/cgroup\.subtree_control/);
    expect(r[1]!.fix).toMatch(/cgroupDriver: systemd/);
  });

  it('fails the systemd driver without systemd, and warns when the runtime does not say', () => {
    expect(evaluateCgroups({ ...base, systemdIsInit: false, runtimeDriver: { driver: 'systemd', source: 'x' } })[1]!.status).toBe('fail');
    expect(evaluateCgroups(base)[1]!.status).toBe('warn');
  });

  it('reads /proc/cgroups and kubelet config', () => {
    expect(enabledV1Controllers('#subsys_name\thierarchy\tnum_cgroups\tenabled\ncpu\t3\t10\t1\nmemory\t0\t1\t0\npids\t4\t9\t1\n')).toEqual(['cpu', 'pids']);
    expect(kubeletCgroupDriver('apiVersion: kubelet.config.k8s.io/v1beta1\ncgroupDriver: "cgroupfs"\n')).toBe('cgroupfs');
  });

  it("reads containerd's driver and CNI dirs from its verbose Status", () => {
    const config = JSON.stringify({ cni: { confDir: '/etc/x', binDir: '/opt/y' }, containerd: { defaultRuntimeName: 'runc', runtimes: { runc: { options: { SystemdCgroup: true } } } } });
    expect(layoutFromContainerdInfo({ config })).toEqual({ cniConfDir: '/etc/x', cniBinDirs: ['/opt/y'], configDriver: { driver: 'systemd', source: 'containerd config SystemdCgroup' } });
  });
});

describe('host checks', () => {
  it('fails when neither runc nor crun exists, and needs conmon only for isulats', () => {
    const r = evaluateTools([{ name: 'runc' }, { name: 'crun' }, { name: 'conmon' }], true);
    expect(statuses(r)).toEqual(['fail', 'fail', 'fail']);
    expect(statuses(evaluateTools([{ name: 'runc', path: '/usr/sbin/runc', version: 'runc version 1.1.5' }, { name: 'crun' }, { name: 'conmon' }], false)))
      .toEqual(['ok', 'warn', 'warn']);
  });

  it('fails a kernel without overlay or a namespace', () => {
    const r = evaluateKernel({ filesystems: 'nodev\tsysfs\nnodev\ttmpfs\n', overlayModule: false, namespaces: ['mnt', 'uts', 'ipc', 'pid', 'cgroup'], procStatus: 'Seccomp:\t0\n' });
    expect(statuses(r)).toEqual(['fail', 'fail', 'ok']);
    expect(r[1]!.evidence).toBe('missing net in /proc/self/ns');
  });

  it('fails forwarding off and br_netfilter not loaded', () => {
    const r = evaluateSysctls({ ipForward: '0\n' });
    expect(statuses(r)).toEqual(['fail', 'fail']);
    expect(r[1]!.fix).toMatch(/modprobe br_netfilter/);
    expect(statuses(evaluateSysctls({ ipForward: '1\n', bridgeNfCallIptables: '1\n' }))).toEqual(['ok', 'ok']);
  });

  it('fails a clock before the floor and warns when NTP is not synchronized', () => {
    expect(evaluateClock({ now: new Date('2001-09-09T01:46:40Z'), floor: CLOCK_FLOOR }).status).toBe('fail');
    expect(evaluateClock({ now: new Date(CLOCK_FLOOR.getTime() + 1000), floor: CLOCK_FLOOR, ntpSynchronized: false }).status).toBe('warn');
  });

  it('skips NRI with ! on a foreign runtime, and fails a missing socket', () => {
    expect(evaluateNri({ skipped: 'containerd' })[0]!.status).toBe('warn');
    const config = { enabled: true, mode: 'daemon' as const, socket: '/var/run/nri/nri.sock', externalConnections: true, pluginDir: '/opt/nri/plugins', pluginConfigDir: '/etc/nri/conf.d', registrationTimeoutMs: 5000, requestTimeoutMs: 2000 };
    expect(statuses(evaluateNri({ config, plugins: [], socketExists: false }))).toEqual(['fail', 'ok']);
    const r = evaluateNri({ config, plugins: [{ name: 'logger', index: '10', events: [], external: true }], socketExists: true });
    expect(r[1]!.evidence).toBe('10-logger (external)');
  });

  it('finds leftovers: stray mounts, netns files and conmons of this engine only', () => {
    const id = 'a'.repeat(64);
    const gone = 'b'.repeat(64);
    const mountinfo = [
      `100 1 0:50 / /var/lib/ist/overlay/${id}/merged rw - overlay overlay rw`,
      `101 1 0:51 / /var/lib/ist/overlay/${gone}/merged rw - overlay overlay rw`,
      `102 1 0:4 net:[4026] /run/ist/netns/${gone} rw - nsfs nsfs rw`,
      '103 1 0:52 / /var/lib/other\\040dir rw - tmpfs tmpfs rw',
    ].join('\n');
    const mounts = mountsUnder(mountinfo, ['/var/lib/ist', '/run/ist']);
    expect(mounts).toHaveLength(3);
    const conmons = engineConmons([
      { pid: 10, argv: ['/usr/bin/conmon', '-c', gone, '--exit-dir', '/run/ist/exits'] },
      { pid: 11, argv: ['/usr/bin/conmon', '-c', 'c'.repeat(64), '--exit-dir', '/run/other/exits'] },
      { pid: 12, argv: ['conmon', '-c', id, '--exit-dir', '/run/ist/exits'] },
    ], '/run/ist');
    expect(conmons.map((c) => c.pid)).toEqual([10, 12]);
    const r = evaluateLeftovers({ root: '/var/lib/ist', state: '/run/ist', mounts, netnsFiles: [gone, id], conmons, podIds: new Set([id]), containerIds: new Set() });
    expect(statuses(r)).toEqual(['warn', 'warn', 'warn']);
    expect(r[0]!.evidence).toMatch(/^2: /);
    expect(r[1]!.evidence).toBe(`1: ${gone}`);
    expect(r[2]!.evidence).toBe(`1: pid 10 (${gone.slice(0, 13)})`);
  });
});

describe('CNI configs on disk', () => {
  let dir: string;
  let layout: RuntimeLayout;
  const conflist = (name: string, types: string[], subnet: string) => JSON.stringify({
    cniVersion: '1.0.0', name,
    plugins: types.map((type) => (type === 'bridge' ? { type, bridge: 'cni-doc0', ipam: { type: 'host-local', ranges: [[{ subnet }]] } } : { type })),
  });

  beforeEach(async () => {
    dir = await makeTempDir('ist-doc-');
    layout = { kind: 'other', cniConfDir: join(dir, 'net.d'), cniBinDirs: [join(dir, 'bin1'), join(dir, 'bin2')] };
    await mkdir(layout.cniConfDir);
    for (const [d, names] of [['bin1', ['bridge', 'host-local']], ['bin2', ['portmap', 'loopback']]] as const) {
      await mkdir(join(dir, d));
      for (const n of names) {
        await writeFile(join(dir, d, n), '#!/bin/sh\n');
        await chmod(join(dir, d, n), 0o755);
      }
    }
  });
  afterEach(async () => {
    await removeTempDir(dir);
  });

  it('accepts a conflist whose plugins are spread over the bin dirs', async () => {
    await writeFile(join(layout.cniConfDir, '10-pods.conflist'), conflist('pods', ['bridge', 'portmap'], '10.244.7.0/24'));
    const r = evaluateCni(await gatherCni(hostProbe, layout));
    expect(r).toEqual([expect.objectContaining({ status: 'ok', evidence: 'network pods: bridge + portmap, subnet 10.244.7.0/24' })]);
  });

  it('fails a broken file, a missing plugin binary, and an empty dir', async () => {
    expect(evaluateCni(await gatherCni(hostProbe, layout))[0]).toMatchObject({ status: 'fail', id: 'cni.conf' });
    await writeFile(join(layout.cniConfDir, '10-broken.conflist'), '{"cniVersion": "1.0.0", "name": "x", "plugins": [');
    await writeFile(join(layout.cniConfDir, '20-nobin.conflist'), conflist('nobin', ['bridge', 'bandwidth'], '10.244.8.0/24'));
    // A plugin file that is there but not executable does not count.
    await writeFile(join(dir, 'bin1', 'firewall'), '');
    await writeFile(join(layout.cniConfDir, '30-noexec.conf'), JSON.stringify({ cniVersion: '0.4.0', name: 'fw', type: 'firewall' }));
    const r = evaluateCni(await gatherCni(hostProbe, layout));
    expect(r.map((x) => [x.id, x.status])).toEqual([['cni.conf:10-broken.conflist', 'fail'], ['cni.conf:20-nobin.conflist', 'fail'], ['cni.conf:30-noexec.conf', 'fail']]);
    expect(r[0]!.evidence).toMatch(/10-broken\.conflist is not valid JSON/);
    expect(r[1]!.evidence).toBe(`plugin binary bandwidth not found in ${join(dir, 'bin1')}, ${join(dir, 'bin2')}`);
    expect(r[2]!.evidence).toMatch(/plugin binary firewall not found/);
  });

  it("fails a subnet that collides with a host route, but not with its own bridge's route", () => {
    const routes = parseProcNetRoute([
      'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
      'eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0',
      'eth0\t0000000A\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0',
      'cni-doc0\t00F4A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0',
    ].join('\n'));
    expect(routes).toEqual([{ dest: '0.0.0.0/0', dev: 'eth0' }, { dest: '10.0.0.0/8', dev: 'eth0' }, { dest: '192.168.244.0/24', dev: 'cni-doc0' }]);
    const facts = (subnet: string) => ({ confDir: '/d', files: [{ name: 'a.conflist', text: conflist('n', ['bridge'], subnet) }], binDirs: ['/b'], binaries: { '/b': ['bridge'] }, routes });
    const clash = evaluateCni(facts('10.244.0.0/16'))[0]!;
    expect(clash).toMatchObject({ status: 'fail', evidence: 'network n: subnet 10.244.0.0/16 collides with the host route 10.0.0.0/8 dev eth0' });
    expect(evaluateCni(facts('192.168.244.0/24'))[0]!.status).toBe('ok');
    expect(cidrsOverlap('10.88.1.0/24', '10.88.0.0/16')).toBe(true);
    expect(cidrsOverlap('10.88.1.0/24', '10.88.2.0/24')).toBe(false);
  });
});

describe('disk space on a real tmpfs', () => {
  let dir: string;
  let mounted = false;
  beforeEach(async () => {
    dir = await makeTempDir('ist-doc-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,nr_inodes=64', 'ist-doctor', dir]);
    mounted = true;
  });
  afterEach(async () => {
    if (mounted) execFileSync('umount', [dir]);
    mounted = false;
    await removeTempDir(dir);
  });

  const check = async () => evaluateDisk((await gatherDisks(hostProbe, undefined, { kind: 'other', cniConfDir: '/x', cniBinDirs: [] }, [dir]))[0]!);

  it('passes while empty, fails once full of data', async () => {
    expect((await check()).status).toBe('ok');
    await writeFile(join(dir, 'fill'), Buffer.alloc(1024 * 1024 - 4096 * 2));
    const r = await check();
    expect(r.status).toBe('fail');
    expect(r.evidence).toMatch(new RegExp(`^${dir}: 0\\.0 MiB of 1\\.0 MiB free \\(\\d%\\), inodes \\d+ of 64 free`));
    expect(r.fix).toMatch(/free space on/);
  });

  it('fails when out of inodes with space left', async () => {
    for (let i = 0; i < 62; i++) await writeFile(join(dir, `f${i}`), '').catch(() => undefined);
    const r = await check();
    expect(r.status).toBe('fail');
    expect(r.fix).toMatch(/free inodes on/);
  });
});
