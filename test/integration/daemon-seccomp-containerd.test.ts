// RuntimeDefault against containerd 1.7 (Debian trixie's, scripts/fetch-containerd17.sh): the
// same kubelet-shaped pods and containers run on `isulats daemon` and on containerd side by side.
// 1. The seccomp profile in the OCI spec each one writes (isulats's bundle config.json,
//    containerd's `<state>/io.containerd.runtime.v2.task/k8s.io/<id>/config.json`) is compared
//    syscall by syscall (action, errno, argument rules), for several capability sets, and the
//    running init's /proc/PID/status (Seccomp mode, filter count, bounding set) too.
// 2. A static probe (test/fixtures/seccomp/probe.c, built here with gcc -static and bind-mounted
//    read-only) tries clone with CLONE_NEWUSER, unshare, clone3, fsopen, io_uring_setup, keyctl,
//    bpf, ptrace, mount and personality, from the container's init (its output kept in the
//    container) and through ExecSync (isulats's execsync helper copies the init's filter), and both
//    runtimes must print the same answers.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rmdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContainerd, type Containerd } from '../rig/containerd.js';
import { containerd17BinDir } from '../rig/containerd17.js';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { inCgroupOf, listProcesses } from '../rig/host-cleanup.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { testContainer, testPod } from '../rig/kubelet-shapes.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const run = promisify(execFile);
const PROBE_SOURCE = resolve(import.meta.dirname, '../fixtures/seccomp/probe.c');
const cgroupParent = `ist-scc-${randomBytes(3).toString('hex')}`;

interface Peer {
  name: 'isulats' | 'containerd';
  client: RawCriClient;
  /** Where the runtime writes a started container's config.json. */
  specOf(id: string): Promise<CriMessage>;
  pods: string[];
}

let dir: string;
let probeDir: string;
let busybox: string;
let daemon: IsulatsDaemon | undefined;
let ctd: Containerd | undefined;
let isulats: Peer;
let containerd: Peer;

/** The `<id>/bundle/config.json` below `root` (a few levels deep): where isulats keeps a container's spec. */
async function findConfig(root: string, id: string, depth = 4): Promise<string | undefined> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const path = join(root, e.name);
    if (e.name === id) {
      const file = join(path, 'bundle', 'config.json');
      if (await readFile(file).then(() => true, () => false)) return file;
    }
    if (depth > 0) {
      const found = await findConfig(path, id, depth - 1);
      if (found) return found;
    }
  }
  return undefined;
}

async function readSpec(file: string | undefined, what: string): Promise<CriMessage> {
  if (!file) throw new Error(`no config.json for ${what}`);
  return JSON.parse(await readFile(file, 'utf8')) as CriMessage;
}

type Caps = { addCapabilities?: string[]; dropCapabilities?: string[] };

/** A kubelet-shaped pod and one started container, both RuntimeDefault, the probe bind-mounted. */
async function podWithContainer(peer: Peer, app: string, caps: Caps, pid: 'POD' | 'CONTAINER'): Promise<{ podId: string; containerId: string }> {
  const seccomp = { profileType: 'RuntimeDefault' };
  const pod = testPod({ name: `seccomp-${app}-${randomUUID()}`, namespace: 'seccomp-compare', logRoot: join(dir, 'logs', peer.name), cgroupParent, pid });
  pod.linux.securityContext.seccomp = seccomp;
  await mkdir(pod.logDirectory, { recursive: true });
  const { podSandboxId } = await peer.client.runtime('RunPodSandbox', { config: pod }, 120_000);
  peer.pods.push(podSandboxId);
  const config = testContainer(pod, {
    name: app,
    image: busybox,
    // The init's own answers, kept (whole, by a rename) for ExecSync to read; then it idles.
    command: ['sh', '-c', '/probe/probe > /probe-init.part 2>&1; mv /probe-init.part /probe-init.txt; exec sleep 3600'],
    extra: {
      mounts: [{ containerPath: '/probe', hostPath: probeDir, readonly: true }],
      linux: { securityContext: { seccomp, capabilities: caps, namespaceOptions: pod.linux.securityContext.namespaceOptions } },
    },
  });
  const { containerId } = await peer.client.runtime('CreateContainer', { podSandboxId, config, sandboxConfig: pod });
  await peer.client.runtime('StartContainer', { containerId });
  return { podId: podSandboxId, containerId };
}

/** One line per rule a syscall has: action, errno and argument conditions, in a stable form. */
type Normalised = { defaultAction: string; defaultErrnoRet: number; architectures: string[]; syscalls: Record<string, string[]> };

function normalise(seccomp: CriMessage | undefined): Normalised {
  if (!seccomp) throw new Error('no linux.seccomp in the spec');
  const syscalls: Record<string, Set<string>> = {};
  for (const rule of seccomp.syscalls ?? []) {
    const args = (rule.args ?? []).map((a: CriMessage) => `arg${a.index} ${a.op} ${a.value}${a.valueTwo ? `/${a.valueTwo}` : ''}`).sort().join(', ');
    const line = `${rule.action}${rule.errnoRet !== undefined ? `(${rule.errnoRet})` : ''}${args ? ` if ${args}` : ''}`;
    for (const name of rule.names) (syscalls[name] ??= new Set()).add(line);
  }
  return {
    defaultAction: seccomp.defaultAction,
    // runc's errno for SCMP_ACT_ERRNO without one is EPERM; containerd leaves it out, isulats says 1.
    defaultErrnoRet: seccomp.defaultErrnoRet ?? 1,
    architectures: seccomp.architectures ?? [],
    syscalls: Object.fromEntries(Object.keys(syscalls).sort().map((n) => [n, [...syscalls[n]!].sort()])),
  };
}

/** Fields of the init's /proc/PID/status that show what the kernel applied. */
async function initStatus(id: string): Promise<Record<string, string>> {
  const [proc] = (await listProcesses()).filter((p) => inCgroupOf(p, new Set([id])));
  if (!proc) throw new Error(`no process in the cgroup of ${id}`);
  const status = await readFile(`/proc/${proc.pid}/status`, 'utf8');
  const field = (name: string): string => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1] ?? '';
  return { Seccomp: field('Seccomp'), Seccomp_filters: field('Seccomp_filters'), NoNewPrivs: field('NoNewPrivs'), CapBnd: field('CapBnd') };
}

async function execSync(peer: Peer, containerId: string, cmd: string[]): Promise<string> {
  const r = await peer.client.runtime('ExecSync', { containerId, cmd, timeout: '20' }, 60_000);
  const out = Buffer.from(r.stdout ?? '').toString();
  if (r.exitCode !== 0) throw new Error(`${peer.name}: ${cmd.join(' ')} exited ${r.exitCode}: ${out}${Buffer.from(r.stderr ?? '').toString()}`);
  return out;
}

async function removePods(peer: Peer | undefined): Promise<void> {
  while (peer?.pods.length) {
    const id = peer.pods.pop()!;
    await peer.client.runtime('StopPodSandbox', { podSandboxId: id }, 60_000).catch(() => undefined);
    await peer.client.runtime('RemovePodSandbox', { podSandboxId: id }, 60_000).catch(() => undefined);
  }
}

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  dir = await makeTempDir('ist-scc-');
  probeDir = join(dir, 'probe');
  await mkdir(probeDir);
  await run('gcc', ['-static', '-O2', '-o', join(probeDir, 'probe'), PROBE_SOURCE]);
  const binDir = containerd17BinDir();
  [daemon, ctd] = await Promise.all([
    startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE }),
    startContainerd({ sandboxImage: env.ISULATS_TEST_PAUSE, plainHttpRegistries: [env.ISULATS_TEST_REGISTRY], binDir }),
  ]);
  const d = daemon;
  const c = ctd;
  isulats = { name: 'isulats', client: openCriClient(d.endpoint), pods: [], specOf: async (id) => readSpec(await findConfig(d.state, id) ?? await findConfig(d.root, id), `isulats ${id}`) };
  containerd = { name: 'containerd', client: openCriClient(c.endpoint), pods: [], specOf: async (id) => readSpec(join(c.dir, 'state/io.containerd.runtime.v2.task/k8s.io', id, 'config.json'), `containerd ${id}`) };
  const version = (await containerd.client.runtime('Version', {})).runtimeVersion as string;
  if (!version.startsWith('1.7.')) throw new Error(`expected containerd 1.7, got ${version}`);
  await Promise.all([isulats, containerd].map((p) => p.client.image('PullImage', { image: { image: busybox } })));
}, 240_000);

afterAll(async () => {
  await Promise.all([removePods(isulats), removePods(containerd)]);
  isulats?.client.close();
  containerd?.client.close();
  await daemon?.cleanup();
  await ctd?.stop();
  for (const controller of await readdir('/sys/fs/cgroup').catch(() => [] as string[])) {
    await rmdir(join('/sys/fs/cgroup', controller, cgroupParent)).catch(() => undefined);
  }
  if (dir) await removeTempDir(dir);
}, 180_000);

/** Kubelet's PID namespace per container, but one pod shares it: isulats runs a pause only then, to compare its profile. */
const CASES: Array<[string, Caps, 'POD' | 'CONTAINER']> = [
  ['the default capabilities, in a pod sharing its PID namespace', {}, 'POD'],
  ['CAP_SYS_ADMIN added', { addCapabilities: ['SYS_ADMIN'] }, 'CONTAINER'],
  ['CAP_SYS_PTRACE, CAP_SYS_NICE, CAP_BPF, CAP_PERFMON, CAP_SYSLOG, CAP_SYS_TIME, CAP_DAC_READ_SEARCH added, CAP_SYS_CHROOT dropped', {
    addCapabilities: ['SYS_PTRACE', 'SYS_NICE', 'BPF', 'PERFMON', 'SYSLOG', 'SYS_TIME', 'DAC_READ_SEARCH'],
    dropCapabilities: ['SYS_CHROOT'],
  }, 'CONTAINER'],
  ['every capability dropped', { dropCapabilities: ['ALL'] }, 'CONTAINER'],
];

describe('RuntimeDefault seccomp, isulats daemon against containerd 1.7', () => {
  it.each(CASES)('with %s: the same profile in the spec, the same filter on the init, the same probe answers', async (_what, caps, pid) => {
    const [ours, theirs] = await Promise.all([podWithContainer(isulats, 'app', caps, pid), podWithContainer(containerd, 'app', caps, pid)]);
    const [ourSpec, theirSpec] = await Promise.all([isulats.specOf(ours.containerId), containerd.specOf(theirs.containerId)]);
    // containerd leaves an empty set out.
    const bounding = (spec: CriMessage): string[] => [...(spec.process.capabilities?.bounding ?? [])].sort();
    expect(bounding(ourSpec)).toEqual(bounding(theirSpec));
    expect(normalise(ourSpec.linux.seccomp)).toEqual(normalise(theirSpec.linux.seccomp));
    expect(await initStatus(ours.containerId)).toEqual(await initStatus(theirs.containerId));
    // io_uring is open in containerd 1.7's default (2.0 closed it), so in ours.
    expect(normalise(theirSpec.linux.seccomp).syscalls.io_uring_setup).toEqual(['SCMP_ACT_ALLOW']);

    if (pid === 'POD') {
      // The pause container: containerd gives it the default capabilities (so chroot is allowed),
      // isulats none (pause never calls chroot); apart from that, the same profile.
      const [ourPod, theirPod] = await Promise.all([isulats.specOf(ours.podId), containerd.specOf(theirs.podId)]);
      const theirPodProfile = normalise(theirPod.linux.seccomp);
      expect(theirPodProfile.syscalls.chroot).toEqual(['SCMP_ACT_ALLOW']);
      delete theirPodProfile.syscalls.chroot;
      expect(normalise(ourPod.linux.seccomp)).toEqual(theirPodProfile);
    }

    const outputs: Record<string, string> = {};
    for (const [peer, id] of [[isulats, ours.containerId], [containerd, theirs.containerId]] as const) {
      outputs[`${peer.name} exec`] = await execSync(peer, id, ['/probe/probe']);
      outputs[`${peer.name} init`] = await execSync(peer, id, ['sh', '-c', 'until [ -e /probe-init.txt ]; do sleep 0.1; done; cat /probe-init.txt']);
    }
    const reference = outputs['containerd init']!;
    expect(reference).toMatch(/^clone: OK$/m);
    for (const [where, out] of Object.entries(outputs)) expect(out, where).toBe(reference);
    if (!caps.addCapabilities?.includes('SYS_ADMIN')) {
      // What the issue found: a user namespace (and fsopen in it) and clone3 were open.
      expect(reference).toMatch(/^clone CLONE_NEWUSER: EPERM$/m);
      expect(reference).toMatch(/^clone3: ENOSYS$/m);
      expect(reference).toMatch(/^unshare CLONE_NEWUSER\|CLONE_NEWNS: EPERM$/m);
      expect(reference).toMatch(/^unshare then fsopen tmpfs: EPERM$/m);
      expect(reference).toMatch(/^personality ADDR_NO_RANDOMIZE: EPERM$/m);
      expect(reference).toMatch(/^personality PER_LINUX32: OK$/m);
      expect(reference).toMatch(/^keyctl: EPERM$/m);
    } else {
      expect(reference).toMatch(/^clone CLONE_NEWUSER: OK$/m);
      expect(reference).toMatch(/^clone3: OK$/m);
    }
    await Promise.all([removePods(isulats), removePods(containerd)]);
  }, 240_000);
});
