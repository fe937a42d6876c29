// A Kubernetes node's shape, in a Debian 12 guest under qemu (scripts/guest/build-image.sh):
// systemd as PID 1, cgroup v2 only, /run a noexec tmpfs with /var/run linking to it, AppArmor on.
// isulats goes in as a node installs it: the single executable at /usr/local/bin/isulats, started
// by contrib/systemd/isulats.service as shipped, with no --root/--state and a daemon.json that
// only picks the systemd cgroup driver (kubeadm's default); later the npm package the same way.
// Every step runs first against Debian's containerd 1.6 (SystemdCgroup = true) in the same guest,
// the reference. The CRI client in the guest is crictl 1.34 (scripts/build-critest.sh builds it)
// or else the isulats CLI from the npm package under its own prefix: either way the reference
// steps do not depend on the single executable. Per-step output goes to
// ISULATS_GUEST_LOG (default /var/tmp/ist-guest-<time>.log); a failing step prints the console.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { run } from '../rig/proc.js';
import { rigImageLayouts } from '../rig/images.js';
import { findCritest, readGinkgoReport } from '../rig/critest.js';
import { pushCritestImages, writeCritestMirrors } from '../rig/critest-images.js';
import { startRegistry, type Registry } from '../rig/registry.js';
import { kubeletContainer, kubeletPod, type KubeletPod } from '../rig/kubelet-shapes.js';
import { GUEST_FORWARD_IP, GuestVm, guestImage } from './vm.js';
import { guestIt, type BugId } from './known-bugs.js';

const STEP_MS = 300_000;
const BUSYBOX = 'docker.io/library/busybox:latest';
/** The npm package's CLI under its own prefix: the client when there is no crictl. */
const NPM_CLIENT = '/opt/isulats-cli/bin/isulats';
let client = NPM_CLIENT;

/**
 * crictl 1.34 where scripts/build-critest.sh built it beside critest (or ISULATS_CRICTL): a Go
 * binary starts in a blink where node under TCG takes seconds per command.
 */
function findCrictl(): string | undefined {
  if (process.env.ISULATS_CRICTL) return process.env.ISULATS_CRICTL;
  try {
    const critest = findCritest('1.34.0');
    if (!('path' in critest)) return undefined;
    const crictl = critest.path.replace(/critest-([0-9a-f]+)$/, 'crictl-$1');
    return existsSync(crictl) ? crictl : undefined;
  } catch {
    return undefined;
  }
}

interface Peer {
  key: 'containerd' | 'isulats';
  title: string;
  endpoint: string;
  /** Open bugs every pod step of this peer runs into. */
  podBugs: BugId[];
  startBugs: BugId[];
}

const SEA_BUGS: BugId[] = ['sea-noexec-unpack'];
const POD_BUGS: BugId[] = ['sea-noexec-unpack', 'state-symlink', 'systemd-slice-path'];
const ALL_PEERS: Peer[] = [
  { key: 'containerd', title: 'containerd 1.6 (reference, SystemdCgroup)', endpoint: 'unix:///run/containerd/containerd.sock', podBugs: [], startBugs: [] },
  { key: 'isulats', title: 'isulats single executable, shipped unit, defaults', endpoint: 'unix:///var/run/isulats/isulats.sock', podBugs: POD_BUGS, startBugs: SEA_BUGS },
];
/**
 * ISULATS_GUEST_PEERS=isulats leaves the containerd reference out (a full critest run of one
 * runtime, when an hour is all there is); the default runs both.
 */
const PEER_KEYS = (process.env.ISULATS_GUEST_PEERS ?? 'containerd,isulats').split(',').map((k) => k.trim());
const PEERS = ALL_PEERS.filter((p) => PEER_KEYS.includes(p.key));
if (PEERS.length === 0) throw new Error(`ISULATS_GUEST_PEERS=${process.env.ISULATS_GUEST_PEERS}: name containerd, isulats or both`);
const ISULATS = ALL_PEERS[1]!;

/**
 * critest 1.34 in the guest: `focus` (the default, CI) runs two conformance specs (a container
 * start, ExecSync: about a minute a runtime under TCG), `apparmor` the 9 AppArmor specs, `full`
 * the whole suite (benchmarks skipped; an hour or more a runtime under TCG), `off` none. Its images
 * come from a registry on this host's loopback, reached from the guest at 10.0.2.100:5000 through
 * hosts.toml mirrors for registry.k8s.io and gcr.io.
 */
const CRITEST_MODE = process.env.ISULATS_GUEST_CRITEST ?? 'focus';
const CRITEST_FOCUS: Record<string, string> = {
  focus: 'runtime should support (starting container|execSync) \\[Conformance\\]',
  apparmor: 'AppArmor',
  full: '',
};
const GUEST_REGISTRY = `${GUEST_FORWARD_IP}:5000`;
let critestBin: string | undefined;
let registry: Registry | undefined;

let vm: GuestVm;
let work = '';
let share = '';
let packName = '';

/** Runtimes whose start step passed: steps against one that is down fail at once, not per timeout. */
const up = new Set<Peer['key']>();

function needUp(peer: Peer): void {
  if (!up.has(peer.key)) throw new Error(`${peer.key} is not running (its start step failed)`);
}

/** The CLI against `peer`, in the guest; stdout, or a throw naming the command and its stderr. */
async function cri(peer: Peer, args: string, timeoutMs = 180_000): Promise<string> {
  needUp(peer);
  const res = await vm.sh(`${client} -r ${peer.endpoint} -t 60s ${args}`, { timeoutMs });
  if (res.code !== 0) throw new Error(`${peer.key}: ${client} ${args} exited ${res.code}: ${res.stderr.trim()}`);
  return res.stdout;
}

/** kubelet's systemd-driver pod slice: `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid with _>.slice`. */
function systemdPod(app: string): KubeletPod & { slice: string } {
  const pod = kubeletPod({ app, node: 'isulats-guest', logRoot: '/var/log/pods' });
  const slice = `kubepods-burstable-pod${pod.uid.replace(/-/g, '_')}.slice`;
  const cgroupParent = `/kubepods.slice/kubepods-burstable.slice/${slice}`;
  pod.config.linux.cgroupParent = cgroupParent;
  return { ...pod, cgroupParent, slice };
}

/** Makes the pod's slice as kubelet does before RunPodSandbox (a runtime unit under /run: gone at reboot). */
async function makeSlice(slice: string): Promise<void> {
  const units = ['kubepods.slice', 'kubepods-burstable.slice', slice];
  const script = units.map((u) => `printf '[Unit]\\nDescription=%s\\n[Slice]\\n' ${u} >/run/systemd/system/${u}`).join('\n');
  await vm.sh(`mkdir -p /run/systemd/system\n${script}\nsystemctl daemon-reload && systemctl start ${units.join(' ')}`, { check: true });
}

/**
 * The pod and container as kubelet sends them (kubelet-shapes.ts), written as crictl reads a
 * config file: Go's encoding/json over the CRI types, so snake_case names and enums and int64s as
 * numbers (camelCase fields would be dropped silently). The isulats CLI reads this form too.
 */
function podFileConfig(pod: KubeletPod): Record<string, unknown> {
  const c = pod.config;
  return {
    metadata: c.metadata,
    hostname: c.hostname,
    log_directory: c.logDirectory,
    dns_config: c.dnsConfig,
    labels: c.labels,
    annotations: c.annotations,
    linux: {
      cgroup_parent: pod.cgroupParent,
      security_context: { namespace_options: { network: 0, pid: 1, ipc: 0 }, seccomp: { profile_type: 0 } },
      resources: { cpu_period: 100000, cpu_quota: 50000, cpu_shares: 102, memory_limit_in_bytes: 128 * 1024 * 1024 },
    },
  };
}

function containerFileConfig(pod: KubeletPod, name: string, command: string[]): Record<string, unknown> {
  const c = kubeletContainer(pod, { name, image: BUSYBOX, command });
  return {
    metadata: c.metadata,
    image: { image: BUSYBOX },
    command,
    envs: c.envs,
    labels: c.labels,
    annotations: c.annotations,
    log_path: c.logPath,
    linux: {
      resources: { cpu_period: 100000, cpu_quota: 20000, cpu_shares: 204, memory_limit_in_bytes: 64 * 1024 * 1024, oom_score_adj: 999 },
      security_context: {
        namespace_options: { network: 0, pid: 1, ipc: 0 },
        seccomp: { profile_type: 0 },
        masked_paths: c.linux.securityContext.maskedPaths,
        readonly_paths: c.linux.securityContext.readonlyPaths,
        run_as_user: { value: 0 },
      },
    },
  };
}

interface Started {
  pod: KubeletPod & { slice: string };
  podId: string;
  ctrId: string;
}

async function startPod(peer: Peer, app: string): Promise<Started> {
  const pod = systemdPod(app);
  await makeSlice(pod.slice);
  const dir = join(share, 'cfg');
  await mkdir(dir, { recursive: true });
  const podFile = `${peer.key}-${app}-pod.json`;
  const ctrFile = `${peer.key}-${app}-ctr.json`;
  await writeFile(join(dir, podFile), JSON.stringify(podFileConfig(pod)));
  await writeFile(join(dir, ctrFile), JSON.stringify(containerFileConfig(pod, 'main', ['sleep', '3600'])));
  const podId = (await cri(peer, `runp /mnt/host/cfg/${podFile}`)).trim();
  const ctrId = (await cri(peer, `create ${podId} /mnt/host/cfg/${ctrFile} /mnt/host/cfg/${podFile}`)).trim();
  await cri(peer, `start ${ctrId}`);
  return { pod, podId, ctrId };
}

async function inspectJson(peer: Peer, verb: 'inspect' | 'inspectp', id: string): Promise<Record<string, any>> {
  return JSON.parse(await cri(peer, `${verb} -o json ${id}`));
}

/** The cgroup (v2 path under /sys/fs/cgroup) of the container's init process. */
async function containerCgroup(peer: Peer, ctrId: string): Promise<string> {
  const info = await inspectJson(peer, 'inspect', ctrId);
  const pid = Number(info.info?.pid);
  expect(pid, 'inspect info.pid').toBeGreaterThan(0);
  const line = (await vm.sh(`cat /proc/${pid}/cgroup`, { check: true })).stdout.trim();
  expect(line).toMatch(/^0::\//);
  return line.slice(3);
}

function daemonJson(): Record<string, unknown> {
  return { 'cgroup-manager': 'systemd', ...(critestBin ? { 'registry-config-dir': '/etc/isulats/certs.d' } : {}) };
}

function findCritestOrNone(): string | undefined {
  try {
    const found = findCritest('1.34.0');
    return 'path' in found ? found.path : undefined;
  } catch {
    return undefined;
  }
}

/** critest 1.34 against `peer` in the guest; its report and log land in the share. */
async function runCritest(peer: Peer): Promise<void> {
  needUp(peer);
  const report = `critest-${peer.key}.json`;
  const pattern = CRITEST_FOCUS[CRITEST_MODE];
  if (pattern === undefined) throw new Error(`ISULATS_GUEST_CRITEST=${CRITEST_MODE}: use focus, apparmor, full or off`);
  const focus = pattern === '' ? '' : ` --ginkgo.focus=${shellWord(pattern)}`;
  const minutes = CRITEST_MODE === 'full' ? 90 : 15;
  await vm.sh(
    `cd /var/tmp && timeout ${minutes + 2}m ${critestBin} --runtime-endpoint=${peer.endpoint} --image-endpoint=${peer.endpoint}` +
      ` --ginkgo.skip=benchmark --ginkgo.no-color --ginkgo.timeout=${minutes}m --ginkgo.json-report=/mnt/host/${report}${focus}` +
      ` >/mnt/host/critest-${peer.key}.log 2>&1; echo critest exit $?`,
    { timeoutMs: (minutes + 5) * 60_000 },
  );
  const results = await readGinkgoReport(join(share, report));
  vm.log(`critest ${peer.key}: ${results.passed.length} passed, ${results.failed.length} failed of ${results.specs.length}`);
  for (const spec of results.failed) vm.log(`  failed: ${spec.name}: ${spec.failure ?? spec.state}`);
  expect(results.specs.length).toBeGreaterThan(0);
  expect(results.failed.map((f) => f.name)).toEqual([]);
}

function shellWord(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

async function removeAll(peer: Peer): Promise<void> {
  if (!up.has(peer.key)) return;
  await vm.sh(`${client} -r ${peer.endpoint} -t 60s rmp -a -f`, { timeoutMs: 180_000 });
}

beforeAll(async () => {
  // /var/tmp: the overlay is gigabytes at worst, and /tmp is shared with other runs' sweeps.
  work = await mkdtemp('/var/tmp/ist-guest-');
  share = join(work, 'share');
  await mkdir(join(share, 'images'), { recursive: true });
  const logFile = process.env.ISULATS_GUEST_LOG ?? `/var/tmp/ist-guest-${new Date().toISOString().replace(/[:.]/g, '-')}.log`;
  process.stdout.write(`guest suite log: ${logFile}\n`);
  // The image (cached by recipe hash; minutes on a fresh machine).
  const built = await run('bash', ['scripts/guest/build-image.sh'], { timeoutMs: 1_200_000 });
  const imageDir = built.stdout.trim().split('\n').pop()!;
  // The two shipped forms, built from this checkout's build (npm run build).
  await run('node', ['scripts/build-sea.mjs', '--out', join(share, 'isulats')], { timeoutMs: 300_000 });
  packName = (await run('npm', ['pack', '--silent', '--pack-destination', share], { timeoutMs: 300_000 })).stdout.trim().split('\n').pop()!;
  await copyFile('contrib/systemd/isulats.service', join(share, 'isulats.service'));
  // Debian 12's nodejs is 18; the npm package needs 20, so the node goes in with this host's.
  await copyFile(process.execPath, join(share, 'node'));
  const npmDir = resolve(dirname(realpathSync(join(dirname(process.execPath), 'npm'))), '..');
  // One tarball: 9p under TCG is slow per file, and npm is thousands of them.
  await run('tar', ['-C', dirname(npmDir), '-cf', join(share, 'npm.tar'), basename(npmDir)]);
  const layouts = await rigImageLayouts();
  await run('skopeo', ['--insecure-policy', 'copy', '--quiet', `oci:${layouts.busybox}:latest`, `docker-archive:${join(share, 'images/busybox.tar')}:${BUSYBOX}`]);
  await run('skopeo', ['--insecure-policy', 'copy', '--quiet', `oci:${layouts.pause}:3.9`, `docker-archive:${join(share, 'images/pause.tar')}:registry.k8s.io/pause:3.9`]);
  const crictl = findCrictl();
  if (crictl) await copyFile(crictl, join(share, 'crictl'));
  const forwards: Array<{ guestPort: number; hostPort: number }> = [];
  const critest = CRITEST_MODE === 'off' ? undefined : findCritestOrNone();
  if (critest) {
    registry = await startRegistry();
    await pushCritestImages(registry.host);
    await writeCritestMirrors(join(share, 'certs.d'), GUEST_REGISTRY);
    await copyFile(critest, join(share, 'critest'));
    critestBin = '/usr/local/bin/critest';
    forwards.push({ guestPort: 5000, hostPort: Number(registry.host.split(':')[1]) });
  }
  vm = new GuestVm(guestImage(imageDir), work, share, logFile);
  await vm.boot({ forwards });
  if (critest) {
    // The mirrors for both runtimes; containerd 1.6 reads them through its registry config_path.
    await vm.sh(
      [
        'set -e',
        'install -m 755 /mnt/host/critest /usr/local/bin/critest',
        'mkdir -p /etc/isulats /etc/containerd && cp -r /mnt/host/certs.d /etc/isulats/certs.d && cp -r /mnt/host/certs.d /etc/containerd/certs.d',
        `printf '%s\\n' '[plugins."io.containerd.grpc.v1.cri".registry]' '  config_path = "/etc/containerd/certs.d"' >>/etc/containerd/config.toml`,
      ].join('\n'),
      { check: true },
    );
  }
  // node, npm, and the CRI client: crictl, or the npm package under its own prefix.
  await vm.sh(
    [
      'set -e',
      // sudo (critest loads its AppArmor profiles through it) warns on stderr without this.
      'grep -q isulats-guest /etc/hosts || echo "127.0.1.1 isulats-guest" >>/etc/hosts',
      'install -m 755 /mnt/host/node /usr/local/bin/node',
      'mkdir -p /usr/local/lib/node_modules && rm -rf /usr/local/lib/node_modules/npm && tar -C /usr/local/lib/node_modules -xf /mnt/host/npm.tar',
      'ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm',
      crictl
        ? 'install -m 755 /mnt/host/crictl /usr/local/bin/crictl'
        : `npm install -g --offline --no-audit --no-fund --no-update-notifier --prefix /opt/isulats-cli /mnt/host/${packName}`,
    ].join('\n'),
    { check: true, timeoutMs: 600_000 },
  );
  client = crictl ? '/usr/local/bin/crictl' : NPM_CLIENT;
}, 1_800_000);

afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail' && vm) {
    process.stdout.write(`--- guest console (last lines) ---\n${vm.consoleTail(60)}\n--- log: ${vm.logFile} ---\n`);
  }
});

afterAll(async () => {
  await registry?.stop();
  if (vm) {
    await vm.sh('journalctl -b --no-pager -u isulats -u containerd | tail -n 200', { timeoutMs: 60_000 }).catch(() => undefined);
    await vm.stop();
  }
  if (work) await rm(work, { recursive: true, force: true });
}, 180_000);

describe('the guest is node-shaped', () => {
  it('runs systemd as PID 1 on cgroup v2 only, /run noexec with /var/run linking to it, AppArmor on', async () => {
    const out = (
      await vm.sh(
        [
          'cat /proc/1/comm',
          'stat -fc %T /sys/fs/cgroup',
          'findmnt -no OPTIONS /run',
          'readlink /var/run',
          'cat /sys/module/apparmor/parameters/enabled',
          'grep -c cgroup /proc/mounts',
        ].join('\n'),
        { check: true },
      )
    ).stdout.trim().split('\n');
    expect(out[0]).toBe('systemd');
    expect(out[1]).toBe('cgroup2fs');
    expect(out[2]!.split(',')).toEqual(expect.arrayContaining(['nosuid', 'nodev', 'noexec']));
    expect(out[3]).toBe('/run');
    expect(out[4]).toBe('Y');
    expect(out[5]).toBe('1');
  }, STEP_MS);
});

describe.each(PEERS)('$title', (peer) => {
  let first: Started | undefined;

  guestIt('starts as a node starts it', peer.startBugs, async () => {
    if (peer.key === 'containerd') {
      await vm.sh('systemctl start containerd', { check: true, timeoutMs: 180_000 });
      await vm.sh('ctr -n k8s.io images import /mnt/host/images/busybox.tar && ctr -n k8s.io images import /mnt/host/images/pause.tar', {
        check: true,
        timeoutMs: 300_000,
      });
      up.add(peer.key);
    } else {
      await vm.sh(
        [
          'set -e',
          'install -m 755 /mnt/host/isulats /usr/local/bin/isulats',
          'install -m 644 /mnt/host/isulats.service /etc/systemd/system/isulats.service',
          // The only non-defaults: kubeadm's cgroup driver, and critest's image mirrors when it runs.
          `mkdir -p /etc/isulats && printf '%s\\n' '${JSON.stringify(daemonJson())}' >/etc/isulats/daemon.json`,
          'systemctl daemon-reload',
          'systemctl enable isulats',
          'timeout 240 systemctl start isulats',
        ].join('\n'),
        { timeoutMs: 300_000 },
      );
      const state = (await vm.sh('systemctl is-active isulats; test -S /var/run/isulats/isulats.sock && echo socket')).stdout;
      // A unit that never got ready restarts for ever (90 s a try): stop it, the log has the why.
      if (!state.includes('socket')) await vm.sh('journalctl -u isulats --no-pager | tail -n 30; timeout 120 systemctl stop isulats', { timeoutMs: 180_000 });
      expect(state).toContain('socket');
      expect(state.split('\n')[0]).toBe('active');
      up.add(peer.key);
      // Through the installed isulats itself: crictl has no load.
      await vm.sh(`isulats -r ${peer.endpoint} -t 120s load -i /mnt/host/images/busybox.tar`, { check: true, timeoutMs: 300_000 });
    }
    expect(await cri(peer, 'images')).toContain('busybox');
  }, STEP_MS);

  guestIt('runs a kubelet-shaped pod and container in the systemd slice kubelet names', peer.podBugs, async () => {
    first = await startPod(peer, 'web');
    const pod = await inspectJson(peer, 'inspectp', first.podId);
    expect(pod.status.state).toBe('SANDBOX_READY');
    const cgroup = await containerCgroup(peer, first.ctrId);
    expect(cgroup.startsWith(`${first.pod.cgroupParent}/`), cgroup).toBe(true);
    expect(cgroup).toMatch(/\.scope$/);
    const exec = await cri(peer, `exec -s ${first.ctrId} echo hello-from-guest`);
    expect(exec.trim()).toBe('hello-from-guest');
  }, STEP_MS);

  guestIt('reports stats that match the cgroup files', [...peer.podBugs, ...(peer.key === 'isulats' ? (['systemd-stats'] as BugId[]) : [])], async () => {
    expect(first).toBeDefined();
    const cgroup = await containerCgroup(peer, first!.ctrId);
    await cri(peer, `exec -s ${first!.ctrId} sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'`);
    const files = (await vm.sh(`cd /sys/fs/cgroup${cgroup} && awk '/^usage_usec/ {print $2}' cpu.stat && cat memory.current`, { check: true })).stdout.trim().split('\n');
    const stats = JSON.parse(await cri(peer, `stats -o json --id ${first!.ctrId}`));
    const s = stats.stats[0];
    const cpuNs = BigInt(s.cpu.usageCoreNanoSeconds.value);
    expect(cpuNs >= BigInt(files[0]!) * 1000n, `cpu ${cpuNs} vs usage_usec ${files[0]}`).toBe(true);
    const ws = Number(s.memory.workingSetBytes.value);
    expect(ws).toBeGreaterThan(0);
    expect(ws).toBeLessThanOrEqual(Number(files[1]) * 2);
    if (peer.key === 'isulats') {
      // PSI (KubeletPSI, CRI 1.34) from the scope's *.pressure files; containerd 1.6 reports none.
      const some = (await vm.sh(`awk '/^some/ {print $5}' /sys/fs/cgroup${cgroup}/cpu.pressure`, { check: true })).stdout.trim();
      expect(some, 'cpu.pressure').toMatch(/^total=\d+$/);
      for (const r of ['cpu', 'memory', 'io']) expect(s[r]?.psi?.Some ?? s[r]?.psi?.some, `${r} psi in ${JSON.stringify(s[r])}`).toBeDefined();
    }
  }, STEP_MS);

  guestIt('updates resources into the container cgroup', peer.podBugs, async () => {
    expect(first).toBeDefined();
    await cri(peer, `update --memory ${200 * 1024 * 1024} ${first!.ctrId}`);
    const cgroup = await containerCgroup(peer, first!.ctrId);
    const max = (await vm.sh(`cat /sys/fs/cgroup${cgroup}/memory.max`, { check: true })).stdout.trim();
    expect(max).toBe(String(200 * 1024 * 1024));
    // systemd re-applies its units' properties at every daemon-reload: what runc wrote behind its
    // back is lost. The container has a memory limit and no swap limit, so no swap (0). runc 1.1
    // never tells systemd a MemorySwapMax of 0, and containerd 1.6 reads `max` here afterwards;
    // isulats passes it as the scope's property.
    await vm.sh('systemctl daemon-reload', { check: true });
    const after = (await vm.sh(`cat /sys/fs/cgroup${cgroup}/memory.max /sys/fs/cgroup${cgroup}/memory.swap.max`, { check: true })).stdout.trim().split('\n');
    vm.log(`${peer.key}: after daemon-reload memory.max ${after[0]}, memory.swap.max ${after[1]}`);
    expect(after[0]).toBe(String(200 * 1024 * 1024));
    if (peer.key === 'isulats') expect(after[1]).toBe('0');
  }, STEP_MS);

  guestIt('stops and removes the pod, and its scopes leave the slice', peer.podBugs, async () => {
    expect(first).toBeDefined();
    await cri(peer, `stopp ${first!.podId}`);
    await cri(peer, `rmp ${first!.podId}`);
    const left = (await vm.sh(`find /sys/fs/cgroup${first!.pod.cgroupParent} -mindepth 1 -type d 2>/dev/null`)).stdout.trim();
    expect(left).toBe('');
    expect(await cri(peer, 'pods -q')).not.toContain(first!.podId);
  }, STEP_MS);

  guestIt('reports OOMKilled for a container over its memory limit, whichever of its processes the kernel kills', peer.podBugs, async () => {
    // Under the systemd driver the scope is removed as soon as it is empty: conmon (2.1.6) often
    // reads its memory.events too late. Two shapes: the init itself is the victim (critest's OOM
    // spec: exit 137), and a child is, its shell then exiting with a code of its own.
    const pod = systemdPod('oom');
    await makeSlice(pod.slice);
    const dir = join(share, 'cfg');
    await mkdir(dir, { recursive: true });
    const podFile = `${peer.key}-oom-pod.json`;
    await writeFile(join(dir, podFile), JSON.stringify(podFileConfig(pod)));
    const podId = (await cri(peer, `runp /mnt/host/cfg/${podFile}`)).trim();
    const cases = [
      { name: 'init-victim', command: ['dd', 'if=/dev/zero', 'of=/dev/null', 'bs=20M'], exitCode: 137 },
      { name: 'child-victim', command: ['sh', '-c', 'dd if=/dev/zero of=/dev/null bs=20M; exit 3'], exitCode: 3 },
    ];
    const seen: string[] = [];
    for (const c of cases) {
      const config = containerFileConfig(pod, c.name, c.command) as { linux: { resources: Record<string, number> } };
      config.linux.resources = { memory_limit_in_bytes: 15 * 1024 * 1024, memory_swap_limit_in_bytes: 15 * 1024 * 1024 };
      const ctrFile = `${peer.key}-oom-${c.name}.json`;
      await writeFile(join(dir, ctrFile), JSON.stringify(config));
      const ctrId = (await cri(peer, `create ${podId} /mnt/host/cfg/${ctrFile} /mnt/host/cfg/${podFile}`)).trim();
      await cri(peer, `start ${ctrId}`);
      let status: Record<string, any> = {};
      for (let i = 0; i < 60; i++) {
        status = (await inspectJson(peer, 'inspect', ctrId)).status;
        if (status.state === 'CONTAINER_EXITED') break;
        await new Promise((r) => setTimeout(r, 2000));
      }
      seen.push(`${c.name}: ${status.state} ${status.reason} ${status.exitCode}`);
    }
    await cri(peer, `rmp -f ${podId}`);
    // containerd 1.6 loses the same race now and then (its shim reads the scope's memory.events
    // after systemd removed it; containerd's own CI skips critest's OOM spec under systemd,
    // containerd#12819): the reference's answer is shown, not held to.
    if (peer.key === 'containerd') console.log(`guest OOM reference (containerd 1.6): ${seen.join('; ')}`);
    else expect(seen).toEqual(cases.map((c) => `${c.name}: CONTAINER_EXITED OOMKilled ${c.exitCode}`));
  }, STEP_MS);

  if (CRITEST_MODE !== 'off') {
    guestIt(`passes critest 1.34 (${CRITEST_MODE === 'full' ? 'whole suite' : `${CRITEST_MODE} set`}) with the systemd driver`, peer.podBugs, async () => {
      if (!critestBin) {
        console.log('guest critest skipped: critest 1.34 is not built (scripts/build-critest.sh)');
        if (peer.podBugs.length > 0) throw new Error('no critest');
        return;
      }
      await runCritest(peer);
    }, (CRITEST_MODE === 'full' ? 100 : 25) * 60_000);
  }

  if (peer.key === 'containerd') {
    it('stops (the reference is done)', async () => {
      await removeAll(peer);
      await vm.sh('timeout 120 systemctl stop containerd', { check: true, timeoutMs: 180_000 });
    }, STEP_MS);
  }

  if (peer.key === 'isulats') {
    guestIt('runs a container with isulats run --rm: embedded when no runtime answers, else through the daemon', POD_BUGS, async () => {
      // The embedded engine, with the node's runtime stopped as an operator debugging it has it.
      await vm.sh('timeout 120 systemctl stop isulats', { check: true, timeoutMs: 180_000 });
      try {
        const res = await vm.sh(`isulats run --rm ${BUSYBOX} echo embedded-ok`, { timeoutMs: 240_000 });
        expect(res.stdout.trim(), res.stderr).toBe('embedded-ok');
        expect(res.stderr).toMatch(/using the embedded engine/);
      } finally {
        await vm.sh('timeout 240 systemctl start isulats', { check: true, timeoutMs: 300_000 });
      }
      // The daemon's socket answers, so the same command goes there. -t as every client call of
      // this suite: under TCG a pod starts some 20 times slower than on a node.
      const res = await vm.sh(`isulats -t 60s run --rm ${BUSYBOX} echo daemon-ok`, { timeoutMs: 240_000 });
      expect(res.stdout.trim(), res.stderr).toBe('daemon-ok');
    }, 2 * STEP_MS);

    let kept: Started | undefined;
    guestIt('keeps containers running across a daemon restart', POD_BUGS, async () => {
      kept = await startPod(peer, 'kept');
      const before = await inspectJson(peer, 'inspect', kept.ctrId);
      await vm.sh('timeout 240 systemctl restart isulats', { check: true, timeoutMs: 300_000 });
      const after = await inspectJson(peer, 'inspect', kept.ctrId);
      expect(after.status.state).toBe('CONTAINER_RUNNING');
      expect(after.info.pid).toBe(before.info.pid);
      expect((await cri(peer, `exec -s ${kept.ctrId} echo still-here`)).trim()).toBe('still-here');
    }, STEP_MS);

    guestIt('after a real reboot: pod NotReady, container exited, nothing lost, new pods run', POD_BUGS, async () => {
      expect(kept).toBeDefined();
      const before = (await vm.sh('find /var/lib/isulats -maxdepth 3 | sort', { check: true })).stdout;
      await vm.reboot();
      await vm.sh('timeout 240 sh -c "until test -S /var/run/isulats/isulats.sock; do sleep 1; done"', { check: true, timeoutMs: 300_000 });
      const pod = await inspectJson(peer, 'inspectp', kept!.podId);
      expect(pod.status.state).toBe('SANDBOX_NOTREADY');
      const ctr = await inspectJson(peer, 'inspect', kept!.ctrId);
      expect(ctr.status.state).toBe('CONTAINER_EXITED');
      expect(await cri(peer, 'images')).toContain('busybox');
      const after = (await vm.sh('find /var/lib/isulats -maxdepth 3 | sort', { check: true })).stdout;
      const lost = before.split('\n').filter((p) => p && !after.includes(`${p}\n`));
      expect(lost).toEqual([]);
      const fresh = await startPod(peer, 'after-reboot');
      expect((await cri(peer, `exec -s ${fresh.ctrId} echo rebooted`)).trim()).toBe('rebooted');
      await removeAll(peer);
    }, 900_000);
  }
});

// Checkpoint/restore with CRIU (issue 32): the guest's stock kernel passes `criu check`. A counter
// is checkpointed as kubelet's checkpoint API asks (CheckpointContainer to a file under
// /var/lib/kubelet/checkpoints; the container keeps running), its pod removed, and the archive
// restored as CRI-O restores one: CreateContainer in a new pod whose image is the archive's path,
// then StartContainer. The restored counter goes on from the checkpointed value, its log (the
// archived lines, then the new ones) has no gap and no restart at 1, and a file the container
// wrote before the checkpoint is there. containerd 1.6, the reference elsewhere, has no
// CheckpointContainer (Unimplemented): the step checks that and compares with nothing else.
describe.runIf(PEERS.includes(ISULATS))('checkpoint and restore with CRIU', () => {
  const peer = ISULATS;
  const COUNTER = ['sh', '-c', 'echo kept >/kept; i=0; while :; do i=$((i+1)); echo $i; sleep 1; done'];
  /** A CRI call that may take minutes (CRIU's dump and restore under TCG on a loaded host). */
  const slowCri = async (args: string) => {
    const res = await vm.sh(`${client} -r ${peer.endpoint} -t 540s ${args}`, { timeoutMs: 600_000 });
    if (res.code !== 0) throw new Error(`${client} ${args} exited ${res.code}: ${res.stderr.trim()}`);
    return res.stdout;
  };
  /** The numbers a counter's CRI log holds, in order. */
  const logNumbers = async (path: string) =>
    (await vm.sh(`cat ${path}`, { check: true })).stdout.trim().split('\n').map((l) => Number(l.split(' ').slice(3).join(' ')));

  it('has no reference: containerd 1.6 answers CheckpointContainer Unimplemented', async () => {
    await vm.sh('systemctl start containerd', { check: true, timeoutMs: 180_000 });
    const res = await vm.sh(`${client} -r unix:///run/containerd/containerd.sock -t 60s checkpoint --export /var/tmp/none.tar 0123456789ab`, { timeoutMs: 180_000 });
    await vm.sh('timeout 120 systemctl stop containerd', { check: true, timeoutMs: 180_000 });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/Unimplemented|not implemented/);
  }, STEP_MS);

  it('checkpoints a running counter, restores it in a new pod from the archive, and it counts on', async () => {
    needUp(peer);
    expect((await vm.sh('criu check', { check: true })).stdout).toContain('Looks good');
    const dir = join(share, 'cfg');
    await mkdir(dir, { recursive: true });
    // The counter, in a kubelet-shaped pod.
    const pod = systemdPod('counter');
    await makeSlice(pod.slice);
    await writeFile(join(dir, 'ckpt-pod.json'), JSON.stringify(podFileConfig(pod)));
    await writeFile(join(dir, 'ckpt-ctr.json'), JSON.stringify(containerFileConfig(pod, 'counter', COUNTER)));
    const podId = (await cri(peer, 'runp /mnt/host/cfg/ckpt-pod.json')).trim();
    const ctrId = (await cri(peer, `create ${podId} /mnt/host/cfg/ckpt-ctr.json /mnt/host/cfg/ckpt-pod.json`)).trim();
    await cri(peer, `start ${ctrId}`);
    const logPath = (await inspectJson(peer, 'inspect', ctrId)).status.logPath as string;
    await vm.sh(`timeout 120 sh -c 'until [ $(wc -l <${logPath}) -ge 5 ]; do sleep 1; done'`, { check: true, timeoutMs: 180_000 });

    // Checkpointed where kubelet puts them; it keeps running.
    const archive = '/var/lib/kubelet/checkpoints/checkpoint-counter.tar';
    await vm.sh('mkdir -p /var/lib/kubelet/checkpoints', { check: true });
    await slowCri(`checkpoint --export ${archive} ${ctrId}`);
    const listing = (await vm.sh(`stat -c %a ${archive} && tar tf ${archive}`, { check: true })).stdout.trim().split('\n');
    expect(listing[0]).toBe('600');
    for (const name of ['checkpoint/', 'checkpoint/inventory.img', 'config.dump', 'spec.dump', 'status.dump', 'rootfs-diff.tar', 'container.log', 'dump.log']) expect(listing).toContain(name);
    const config = JSON.parse((await vm.sh(`tar xOf ${archive} config.dump`, { check: true })).stdout);
    expect(config).toMatchObject({ id: ctrId, rootfsImageName: BUSYBOX, restored: false });
    const spec = JSON.parse((await vm.sh(`tar xOf ${archive} spec.dump`, { check: true })).stdout);
    expect(spec.annotations).toMatchObject({ 'io.kubernetes.cri.container-name': 'counter', 'io.kubernetes.cri.sandbox-name': pod.config.metadata.name });
    expect((await vm.sh(`tar xOf ${archive} rootfs-diff.tar | tar t`, { check: true })).stdout.split('\n')).toContain('kept');
    const dumped = (await vm.sh(`tar xOf ${archive} container.log`, { check: true })).stdout.trim().split('\n').map((l) => Number(l.split(' ').slice(3).join(' ')));
    const at = dumped[dumped.length - 1]!;
    expect(dumped).toEqual(Array.from({ length: at }, (_, i) => i + 1));
    await vm.sh('sleep 3');
    expect((await inspectJson(peer, 'inspect', ctrId)).status.state).toBe('CONTAINER_RUNNING');
    expect((await logNumbers(logPath)).length).toBeGreaterThan(at);
    await cri(peer, `stopp ${podId}`);
    await cri(peer, `rmp ${podId}`);

    // Restored in a new pod: the image is the archive's path, the rest as kubelet sends it.
    const next = systemdPod('counter-restored');
    await makeSlice(next.slice);
    const restoreConfig: Record<string, unknown> = { ...containerFileConfig(next, 'counter', COUNTER), image: { image: archive } };
    delete restoreConfig.command;
    await writeFile(join(dir, 'ckpt-pod2.json'), JSON.stringify(podFileConfig(next)));
    await writeFile(join(dir, 'ckpt-restore.json'), JSON.stringify(restoreConfig));
    const podId2 = (await cri(peer, 'runp /mnt/host/cfg/ckpt-pod2.json')).trim();
    const restored = (await slowCri(`create ${podId2} /mnt/host/cfg/ckpt-restore.json /mnt/host/cfg/ckpt-pod2.json`)).trim();
    await slowCri(`start ${restored}`).catch(async (error: unknown) => {
      // CRIU's own account of a failed restore.
      await vm.sh(`tail -n 30 /var/lib/isulats/containers/${restored}/bundle/restore.log`);
      throw error;
    });
    const status = (await inspectJson(peer, 'inspect', restored)).status;
    expect(status.state).toBe('CONTAINER_RUNNING');
    expect(status.image.image).toBe(BUSYBOX);
    await vm.sh(`timeout 120 sh -c 'until [ $(wc -l <${status.logPath}) -ge ${at + 4} ]; do sleep 1; done'`, { check: true, timeoutMs: 180_000 });
    const numbers = await logNumbers(status.logPath);
    // 1..at from the archive, then at+1, at+2, ... from the restored process: never 1 again.
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(numbers.length).toBeGreaterThanOrEqual(at + 4);
    expect((await cri(peer, `exec -s ${restored} cat /kept`)).trim()).toBe('kept');
    // In its own scope in the new pod's slice (runc 1.1 would leave CRIU to put it back in the old one).
    const cgroup = await containerCgroup(peer, restored);
    expect(cgroup).toBe(`${next.cgroupParent}/isulats-${restored}.scope`);
    await cri(peer, `stopp ${podId2}`);
    await cri(peer, `rmp ${podId2}`);
    await vm.sh(`rm -f ${archive}`);
  }, 1_800_000);
});

describe.runIf(PEERS.includes(ISULATS))('the npm package as a node installs it', () => {
  const peer = ISULATS;
  guestIt('replaces the single executable, starts through the shipped unit and serves a pod', ['state-symlink', 'systemd-slice-path'], async () => {
    await vm.sh(
      ['set -e', 'timeout 120 systemctl stop isulats || true', 'rm -f /usr/local/bin/isulats', `npm install -g --offline --no-audit --no-fund --no-update-notifier /mnt/host/${packName}`].join('\n'),
      { check: true, timeoutMs: 600_000 },
    );
    expect((await vm.sh('readlink -f /usr/local/bin/isulats', { check: true })).stdout).toContain('/usr/local/lib/node_modules/isulats/');
    up.delete(peer.key);
    await vm.sh('timeout 240 systemctl start isulats && test -S /var/run/isulats/isulats.sock', { check: true, timeoutMs: 300_000 });
    up.add(peer.key);
    // The image again: the single executable's daemon may never have loaded it.
    await vm.sh(`isulats -r ${peer.endpoint} -t 120s load -i /mnt/host/images/busybox.tar`, { check: true, timeoutMs: 300_000 });
    const started = await startPod(peer, 'npm');
    expect((await cri(peer, `exec -s ${started.ctrId} echo from-npm`)).trim()).toBe('from-npm');
    await removeAll(peer);
  }, 900_000);
});
