// SIGKILL of the embedded engine (a CLI process) at every named failpoint of
// runp, create, start, rm, stopp and rmp. The next normal CLI call must see each
// pod and container exactly once (or not at all when the operation had not
// committed), the operation must succeed when retried, and once the pods are
// removed nothing remains: mounts, netns files, IP leases, CNI cache entries,
// runc containers, conmon/pause/container processes.
// Needs a built CLI (`node scripts/build.mjs`): the test runs bin/isulats.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runCli, REPO_ROOT, type CliResult } from '../rig/cli.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { writeBridgeConflist, type CniNetwork } from '../rig/cni-conf.js';
import { deleteLink, killPids, listProcesses, mountsUnder, removeCgroupsNamed, unmountUnder } from '../rig/host-cleanup.js';
import { pidAlive, run } from '../rig/proc.js';
import { startStranger, startZombie, type HeldProcess } from '../rig/zombie.js';
import { processStartTime } from '../../src/runtime/recovery/creator.js';
import { Engine } from '../../src/runtime/engine.js';
import { CREATE_FAILPOINTS, RM_FAILPOINTS, RMP_FAILPOINTS, RUNP_FAILPOINTS, START_FAILPOINTS, STOPP_FAILPOINTS, type RuntimeFailpoint } from '../../src/runtime/recovery/failpoints.js';

const IMAGE = 'local/busybox:crash';
type PidMode = 'POD' | 'CONTAINER';
/** Each pod failpoint runs on a pod without a pause; those around the pause's own steps also on one with it. */
const pidModes = (fp: string): PidMode[] => (/pause|rootfs/.test(fp) ? ['CONTAINER', 'POD'] : ['CONTAINER']);
const modeName = (pid: PidMode) => (pid === 'POD' ? ' (with a pause)' : '');
let dir: string;
let net: CniNetwork;
let base: string[];
/** Our pods' cgroup parent: finds pause and container processes by cgroup. */
const cgroupParent = `ist-crash-${randomBytes(3).toString('hex')}`;

const env = (failpoint = '') => ({
  ISULATS_CNI_CONF_DIR: join(dir, 'cni'),
  ISULATS_DAEMON_CONFIG: '',
  CONTAINER_RUNTIME_ENDPOINT: '',
  ISULATS_DAEMON_SOCKET: join(dir, 'no-daemon.sock'),
  ISULATS_FAILPOINT: failpoint,
  ISULATS_NATIVE: join(REPO_ROOT, 'build', 'Release', 'isulats.node'),
});
/** A private copy of bin/ and dist/ (inside the repo, so packages and assets resolve): other helpers rebuild dist/ meanwhile. */
let cliDir = '';
const cli = (args: string[], failpoint = ''): Promise<CliResult> => runCli([...base, ...args], { env: env(failpoint), timeoutMs: 60_000, cwd: cliDir });
/** False from a test's start until it has removed everything it made. */
let clean = true;

async function ok(args: string[]): Promise<string> {
  const r = await cli(args);
  if (r.code !== 0) throw new Error(`isulats ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Runs the call with the failpoint set and expects it to die by SIGKILL there. */
async function crash(args: string[], failpoint: RuntimeFailpoint): Promise<void> {
  const r = await cli(args, failpoint);
  if (r.code !== 137) throw new Error(`isulats ${args.join(' ')} with ${failpoint} exited ${r.code}, not by SIGKILL: ${r.stderr}`);
}

/**
 * A pod as kubelet makes it without shareProcessNamespace (PID CONTAINER: no pause container),
 * or with a shared PID namespace (POD: a pause holds it).
 */
async function podConfig(name: string, pid: PidMode = 'CONTAINER'): Promise<string> {
  const path = join(dir, `pod-${name}-${pid}.json`);
  const namespaceOptions = { pid: pid === 'POD' ? 0 : 1 };
  const config = { metadata: { name, namespace: 'crash', uid: `uid-${name}`, attempt: 0 }, hostname: 'crash', linux: { cgroup_parent: `/${cgroupParent}`, security_context: { namespace_options: namespaceOptions } } };
  await writeFile(path, JSON.stringify(config));
  return path;
}

async function pods(): Promise<Array<{ id: string; state: string }>> {
  return (JSON.parse(await ok(['pods', '-o', 'json'])) as { items: Array<{ id: string; state: string }> }).items;
}

async function containers(): Promise<Array<{ id: string; state: string }>> {
  return (JSON.parse(await ok(['ps', '-a', '-o', 'json'])) as { containers: Array<{ id: string; state: string }> }).containers;
}

/**
 * Live processes of ours: conmon (its argv names our dirs) and anything in our
 * pods' cgroups (pause, container init). Zombies are skipped: this machine's
 * PID 1 does not reap orphans, and a zombie holds nothing.
 */
async function ourProcesses(): Promise<string[]> {
  const all = await listProcesses();
  const ours = all.filter((p) => p.argv.some((a) => a.includes(dir)) || p.cgroups.some((c) => c.includes(`/${cgroupParent}/`)));
  const live: typeof ours = [];
  for (const p of ours) if (await pidAlive(p.pid)) live.push(p);
  return live.map((p) => `${p.pid} ${p.argv.join(' ')}`);
}

/** cgroups under our pods' cgroup parent, in every hierarchy (runc makes one per container and pause). */
async function ourCgroups(): Promise<string[]> {
  const cgroups: string[] = [];
  for (const controller of await readdir('/sys/fs/cgroup').catch(() => [] as string[])) {
    const parent = join('/sys/fs/cgroup', controller, cgroupParent);
    for (const e of await readdir(parent, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) cgroups.push(join(parent, e.name));
  }
  return cgroups;
}

async function leftovers(): Promise<{ [K in keyof typeof NOTHING]: string[] }> {
  const leaseDir = join(net.leaseDir, net.name);
  const runc = await run('runc', ['--root', join(dir, 'state', 'runc'), 'list', '-q'], { check: false });
  const root = join(dir, 'root');
  return {
    pods: await readdir(join(root, 'sandboxes')).catch(() => []),
    containers: await readdir(join(root, 'containers')).catch(() => []),
    names: [...(await readdir(join(root, 'names', 'sandboxes')).catch(() => [])), ...(await readdir(join(root, 'names', 'containers')).catch(() => []))],
    mounts: await mountsUnder(dir),
    // Namespace pins: network, IPC and UTS.
    netns: (await Promise.all(['netns', 'ipcns', 'utsns'].map((d) => readdir(join(dir, 'state', d)).catch(() => [] as string[])))).flat(),
    leases: (await readdir(leaseDir).catch(() => [] as string[])).filter((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n)),
    cniCache: await readdir(join(dir, 'root', 'cni', 'results')).catch(() => []),
    runc: runc.stdout.split('\n').filter(Boolean),
    processes: await ourProcesses(),
    // Record lock files go with their record (removed by their holder).
    locks: [...(await readdir(join(root, 'locks', 'sandboxes')).catch(() => [])), ...(await readdir(join(root, 'locks', 'containers')).catch(() => []))],
    cgroups: await ourCgroups(),
  };
}

const NOTHING = { pods: [], containers: [], names: [], mounts: [], netns: [], leases: [], cniCache: [], runc: [], processes: [], locks: [], cgroups: [] };

/** Removes every pod through the CLI (unless already done), then looks for any trace on the host. */
async function removeAllAndCheck(alreadyRemoved = false): Promise<void> {
  if (!alreadyRemoved) await ok(['rmp', '-a', '-f']);
  expect(await leftovers()).toEqual(NOTHING);
  clean = true;
}

/** Copies the built CLI; retried because a concurrent build may be halfway through writing dist/. */
async function snapshotCli(): Promise<string> {
  const target = join(REPO_ROOT, 'node_modules', '.cache', `ist-crash-cli-${randomBytes(4).toString('hex')}`);
  for (let attempt = 0; ; attempt++) {
    await rm(target, { recursive: true, force: true });
    await cp(join(REPO_ROOT, 'bin'), join(target, 'bin'), { recursive: true });
    await cp(join(REPO_ROOT, 'dist'), join(target, 'dist'), { recursive: true });
    const r = await runCli(['version', '--help'], { cwd: target, timeoutMs: 30_000 });
    if (r.code === 0 || attempt >= 4) return target;
    await sleep(2_000);
  }
}

const CONTAINER = () => join(dir, 'ctr.json');
/** Writes a line first: a process whose monitor is gone would die on that write (EPIPE). */
const LOGGING_CONTAINER = () => join(dir, 'ctr-log.json');

/** The started container is monitored: its first line reaches the log, and stopping it records its real exit. */
async function expectMonitored(ctr: string): Promise<void> {
  let logs = '';
  for (let i = 0; i < 50 && !logs.includes('started'); i++) {
    logs = (await cli(['logs', ctr])).stdout;
    if (!logs.includes('started')) await sleep(100);
  }
  expect(logs).toContain('started');
  expect((await containers()).map((c) => c.state)).toEqual(['CONTAINER_RUNNING']);
  expect(await ok(['exec', '-s', ctr, 'echo', 'alive'])).toBe('alive');
  await ok(['stop', '-t', '0', ctr]);
  const status = (JSON.parse(await ok(['inspect', '-o', 'json', ctr])) as { status: { exitCode: number; reason: string } }).status;
  expect({ exitCode: status.exitCode, reason: status.reason }).toEqual({ exitCode: 137, reason: 'Error' });
}

/** A pod with a running container, in one CLI call (crictl's run form); the pod ID is read from the store. */
async function runningContainer(podFile: string): Promise<string> {
  await ok(['run', '--no-pull', CONTAINER(), podFile]);
  const ids = await readdir(join(dir, 'root', 'sandboxes'));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

beforeAll(async () => {
  if (!existsSync(join(REPO_ROOT, 'dist', 'isulats.cjs'))) throw new Error('build the CLI first: node scripts/build.mjs');
  cliDir = await snapshotCli();
  dir = await makeTempDir('ist-crash-');
  await mkdir(join(dir, 'cni'), { recursive: true });
  net = await writeBridgeConflist(join(dir, 'cni'), join(dir, 'leases'));
  base = ['--root', join(dir, 'root'), '--state', join(dir, 'state')];
  const rootfs = join(dir, 'rootfs');
  await populateBusyboxRootfs(rootfs);
  await ok(['import', '--cmd', 'sh', rootfs, IMAGE]);
  await writeFile(CONTAINER(), JSON.stringify({ metadata: { name: 'sleeper' }, image: { image: IMAGE }, command: ['sleep', '3600'], linux: {} }));
  await writeFile(LOGGING_CONTAINER(), JSON.stringify({ metadata: { name: 'logger' }, image: { image: IMAGE }, command: ['sh', '-c', 'echo started; exec sleep 3600'], log_path: 'logger.log', linux: {} }));
  // Builds the pause image once, outside the measured cases.
  await ok(['runp', await podConfig('warmup', 'POD')]);
  await removeAllAndCheck();
}, 180_000);

afterEach(async () => {
  if (clean) return;
  await cli(['rmp', '-a', '-f']).catch(() => undefined);
  clean = true;
});

beforeEach(() => {
  clean = false;
});

afterAll(async () => {
  if (dir) await cli(['rmp', '-a', '-f']).catch(() => undefined);
  if (cliDir) await rm(cliDir, { recursive: true, force: true });
  if (!dir) return;
  await killPids((await ourProcesses()).map((p) => Number.parseInt(p, 10))).catch(() => undefined);
  await unmountUnder(dir);
  await deleteLink(net?.bridge ?? '').catch(() => undefined);
  await removeCgroupsNamed(new Set([cgroupParent])).catch(() => undefined);
  await removeTempDir(dir);
}, 180_000);

describe('SIGKILL during RunPodSandbox', () => {
  for (const fp of RUNP_FAILPOINTS) for (const pid of pidModes(fp)) {
    it(`${fp}${modeName(pid)}: no pod half made, the retry succeeds, nothing leaks`, async () => {
      const podFile = await podConfig(fp, pid);
      await crash(['runp', podFile], fp);
      const after = await pods();
      if (fp === 'runp-after-ready-write') {
        expect(after.map((p) => p.state)).toEqual(['SANDBOX_READY']);
        // The name is taken by the committed pod: a retry is refused, not duplicated.
        expect((await cli(['runp', podFile])).code).not.toBe(0);
      } else {
        expect(after).toEqual([]);
        expect(await leftovers()).toEqual(NOTHING);
        await ok(['runp', podFile]);
      }
      expect((await pods()).map((p) => p.state)).toEqual(['SANDBOX_READY']);
      await removeAllAndCheck();
    });
  }
});

describe('SIGKILL during CreateContainer', () => {
  for (const fp of CREATE_FAILPOINTS) {
    it(`${fp}: the container exists once or not at all, the retry succeeds, nothing leaks`, async () => {
      const podFile = await podConfig(fp);
      const pod = await ok(['runp', podFile]);
      await crash(['create', pod, CONTAINER(), podFile], fp);
      const after = await containers();
      if (fp === 'create-after-record-write') {
        expect(after.map((c) => c.state)).toEqual(['CONTAINER_CREATED']);
        await ok(['start', after[0]!.id]);
      } else {
        expect(after).toEqual([]);
        await ok(['start', await ok(['create', pod, CONTAINER(), podFile])]);
      }
      expect((await containers()).map((c) => c.state)).toEqual(['CONTAINER_RUNNING']);
      await removeAllAndCheck();
    });
  }
});

/**
 * The file system calls of one CLI call, under strace: fsyncs (file descriptors shown as paths)
 * and renames, in the order they returned.
 */
async function tracedCli(args: string[]): Promise<{ stdout: string; trace: string[] }> {
  const out = join(dir, `strace-${randomBytes(3).toString('hex')}.txt`);
  try {
    const r = await run('strace', ['-f', '-y', '--seccomp-bpf', '-qq', '-e', 'trace=fsync,fdatasync,rename,renameat,renameat2', '-o', out, process.execPath, 'bin/isulats', ...base, ...args], { cwd: cliDir, env: { ...process.env, ...env() }, timeoutMs: 60_000 });
    return { stdout: r.stdout.trim(), trace: completedCalls(await readFile(out, 'utf8')) };
  } finally {
    await rm(out, { force: true });
  }
}

/**
 * strace -f lines (`PID call(args) = result`) as whole calls in the order they returned: a call
 * cut by another thread's line (`PID call(args <unfinished ...>`, later `PID <... call resumed>)
 * = result`) is joined and placed where it returned.
 */
function completedCalls(text: string): string[] {
  const pending = new Map<string, string>();
  const calls: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+) +(.*)$/.exec(line);
    if (!m) continue;
    const [, pid, rest] = m as unknown as [string, string, string];
    if (rest.endsWith('<unfinished ...>')) pending.set(pid, rest.slice(0, -'<unfinished ...>'.length).trimEnd());
    else if (rest.startsWith('<... ')) {
      calls.push(`${pending.get(pid) ?? ''}${rest.replace(/^<\.\.\. \w+ resumed>/, '')}`);
      pending.delete(pid);
    } else calls.push(rest);
  }
  return calls;
}

describe('the spec a CreateContainer commits', () => {
  it('config.json is fsynced before the rename that commits the container record', async () => {
    const podFile = await podConfig('spec-durable');
    const pod = await ok(['runp', podFile]);
    const { stdout: ctr, trace } = await tracedCli(['create', pod, CONTAINER(), podFile]);
    expect(ctr).toMatch(/^[0-9a-f]{64}$/);
    const meta = join(dir, 'root', 'containers', ctr, 'meta.json');
    const renames = trace.map((l, i) => [l, i] as const).filter(([l]) => /rename/.test(l) && l.includes(`"${meta}"`));
    // The record marked creating, then the commit.
    expect(renames).toHaveLength(2);
    const commit = renames[1]![1];
    const spec = join(dir, 'root', 'containers', ctr, 'bundle', 'config.json');
    const specSyncs = trace.map((l, i) => [l, i] as const).filter(([l]) => /fsync/.test(l) && l.includes(`<${spec}>`) && / = 0$/.test(l));
    expect(specSyncs.map(([, i]) => i < commit)).toEqual([true]);
    await ok(['start', ctr]);
    expect((await containers()).map((c) => c.state)).toEqual(['CONTAINER_RUNNING']);
    await removeAllAndCheck();
  });

  it('UpdateContainerResources of a created container replaces its config.json durably', async () => {
    const podFile = await podConfig('spec-update');
    const pod = await ok(['runp', podFile]);
    const ctr = await ok(['create', pod, CONTAINER(), podFile]);
    const bundle = join(dir, 'root', 'containers', ctr, 'bundle');
    const { trace } = await tracedCli(['update', '--memory', '96m', ctr]);
    const spec = join(bundle, 'config.json');
    const at = (re: RegExp) => trace.findIndex((l) => re.test(l));
    const escaped = bundle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const replace = at(new RegExp(`rename.*"${escaped}/\\.config\\.json\\.tmp-[^"]*", .*"${escaped}/config\\.json"`));
    const tempSync = at(new RegExp(`fsync\\(\\d+<${escaped}/\\.config\\.json\\.tmp-[^>]*>\\) = 0`));
    const dirSync = trace.findIndex((l, i) => i > replace && new RegExp(`fsync\\(\\d+<${escaped}>\\) = 0`).test(l));
    expect({ tempSyncedFirst: tempSync >= 0 && tempSync < replace, dirSyncedAfter: dirSync > replace }).toEqual({ tempSyncedFirst: true, dirSyncedAfter: true });
    expect((JSON.parse(await readFile(spec, 'utf8')) as { linux: { resources: { memory: { limit: number } } } }).linux.resources.memory.limit).toBe(96 * 1024 * 1024);
    await removeAllAndCheck();
  });
});

describe('SIGKILL during StartContainer', () => {
  for (const fp of START_FAILPOINTS) {
    it(`${fp}: the record matches runc afterwards, the container is monitored, nothing leaks`, async () => {
      const podFile = await podConfig(fp);
      const pod = await ok(['runp', podFile]);
      const ctr = await ok(['create', pod, LOGGING_CONTAINER(), podFile]);
      await crash(['start', ctr], fp);
      const after = await containers();
      if (fp === 'start-before-conmon' || fp === 'start-after-conmon') {
        expect(after.map((c) => c.state)).toEqual(['CONTAINER_CREATED']);
        await ok(['start', ctr]);
      } else {
        // runc started it: recovery records it RUNNING rather than leaving it CREATED.
        expect(after.map((c) => c.state)).toEqual(['CONTAINER_RUNNING']);
      }
      await expectMonitored(ctr);
      await removeAllAndCheck();
    });
  }
});

describe('SIGKILL during RemoveContainer', () => {
  for (const fp of RM_FAILPOINTS) {
    it(`${fp}: the container is listed exited or gone, the retry removes it, its name is free, nothing leaks`, async () => {
      const podFile = await podConfig(fp);
      const pod = await ok(['runp', podFile]);
      const ctr = await ok(['create', pod, LOGGING_CONTAINER(), podFile]);
      await ok(['start', ctr]);
      await crash(['rm', '-f', ctr], fp);
      const after = await containers();
      if (fp === 'rm-after-record-remove') {
        expect(after).toEqual([]);
      } else {
        expect(after.map((c) => c.state)).toEqual(['CONTAINER_EXITED']);
        await ok(['rm', ctr]);
        expect(await containers()).toEqual([]);
      }
      const gone = await leftovers();
      expect({ mounts: gone.mounts.filter((m) => m.includes(ctr)), runc: gone.runc, processes: gone.processes, locks: gone.locks.filter((l) => l.startsWith(ctr)) }).toEqual({ mounts: [], runc: [], processes: [], locks: [] });
      // The same container again: its name was released.
      await ok(['start', await ok(['create', pod, LOGGING_CONTAINER(), podFile])]);
      await removeAllAndCheck();
    });
  }
});

describe('SIGKILL during StartContainer, the monitor killed with the engine', () => {
  // A service manager kills the engine's whole cgroup (systemd's KillMode=control-group), conmon
  // included: runc keeps a `created` container that nobody monitors.
  it('start-after-conmon: the next start runs the container under a new monitor', async () => {
    const podFile = await podConfig('monitor-lost');
    const pod = await ok(['runp', podFile]);
    const ctr = await ok(['create', pod, LOGGING_CONTAINER(), podFile]);
    await crash(['start', ctr], 'start-after-conmon');
    const conmonPid = Number.parseInt(await readFile(join(dir, 'root', 'containers', ctr, 'bundle', 'conmon.pid'), 'utf8'), 10);
    expect(conmonPid).toBeGreaterThan(0);
    await killPids([conmonPid]);
    for (let i = 0; i < 50 && (await pidAlive(conmonPid)); i++) await sleep(100);
    expect(await pidAlive(conmonPid)).toBe(false);
    expect((await containers()).map((c) => c.state)).toEqual(['CONTAINER_CREATED']);
    await ok(['start', ctr]);
    await expectMonitored(ctr);
    await removeAllAndCheck();
  });

  // runc's state is gone (its dir holds no state.json) and conmon.pid names a PID now taken by
  // another process: that process is no monitor, so the container is recorded lost, not left CREATED.
  it('a monitor PID reused by a stranger: recovery records the container lost', async () => {
    const podFile = await podConfig('monitor-pid-reused');
    const pod = await ok(['runp', podFile]);
    const ctr = await ok(['create', pod, LOGGING_CONTAINER(), podFile]);
    const runcDir = join(dir, 'state', 'runc', ctr);
    const stranger = startStranger();
    try {
      await mkdir(runcDir);
      await writeFile(join(dir, 'root', 'containers', ctr, 'bundle', 'conmon.pid'), String(stranger.pid));
      const status = (JSON.parse(await ok(['inspect', '-o', 'json', ctr])) as { status: { state: string; exitCode: number; message: string } }).status;
      expect({ state: status.state, exitCode: status.exitCode }).toEqual({ state: 'CONTAINER_EXITED', exitCode: 255 });
      expect(status.message).toContain('container lost');
    } finally {
      stranger.stop();
      await rm(runcDir, { recursive: true, force: true });
    }
    await removeAllAndCheck();
  });
});

/** The one pod record on disk, with its `creating` mark replaced. */
const setPodCreator = (creator: Record<string, unknown>) => setCreator('sandboxes', creator);

/** The one pod or container record on disk, with its `creating` mark replaced. */
async function setCreator(kind: 'sandboxes' | 'containers', creator: Record<string, unknown>): Promise<string> {
  const [id] = await readdir(join(dir, 'root', kind));
  const meta = join(dir, 'root', kind, id!, 'meta.json');
  const record = JSON.parse(await readFile(meta, 'utf8')) as { creating?: Record<string, unknown> };
  expect(record.creating).toBeDefined();
  await writeFile(meta, JSON.stringify({ ...record, creating: { ...record.creating, ...creator } }));
  return id!;
}

describe('a half-created pod whose creator PID still answers', () => {
  // The killed creator's PID is taken by another process (a reboot, a daemon that is always PID 1
  // in its container), or the killed daemon lingers as a zombie: recovery must see through both.
  const cases: Array<[string, () => Promise<HeldProcess>, boolean]> = [
    ['a live process that is not the creator', async () => startStranger(), false],
    ['a zombie (the creator killed, not yet reaped)', startZombie, true],
  ];
  for (const [what, hold, ownStartTime] of cases) {
    it(`${what}: recovery undoes the creation, the name is free again, nothing leaks`, async () => {
      const podFile = await podConfig(`pid-${ownStartTime ? 'zombie' : 'reused'}`);
      await crash(['runp', podFile], 'runp-after-cni-add');
      const holder = await hold();
      try {
        await setPodCreator({ pid: holder.pid, ...(ownStartTime ? { startTime: await processStartTime(holder.pid) } : {}) });
        expect(await pods()).toEqual([]);
        expect(await leftovers()).toEqual(NOTHING);
        await ok(['runp', podFile]);
        await removeAllAndCheck();
      } finally {
        holder.stop();
      }
    });
  }

  it('pinns killed midway: recovery releases pins left mounted or bare, of a half-made pod and of an ID with no record', async () => {
    const podFile = await podConfig('half-pinned');
    await crash(['runp', podFile], 'runp-after-shm');
    const [id] = await readdir(join(dir, 'root', 'sandboxes'));
    const pin = (kind: string, podId: string) => join(dir, 'state', kind, podId);
    const pinns = (...args: string[]) => expect(spawnSync(join(REPO_ROOT, 'build', 'pinns', 'pinns'), args).status).toBe(0);
    // As a pinns killed between its steps leaves them: a namespace mounted on its file, a file not mounted yet.
    pinns(`--uts=${pin('utsns', id!)}`);
    await writeFile(pin('ipcns', id!), '');
    const orphan = 'e'.repeat(64);
    pinns(`--net=${pin('netns', orphan)}`, `--ipc=${pin('ipcns', orphan)}`);
    await writeFile(pin('utsns', orphan), '');
    expect((await leftovers()).mounts).toHaveLength(4);
    expect(await pods()).toEqual([]);
    expect(await leftovers()).toEqual(NOTHING);
    await ok(['runp', podFile]);
    await removeAllAndCheck();
  });

  it('RemovePodSandbox of a half-created pod refuses while its creator lives, then releases everything', async () => {
    await crash(['runp', await podConfig('half-made')], 'runp-after-cni-add');
    const creator = startStranger();
    let engine: Engine | undefined;
    try {
      const id = await setPodCreator({ pid: creator.pid, startTime: await processStartTime(creator.pid) });
      const refused = await cli(['rmp', '-f', id]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/still being created/);
      // An engine that stays open while the creator dies (a daemon): its recovery ran before.
      engine = await Engine.open({ root: join(dir, 'root'), state: join(dir, 'state'), cniConfDir: join(dir, 'cni'), cniBinDirs: ['/usr/lib/cni'], warn: () => undefined });
      expect((await leftovers()).mounts).not.toEqual([]);
      creator.stop();
      for (let i = 0; i < 50 && (await pidAlive(creator.pid)); i++) await sleep(100);
      await engine.removePodSandbox({ podSandboxId: id });
      await removeAllAndCheck(true);
    } finally {
      creator.stop();
      await engine?.close();
    }
  });
});

describe('a half-created container', () => {
  it('RemoveContainer and RemovePodSandbox refuse while its creator lives, then release everything', async () => {
    const podFile = await podConfig('half-made-ctr');
    const pod = await ok(['runp', podFile]);
    await crash(['create', pod, CONTAINER(), podFile], 'create-after-bundle');
    const creator = startStranger();
    let engine: Engine | undefined;
    try {
      const ctr = await setCreator('containers', { pid: creator.pid, startTime: await processStartTime(creator.pid) });
      const rootfs = join(dir, 'state', 'rootfs', ctr);
      // An engine that stays open while the creator dies (a daemon): its recovery runs now.
      engine = await Engine.open({ root: join(dir, 'root'), state: join(dir, 'state'), cniConfDir: join(dir, 'cni'), cniBinDirs: ['/usr/lib/cni'], warn: () => undefined });
      // Neither removed nor its spec rewritten (its creator writes the spec) from another process.
      for (const args of [['rm', '-f', ctr], ['update', '--memory', '96m', ctr]]) {
        const refused = await cli(args);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toMatch(/still being created/);
      }
      await expect(engine.removePodSandbox({ podSandboxId: pod })).rejects.toThrow(/still being created/);
      expect((await pods()).map((p) => p.state)).toEqual(['SANDBOX_READY']);
      // The name is still held: a second create is refused, and its undo leaves nothing (its record's lock file included).
      expect((await cli(['create', pod, CONTAINER(), podFile])).code).not.toBe(0);
      expect((await leftovers()).locks.filter((l) => !l.startsWith(ctr) && !l.startsWith(pod))).toEqual([]);
      // StopPodSandbox stops what runs and leaves the container being made as it is (its creator would overwrite a state written now).
      const meta = join(dir, 'root', 'containers', ctr, 'meta.json');
      const before = await readFile(meta, 'utf8');
      await engine.stopPodSandbox({ podSandboxId: pod });
      expect(await readFile(meta, 'utf8')).toBe(before);
      // Nothing was taken from under the creator.
      expect(existsSync(join(dir, 'root', 'containers', ctr, 'bundle', 'config.json'))).toBe(true);
      expect((await leftovers()).mounts).toContain(rootfs);
      creator.stop();
      for (let i = 0; i < 50 && (await pidAlive(creator.pid)); i++) await sleep(100);
      await engine.removeContainer({ containerId: ctr });
      const after = await leftovers();
      expect({ containers: after.containers, mounts: after.mounts.filter((m) => m === rootfs), locks: after.locks.filter((l) => l.startsWith(ctr)) }).toEqual({ containers: [], mounts: [], locks: [] });
      expect(await containers()).toEqual([]);
      // Its name is free again: only the pod's is left.
      expect(after.names).toHaveLength(1);
      await removeAllAndCheck();
    } finally {
      creator.stop();
      await engine?.close();
    }
  });
});

describe('temp files of atomic writes cut short', () => {
  it('recovery removes those of dead writers and old ones, and record dirs holding nothing else; a live write keeps its own', async () => {
    const pod = await ok(['runp', await podConfig('temp-files')]);
    const dead = spawnSync('true').pid!;
    const root = join(dir, 'root');
    const hex = () => randomBytes(32).toString('hex');
    // A RunPodSandbox and a CreateContainer killed inside their first record write: nothing but the temp file.
    const podOnlyTemp = join(root, 'sandboxes', hex());
    const ctrOnlyTemp = join(root, 'containers', hex());
    const stale = [
      join(podOnlyTemp, `.meta.json.tmp-${dead}-1a2b3c4d`),
      join(ctrOnlyTemp, `.meta.json.tmp-${dead}-1a2b3c4d`),
      join(root, 'sandboxes', pod, `.meta.json.tmp-${dead}-5e6f7a8b`),
      join(root, 'images', `.index.json.tmp-${dead}-0badf00d`),
      // A live PID (init) that cannot be the writer of a file this old.
      join(root, `.runtime-config.json.tmp-1-abcdef01`),
      join(root, 'names', 'sandboxes', `.k8s_POD_x_y_z_0.tmp-${dead}-2c3d4e5f`),
      // A name reservation cut between its O_EXCL create and its write (as older versions made them): no owner.
      join(root, 'names', 'containers', 'k8s_app_temp-files_crash_uid-temp-files_0'),
    ];
    const live = join(root, 'sandboxes', pod, `.meta.json.tmp-${process.pid}-feedbeef`);
    for (const d of [podOnlyTemp, ctrOnlyTemp, join(root, 'images')]) await mkdir(d, { recursive: true });
    for (const f of [...stale, live]) await writeFile(f, f.endsWith('_0') ? '' : '{"half":');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(stale[4]!, hourAgo, hourAgo);
    expect((await pods()).map((p) => p.id)).toEqual([pod]);
    const present = async (f: string) => existsSync(f);
    expect(await Promise.all(stale.map(present))).toEqual(stale.map(() => false));
    expect({ podDir: existsSync(podOnlyTemp), ctrDir: existsSync(ctrOnlyTemp), live: existsSync(live) }).toEqual({ podDir: false, ctrDir: false, live: true });
    await rm(live);
    await removeAllAndCheck();
  });
});

describe('SIGKILL during StopPodSandbox', () => {
  for (const fp of STOPP_FAILPOINTS) for (const pid of pidModes(fp)) {
    it(`${fp}${modeName(pid)}: the pod is still listed once, the retry stops it, nothing leaks`, async () => {
      const pod = await runningContainer(await podConfig(fp, pid));
      await crash(['stopp', pod], fp);
      expect((await pods()).map((p) => p.id)).toEqual([pod]);
      expect((await containers()).map((c) => c.state)).toEqual(['CONTAINER_EXITED']);
      await ok(['stopp', pod]);
      expect((await pods()).map((p) => p.state)).toEqual(['SANDBOX_NOTREADY']);
      const stopped = await leftovers();
      expect({ netns: stopped.netns, leases: stopped.leases, processes: stopped.processes }).toEqual({ netns: [], leases: [], processes: [] });
      await removeAllAndCheck();
    });
  }
});

describe('SIGKILL during RemovePodSandbox', () => {
  for (const fp of RMP_FAILPOINTS) for (const pid of pidModes(fp)) {
    it(`${fp}${modeName(pid)}: the pod is removed once the retry runs, nothing leaks`, async () => {
      const podFile = await podConfig(fp, pid);
      const pod = await runningContainer(podFile);
      await crash(['rmp', '-f', pod], fp);
      const after = await pods();
      expect(await containers()).toEqual([]);
      if (fp === 'rmp-after-record-remove') {
        expect(after).toEqual([]);
        // The name reservation the killed call still held is free again.
        await ok(['runp', podFile]);
        await removeAllAndCheck();
        return;
      }
      expect(after.map((p) => p.id)).toEqual([pod]);
      await ok(['rmp', '-f', pod]);
      await removeAllAndCheck(true);
    });
  }
});
