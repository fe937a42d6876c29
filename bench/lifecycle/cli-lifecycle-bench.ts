// Whole CLI calls, side by side in one run: the embedded engine (`isulats`
// with no endpoint) against containerd 1.6 driven by the same CLI
// (`isulats -r unix://...`), with bare `runc run -d` of an equivalent bundle as
// the floor. Per operation: the median wall time of N calls of runp, create,
// start, exec -s, stop, rmp; then 20 `runp` processes started at once; then the
// VmRSS of the monitors per running pod (conmon per container vs containerd's
// per-pod containerd-shim-runc-v2).
// Usage: node bench/lifecycle/run.mjs [ITERATIONS]   (root, runc, conmon, containerd, CNI plugins)
import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { populateBusyboxRootfs } from '../../test/rig/busybox-rootfs.js';
import { writeBridgeConflist } from '../../test/rig/cni-conf.js';
import { makeTempDir, removeTempDir } from '../../test/rig/temp-dir.js';
import { run } from '../../test/rig/proc.js';
import { writeFloorBundle } from './floor-bundle.js';
import { startRegistry, type Registry } from '../../test/rig/registry.js';
import { pushRigImages } from '../../test/rig/images.js';
import { startContainerd, type Containerd } from '../../test/rig/containerd.js';
import { listProcesses, unmountUnder } from '../../test/rig/host-cleanup.js';

const iterations = Number(process.argv[2] ?? '5');
const REPO = process.cwd();
/** A private copy of bin/ and dist/ (other builds may rewrite dist/ during the run); set in main. */
let cliDir = REPO;
const OPS = ['runp', 'create', 'start', 'exec -s', 'stop', 'rmp'] as const;
type Op = (typeof OPS)[number];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

interface Target {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  image: string;
  podExtra: Record<string, unknown>;
  times: Record<Op, number[]>;
}

/** One `node bin/isulats` process; resolves with its stdout and wall time in ms. */
function cli(t: Target, args: string[]): Promise<{ out: string; ms: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/isulats', ...t.args, ...args], { cwd: cliDir, env: { ...process.env, ...t.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) reject(new Error(`${t.name}: isulats ${args.join(' ')} exited ${code}: ${Buffer.concat(err).toString().trim()}`));
      else resolve({ out: Buffer.concat(out).toString().trim(), ms });
    });
  });
}

/** `runc run -d` hands its stdio to the container, so wait for exit, not for the pipes to close. */
function runDetached(args: string[]): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn('runc', args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`runc ${args.join(' ')} exited ${code}`))));
  });
}

async function vmRss(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? 0);
}

async function writeConfigs(dir: string, t: Target, name: string): Promise<{ pod: string; ctr: string }> {
  const pod = join(dir, `${t.name}-${name}-pod.json`);
  const ctr = join(dir, `${t.name}-ctr.json`);
  await writeFile(pod, JSON.stringify({ metadata: { name, namespace: 'bench', uid: `u-${t.name}-${name}`, attempt: 0 }, ...t.podExtra }));
  await writeFile(ctr, JSON.stringify({ metadata: { name: 'c' }, image: { image: t.image }, command: ['sleep', '3600'], linux: {} }));
  return { pod, ctr };
}

async function lifecycle(dir: string, t: Target, i: number): Promise<void> {
  const { pod, ctr } = await writeConfigs(dir, t, `p${i}`);
  const time = async (op: Op, args: string[]) => {
    const r = await cli(t, args);
    t.times[op].push(r.ms);
    return r.out;
  };
  const podId = await time('runp', ['runp', pod]);
  const ctrId = await time('create', ['create', podId, ctr, pod]);
  await time('start', ['start', ctrId]);
  await time('exec -s', ['exec', '-s', ctrId, 'echo', 'hi']);
  await time('stop', ['stop', '--timeout', '0', ctrId]);
  await time('rmp', ['rmp', '-f', podId]);
}

/** 20 `runp` processes at once (wall time), then a running container in each pod, then monitor memory. */
async function burst(dir: string, t: Target, monitors: () => Promise<number[]>): Promise<{ ms: number; rss: number[] }> {
  const files = await Promise.all(Array.from({ length: 20 }, (_, i) => writeConfigs(dir, t, `burst${i}`)));
  const start = process.hrtime.bigint();
  const pods = await Promise.all(files.map((f) => cli(t, ['runp', f.pod]).then((r) => r.out)));
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  for (const [i, podId] of pods.entries()) {
    const ctrId = (await cli(t, ['create', podId, files[i]!.ctr, files[i]!.pod])).out;
    await cli(t, ['start', ctrId]);
  }
  const rss = await monitors();
  await cli(t, ['rmp', '-a', '-f']);
  return { ms, rss };
}

async function floor(dir: string, rootfs: string): Promise<number[]> {
  const bundle = join(dir, 'floor');
  await writeFloorBundle(bundle, rootfs);
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const id = `istbl-floor-${i}-${process.pid}`;
    times.push(await runDetached(['--root', join(dir, 'floor-state'), 'run', '-d', '--bundle', bundle, id]));
    await run('runc', ['--root', join(dir, 'floor-state'), 'delete', '--force', id], { check: false });
  }
  return times;
}

const newTimes = (): Record<Op, number[]> => Object.fromEntries(OPS.map((o) => [o, [] as number[]])) as Record<Op, number[]>;

async function main(): Promise<void> {
  const dir = await makeTempDir('istbl-');
  const cgroupParent = `/istbl-${dir.slice(-6)}`;
  let registry: Registry | undefined;
  let ctd: Containerd | undefined;
  let bridge = '';
  const emb: Target = {
    name: 'embedded',
    args: ['--root', join(dir, 'root'), '--state', join(dir, 'state'), '--global-timeout', '60s'],
    env: { ISULATS_CNI_CONF_DIR: join(dir, 'cni'), ISULATS_DAEMON_CONFIG: '', CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_SOCKET: join(dir, 'no-daemon.sock') },
    image: 'istbl/busybox:1',
    podExtra: { linux: { cgroup_parent: cgroupParent } },
    times: newTimes(),
  };
  try {
    cliDir = join(REPO, 'build', 'bench', `cli-${process.pid}`);
    await cp(join(REPO, 'bin'), join(cliDir, 'bin'), { recursive: true });
    await cp(join(REPO, 'dist'), join(cliDir, 'dist'), { recursive: true });
    await mkdir(join(dir, 'cni'));
    bridge = (await writeBridgeConflist(join(dir, 'cni'), join(dir, 'leases'))).bridge;
    const rootfs = join(dir, 'rootfs');
    await populateBusyboxRootfs(rootfs);
    await cli(emb, ['import', '--cmd', 'sh', rootfs, emb.image]);

    registry = await startRegistry();
    const images = await pushRigImages(registry.host);
    ctd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [registry.host] });
    const remote: Target = { name: 'containerd', args: ['-r', ctd.endpoint, '--global-timeout', '60s'], env: { CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_CONFIG: '' }, image: images.busybox, podExtra: {}, times: newTimes() };
    await cli(remote, ['pull', images.busybox]);

    // Warm-up: the embedded engine builds its pause image, containerd pulls its own.
    for (const t of [emb, remote]) {
      const { pod } = await writeConfigs(dir, t, 'warm');
      await cli(t, ['runp', pod]);
      await cli(t, ['rmp', '-a', '-f']);
    }
    // Interleaved so both runtimes see the same machine load.
    for (let i = 0; i < iterations; i++) for (const t of [emb, remote]) await lifecycle(dir, t, i);

    const conmons = async () => {
      const rss: number[] = [];
      for (const id of await readdir(join(dir, 'root', 'containers'))) {
        const pid = Number(await readFile(join(dir, 'root', 'containers', id, 'bundle', 'conmon.pid'), 'utf8').catch(() => '0'));
        if (pid > 0) rss.push(await vmRss(pid));
      }
      return rss;
    };
    const shims = async () => {
      const rss: number[] = [];
      for (const p of await listProcesses()) {
        if (p.argv[0]?.endsWith('containerd-shim-runc-v2') && p.argv.includes(ctd!.socket)) rss.push(await vmRss(p.pid));
      }
      return rss;
    };
    const embBurst = await burst(dir, emb, conmons);
    const ctdBurst = await burst(dir, remote, shims);
    const floorTimes = await floor(dir, rootfs);

    const f = (x: number) => x.toFixed(0).padStart(10);
    const rows: string[] = [];
    rows.push(`operation (ms, median of ${iterations})`.padEnd(28) + 'embedded'.padStart(10) + 'containerd'.padStart(12) + 'ratio'.padStart(8));
    for (const op of OPS) {
      const a = median(emb.times[op]);
      const b = median(remote.times[op]);
      rows.push(op.padEnd(28) + f(a) + f(b).padStart(12) + (a / b).toFixed(2).padStart(8));
    }
    const sum = (t: Target) => median(t.times.runp) + median(t.times.create) + median(t.times.start);
    rows.push('runp+create+start'.padEnd(28) + f(sum(emb)) + f(sum(remote)).padStart(12) + (sum(emb) / sum(remote)).toFixed(2).padStart(8));
    rows.push('20 runp at once (wall)'.padEnd(28) + f(embBurst.ms) + f(ctdBurst.ms).padStart(12) + (embBurst.ms / ctdBurst.ms).toFixed(2).padStart(8));
    rows.push('floor: runc run -d'.padEnd(28) + f(median(floorTimes)));
    const perPod = (xs: number[], pods: number) => xs.reduce((a, b) => a + b, 0) / pods;
    const embKb = perPod(embBurst.rss, 20);
    const ctdKb = perPod(ctdBurst.rss, 20);
    rows.push('monitor VmRSS per pod (kB)'.padEnd(28) + f(embKb) + f(ctdKb).padStart(12) + (embKb / ctdKb).toFixed(2).padStart(8));
    rows.push(`  (embedded: ${embBurst.rss.length} conmon, median ${median(embBurst.rss)} kB; containerd: ${ctdBurst.rss.length} shims, median ${median(ctdBurst.rss)} kB)`);
    console.log(rows.join('\n'));
  } finally {
    await cli(emb, ['rmp', '-a', '-f']).catch(() => undefined);
    await ctd?.stop().catch((e) => console.error(`containerd stop: ${(e as Error).message}`));
    await registry?.stop().catch(() => undefined);
    if (bridge) await run('ip', ['link', 'del', bridge], { check: false });
    await unmountUnder(dir).catch(() => undefined);
    for (const c of await readdir('/sys/fs/cgroup').catch(() => [] as string[])) await rmdir(join('/sys/fs/cgroup', c, cgroupParent)).catch(() => undefined);
    await removeTempDir(dir);
    if (cliDir !== REPO) await rm(cliDir, { recursive: true, force: true });
  }
}

await main();
