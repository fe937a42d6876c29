// Lifecycle figures for the embedded engine on this machine: median wall
// time per operation (each on a freshly opened Engine, as a CLI process would
// do), 20 pods started at once, bare `runc run -d` of an equivalent bundle as
// the floor, and VmRSS of the per-container monitors (conmon).
// Usage: node bench/lifecycle/run.mjs [ITERATIONS]
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Engine } from '../../src/runtime/engine.js';
import type { EngineOptions } from '../../src/runtime/config/engine-config.js';
import { populateBusyboxRootfs } from '../../test/rig/busybox-rootfs.js';
import { writeBridgeConflist } from '../../test/rig/cni-conf.js';
import { makeTempDir, removeTempDir } from '../../test/rig/temp-dir.js';
import { run } from '../../test/rig/proc.js';
import { writeFloorBundle } from './floor-bundle.js';

const BUSYBOX = 'isulats-bench/busybox:1';
const iterations = Number(process.argv[2] ?? '5');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = process.hrtime.bigint();
  const v = await fn();
  return [v, Number(process.hrtime.bigint() - t) / 1e6];
}

/** `runc run -d` hands its stdio to the container, so wait for exit, not for the pipes to close. */
function runDetached(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('runc', args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`runc ${args.join(' ')} exited ${code}`))));
  });
}

async function vmRss(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? 0);
}

async function main(): Promise<void> {
  const dir = await makeTempDir('istbench-');
  const confDir = join(dir, 'cni');
  await mkdir(confDir);
  const net = await writeBridgeConflist(confDir, join(dir, 'leases'));
  const options: EngineOptions = { root: join(dir, 'root'), state: join(dir, 'state'), cniConfDir: confDir, cniBinDirs: ['/usr/lib/cni'], cgroupParent: `/isulats-bench-${dir.slice(-6)}`, pauseBinaryPath: join(process.cwd(), 'build/pause/pause') };
  const times: Record<string, number[]> = { open: [], runp: [], create: [], start: [], 'exec -s': [], stop: [], rmp: [], 'runc run -d': [] };
  const podSpec = (name: string) => ({ metadata: { name, namespace: 'bench', uid: `u-${name}`, attempt: 0 } });
  try {
    const setup = await Engine.open(options);
    const rootfs = join(dir, 'rootfs');
    await populateBusyboxRootfs(rootfs);
    await setup.images.buildFromRootfs(rootfs, BUSYBOX, { Cmd: ['sh'] });
    // Warm-up: builds the pause image once.
    const warm = await setup.runPodSandbox({ config: podSpec('warm') });
    await setup.removePodSandbox({ podSandboxId: warm.podSandboxId });
    await setup.close();

    for (let i = 0; i < iterations; i++) {
      const step = async <T>(name: string, fn: (e: Engine) => Promise<T>): Promise<T> => {
        const [e, openMs] = await timed(() => Engine.open(options));
        times.open!.push(openMs);
        const [v, ms] = await timed(() => fn(e));
        times[name]!.push(ms + openMs);
        await e.close();
        return v;
      };
      const config = podSpec(`p${i}`);
      const { podSandboxId } = await step('runp', (e) => e.runPodSandbox({ config }));
      const { containerId } = await step('create', (e) => e.createContainer({ podSandboxId, sandboxConfig: config, config: { metadata: { name: 'c' }, image: { image: BUSYBOX }, command: ['sleep', '3600'] } }));
      await step('start', (e) => e.startContainer({ containerId }));
      await step('exec -s', (e) => e.execSync({ containerId, cmd: ['true'] }));
      await step('stop', (e) => e.stopContainer({ containerId, timeout: 0 }));
      await step('rmp', (e) => e.removePodSandbox({ podSandboxId }));
    }

    // 20 pods at once, each with one running container; then monitor memory.
    const e = await Engine.open(options);
    const [pods, burstMs] = await timed(() => Promise.all(Array.from({ length: 20 }, (_, i) => e.runPodSandbox({ config: podSpec(`burst${i}`) }))));
    const rss: number[] = [];
    for (const [i, p] of pods.entries()) {
      const { containerId } = await e.createContainer({ podSandboxId: p.podSandboxId, sandboxConfig: podSpec(`burst${i}`), config: { metadata: { name: 'c' }, image: { image: BUSYBOX }, command: ['sleep', '3600'] } });
      await e.startContainer({ containerId });
      const bundle = join(options.root, 'containers', containerId, 'bundle');
      rss.push(await vmRss(Number(await readFile(join(bundle, 'conmon.pid'), 'utf8'))));
    }
    for (const p of pods) await e.removePodSandbox({ podSandboxId: p.podSandboxId });
    await e.close();

    // Floor: bare runc on an equivalent bundle.
    const bundle = join(dir, 'floor');
    await writeFloorBundle(bundle, rootfs);
    for (let i = 0; i < iterations; i++) {
      const id = `istbench-floor-${i}-${process.pid}`;
      const [, ms] = await timed(() => runDetached(['--root', join(dir, 'floor-state'), 'run', '-d', '--bundle', bundle, id]));
      times['runc run -d']!.push(ms);
      await run('runc', ['--root', join(dir, 'floor-state'), 'delete', '--force', id], { check: false });
    }

    console.log(`embedded engine lifecycle, median of ${iterations} (ms, each includes Engine.open)`);
    for (const [name, xs] of Object.entries(times)) console.log(`  ${name.padEnd(12)} ${median(xs).toFixed(1)}`);
    const total = median(times.runp!) + median(times.create!) + median(times.start!);
    console.log(`  runp+create+start ${total.toFixed(1)}`);
    console.log(`20 pods started at once: ${burstMs.toFixed(0)} ms`);
    console.log(`conmon VmRSS per container: median ${median(rss)} kB (min ${Math.min(...rss)}, max ${Math.max(...rss)})`);
  } finally {
    await run('ip', ['link', 'del', net.bridge], { check: false });
    // runc removes each container's cgroup; the bench's parent cgroup is ours to remove.
    const controllers = await readdir('/sys/fs/cgroup').catch(() => [] as string[]);
    for (const c of controllers) await rmdir(join('/sys/fs/cgroup', c, options.cgroupParent!)).catch(() => undefined);
    await removeTempDir(dir);
  }
}

await main();
