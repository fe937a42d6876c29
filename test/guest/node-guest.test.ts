// A Kubernetes node's shape, in a Debian 12 guest under qemu (scripts/guest/build-image.sh):
// systemd as PID 1, cgroup v2 only, /run a noexec tmpfs with /var/run linking to it, AppArmor on.
// isulats goes in as a node installs it: the single executable at /usr/local/bin/isulats, started
// by contrib/systemd/isulats.service as shipped, with no --root/--state and a daemon.json that
// only picks the systemd cgroup driver (kubeadm's default); later the npm package the same way.
// Every step runs first against Debian's containerd 1.6 (SystemdCgroup = true) in the same guest,
// the reference. The CRI client in the guest is the isulats CLI from the npm package (own prefix),
// so the reference steps do not depend on the single executable. Per-step output goes to
// ISULATS_GUEST_LOG (default /var/tmp/ist-guest-<time>.log); a failing step prints the console.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { run } from '../rig/proc.js';
import { rigImageLayouts } from '../rig/images.js';
import { kubeletContainer, kubeletPod, type KubeletPod } from '../rig/kubelet-shapes.js';
import { GuestVm, guestImage } from './vm.js';
import { guestIt, type BugId } from './known-bugs.js';

const STEP_MS = 300_000;
const BUSYBOX = 'docker.io/library/busybox:latest';
const CLIENT = '/opt/isulats-cli/bin/isulats';

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
const PEERS: Peer[] = [
  { key: 'containerd', title: 'containerd 1.6 (reference, SystemdCgroup)', endpoint: 'unix:///run/containerd/containerd.sock', podBugs: [], startBugs: [] },
  { key: 'isulats', title: 'isulats single executable, shipped unit, defaults', endpoint: 'unix:///var/run/isulats/isulats.sock', podBugs: POD_BUGS, startBugs: SEA_BUGS },
];

let vm: GuestVm;
let work = '';
let share = '';
let packName = '';

/** The CLI against `peer`, in the guest; stdout, or a throw naming the command and its stderr. */
async function cri(peer: Peer, args: string, timeoutMs = 180_000): Promise<string> {
  const res = await vm.sh(`${CLIENT} -r ${peer.endpoint} -t 60s ${args}`, { timeoutMs });
  if (res.code !== 0) throw new Error(`${peer.key}: isulats ${args} exited ${res.code}: ${res.stderr.trim()}`);
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
  await writeFile(join(dir, podFile), JSON.stringify(pod.config));
  await writeFile(join(dir, ctrFile), JSON.stringify(kubeletContainer(pod, { name: 'main', image: BUSYBOX, command: ['sleep', '3600'] })));
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

async function removeAll(peer: Peer): Promise<void> {
  await vm.sh(`${CLIENT} -r ${peer.endpoint} -t 60s rmp -a -f`, { timeoutMs: 180_000 });
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
  vm = new GuestVm(guestImage(imageDir), work, share, logFile);
  await vm.boot();
  // node, npm, and the CRI client (the npm package under its own prefix).
  await vm.sh(
    [
      'set -e',
      'install -m 755 /mnt/host/node /usr/local/bin/node',
      'mkdir -p /usr/local/lib/node_modules && rm -rf /usr/local/lib/node_modules/npm && tar -C /usr/local/lib/node_modules -xf /mnt/host/npm.tar',
      'ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm',
      `npm install -g --offline --no-audit --no-fund --prefix /opt/isulats-cli /mnt/host/${packName}`,
    ].join('\n'),
    { check: true, timeoutMs: 600_000 },
  );
}, 1_800_000);

afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail' && vm) {
    process.stdout.write(`--- guest console (last lines) ---\n${vm.consoleTail(60)}\n--- log: ${vm.logFile} ---\n`);
  }
});

afterAll(async () => {
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
    } else {
      await vm.sh(
        [
          'set -e',
          'install -m 755 /mnt/host/isulats /usr/local/bin/isulats',
          'install -m 644 /mnt/host/isulats.service /etc/systemd/system/isulats.service',
          // The only non-default: kubeadm's cgroup driver.
          `mkdir -p /etc/isulats && printf '%s\\n' '{"cgroup-manager": "systemd"}' >/etc/isulats/daemon.json`,
          'systemctl daemon-reload',
          'systemctl enable isulats',
          'timeout 240 systemctl start isulats',
        ].join('\n'),
        { timeoutMs: 300_000 },
      );
      const state = (await vm.sh('systemctl is-active isulats; test -S /var/run/isulats/isulats.sock && echo socket')).stdout;
      expect(state).toContain('socket');
      expect(state.split('\n')[0]).toBe('active');
      await cri(peer, 'load -i /mnt/host/images/busybox.tar');
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
  }, STEP_MS);

  guestIt('updates resources into the container cgroup', peer.podBugs, async () => {
    expect(first).toBeDefined();
    await cri(peer, `update --memory 200m ${first!.ctrId}`);
    const cgroup = await containerCgroup(peer, first!.ctrId);
    const max = (await vm.sh(`cat /sys/fs/cgroup${cgroup}/memory.max`, { check: true })).stdout.trim();
    expect(max).toBe(String(200 * 1024 * 1024));
  }, STEP_MS);

  guestIt('stops and removes the pod, and its scopes leave the slice', peer.podBugs, async () => {
    expect(first).toBeDefined();
    await cri(peer, `stopp ${first!.podId}`);
    await cri(peer, `rmp ${first!.podId}`);
    const left = (await vm.sh(`find /sys/fs/cgroup${first!.pod.cgroupParent} -mindepth 1 -type d 2>/dev/null`)).stdout.trim();
    expect(left).toBe('');
    expect(await cri(peer, 'pods -q')).not.toContain(first!.podId);
  }, STEP_MS);

  if (peer.key === 'containerd') {
    it('stops (the reference is done)', async () => {
      await removeAll(peer);
      await vm.sh('timeout 120 systemctl stop containerd', { check: true, timeoutMs: 180_000 });
    }, STEP_MS);
  }

  if (peer.key === 'isulats') {
    guestIt('runs an embedded container (isulats run --rm) with the defaults', POD_BUGS, async () => {
      const res = await vm.sh(`isulats run --rm ${BUSYBOX} echo embedded-ok`, { timeoutMs: 240_000 });
      expect(res.stdout.trim(), res.stderr).toBe('embedded-ok');
    }, STEP_MS);

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

describe('the npm package as a node installs it', () => {
  const peer = PEERS[1]!;
  guestIt('replaces the single executable, starts through the shipped unit and serves a pod', ['state-symlink', 'systemd-slice-path'], async () => {
    await vm.sh(
      ['set -e', 'timeout 120 systemctl stop isulats || true', 'rm -f /usr/local/bin/isulats', `npm install -g --offline --no-audit --no-fund /mnt/host/${packName}`].join('\n'),
      { check: true, timeoutMs: 600_000 },
    );
    expect((await vm.sh('readlink -f /usr/local/bin/isulats', { check: true })).stdout).toContain('/usr/local/lib/node_modules/isulats/');
    await vm.sh('timeout 240 systemctl start isulats', { check: true, timeoutMs: 300_000 });
    const started = await startPod(peer, 'npm');
    expect((await cri(peer, `exec -s ${started.ctrId} echo from-npm`)).trim()).toBe('from-npm');
    await removeAll(peer);
  }, 900_000);
});
