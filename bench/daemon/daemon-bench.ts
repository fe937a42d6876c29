// `isulats daemon` next to containerd 1.6 in one run, driven by the same client
// (`node bin/isulats -r <endpoint>`): (a) median wall time of whole CLI calls of the pod
// lifecycle; (b) iSulad's published method: N concurrent `run --no-pull CONTAINER-CONFIG
// POD-CONFIG`, time until all N containers run, daemon VmRSS and summed monitor VmRSS
// (conmon of the daemon's containers vs containerd-shim-runc-v2 of our containerd); (c) the
// same N pods through one in-process gRPC client, without a CLI process per pod.
// Usage: node bench/daemon/run.mjs --cli [ITERATIONS] [N,N,...]   (default 5 and 1,10,50)
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { REPO_ROOT } from '../../test/rig/cli.js';
import { startContainerd, type Containerd } from '../../test/rig/containerd.js';
import { listProcesses, type ProcessInfo } from '../../test/rig/host-cleanup.js';
import { pushRigImages } from '../../test/rig/images.js';
import { writeContainerConfig, writePodConfig } from '../../test/rig/pod-configs.js';
import { startRegistry, type Registry } from '../../test/rig/registry.js';
import { makeTempDir } from '../../test/rig/temp-dir.js';
import { teardownBenchRig, runBench } from '../bench-rig.js';
import { startIsulatsDaemon, ourMonitors, type IsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runPodsInProcess } from './common.js';

const iterations = Number(process.argv[2] ?? '5');
const batches = (process.argv[3] ?? '1,10,50').split(',').map(Number);
const CLI_TIMEOUT = '120s';

interface Target {
  name: 'isulats' | 'containerd';
  endpoint: string;
  /** PID of the daemon process. */
  pid: number;
  /** Our temp dir: its path in a monitor's command line marks the monitor as ours. */
  dir: string;
}

interface CallResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** One whole CLI call, timed from spawn to exit. */
function cli(target: Target, args: string[]): Promise<CallResult> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['bin/isulats', '-r', target.endpoint, '-t', CLI_TIMEOUT, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), ms: Number(process.hrtime.bigint() - t0) / 1e6 });
    });
  });
}

async function must(target: Target, args: string[]): Promise<CallResult> {
  const r = await cli(target, args);
  if (r.code !== 0) throw new Error(`${target.name}: isulats ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return r;
}

async function vmRssKb(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = /^VmRSS:\s+(\d+) kB/m.exec(text);
  return m ? Number(m[1]) : 0;
}

/** Monitors of our containers: conmon naming the daemon's dir, or shims naming our containerd's dir. */
function monitorsOf(target: Target, processes: ProcessInfo[]): ProcessInfo[] {
  if (target.name === 'isulats') return ourMonitors(processes, target.dir);
  return processes.filter((p) => (p.argv[0] ?? '').includes('containerd-shim-runc-v2') && p.argv.some((a) => a.includes(target.dir)));
}

async function summedRssKb(pids: number[]): Promise<number> {
  let sum = 0;
  for (const pid of pids) sum += await vmRssKb(pid);
  return sum;
}

const OPS = ['runp', 'create', 'start', 'exec -s', 'stop', 'stopp', 'rmp'] as const;
type Op = (typeof OPS)[number];

async function lifecycleOnce(target: Target, dir: string, image: string, tag: string): Promise<Record<Op, number>> {
  const pod = await writePodConfig(dir, { name: `lc-${target.name}-${tag}` });
  const ctr = await writeContainerConfig(dir, { name: `lc-${target.name}-${tag}`, image, command: ['sleep', '3600'] });
  const times = {} as Record<Op, number>;
  const runp = await must(target, ['runp', pod]);
  times.runp = runp.ms;
  const podId = runp.stdout.trim();
  const create = await must(target, ['create', podId, ctr, pod]);
  times.create = create.ms;
  const cid = create.stdout.trim();
  times.start = (await must(target, ['start', cid])).ms;
  times['exec -s'] = (await must(target, ['exec', '-s', cid, 'true'])).ms;
  times.stop = (await must(target, ['stop', cid])).ms;
  times.stopp = (await must(target, ['stopp', podId])).ms;
  times.rmp = (await must(target, ['rmp', podId])).ms;
  return times;
}

interface BatchResult {
  n: number;
  ms: number;
  daemonKb: number;
  monitorKb: number;
  monitors: number;
  failures: number;
}

async function runningCount(target: Target): Promise<number> {
  const r = await cli(target, ['ps', '-q', '--state', 'running']);
  return r.code === 0 ? r.stdout.split('\n').filter(Boolean).length : -1;
}

async function batch(target: Target, dir: string, image: string, n: number): Promise<BatchResult> {
  const configs: Array<[string, string]> = [];
  for (let i = 0; i < n; i++) {
    const name = `b${n}-${target.name}-${i}`;
    configs.push([
      await writeContainerConfig(dir, { name, image, command: ['sleep', '3600'] }),
      await writePodConfig(dir, { name }),
    ]);
  }
  const t0 = process.hrtime.bigint();
  const results = await Promise.all(configs.map(([ctr, pod]) => cli(target, ['run', '--no-pull', ctr, pod])));
  let running = await runningCount(target);
  for (let i = 0; i < 600 && running < n; i++) {
    await new Promise((r) => setTimeout(r, 50));
    running = await runningCount(target);
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const failures = results.filter((r) => r.code !== 0);
  for (const f of failures.slice(0, 3)) console.error(`  ${target.name} run failed (${f.code}): ${f.stderr.trim()}`);
  const monitors = monitorsOf(target, await listProcesses());
  const result = {
    n, ms: running >= n ? ms : NaN,
    daemonKb: await vmRssKb(target.pid),
    monitorKb: await summedRssKb(monitors.map((p) => p.pid)),
    monitors: monitors.length,
    failures: failures.length,
  };
  await cli(target, ['rmp', '-a', '-f']);
  return result;
}

/**
 * N concurrent `version` calls: the same client processes doing no container work, so the
 * share of (b)'s wall time that N Node.js start-ups take on this machine, whatever the runtime.
 */
async function clientFloor(target: Target, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: n }, () => cli(target, ['version'])));
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/**
 * The same N pods through one in-process CRI v1 client per daemon (no CLI process per pod), so
 * the figure is the daemon's own and not 2N Node.js start-ups on this machine's cores.
 */
async function grpcBatch(target: Target, image: string, n: number): Promise<{ ms: number; failures: number; firstError?: string }> {
  try {
    const t0 = process.hrtime.bigint();
    const errors = await runPodsInProcess(target.endpoint, image, Array.from({ length: n }, (_, i) => `g${n}-${target.name}-${i}`));
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { ms, failures: errors.length, firstError: errors[0] };
  } finally {
    await cli(target, ['rmp', '-a', '-f']);
  }
}

const fmt = (x: number, digits = 0): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const mb = (kb: number): string => fmt(kb / 1024, 1);

async function main(): Promise<void> {
  let registry: Registry | undefined;
  let containerd: Containerd | undefined;
  let daemon: IsulatsDaemon | undefined;
  const dir = await makeTempDir('ist-bd-');
  try {
    registry = await startRegistry();
    const images = await pushRigImages(registry.host);
    containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [registry.host] });
    daemon = await startIsulatsDaemon({ podSandboxImage: images.pause });
    const targets: Target[] = [
      { name: 'isulats', endpoint: daemon.endpoint, pid: daemon.pid, dir: daemon.dir },
      { name: 'containerd', endpoint: containerd.endpoint, pid: containerd.pid, dir: containerd.dir },
    ];
    for (const t of targets) {
      await must(t, ['pull', images.busybox]);
      await must(t, ['pull', images.pause]);
      await lifecycleOnce(t, dir, images.busybox, 'warm'); // first pod pays one-time set-up
    }

    const samples: Record<string, Record<Op, number[]>> = {};
    for (const t of targets) samples[t.name] = Object.fromEntries(OPS.map((op) => [op, []])) as unknown as Record<Op, number[]>;
    for (let i = 0; i < iterations; i++) {
      // Alternate the order so neither side always runs on a machine the other just warmed.
      for (const t of i % 2 ? [...targets].reverse() : targets) {
        const times = await lifecycleOnce(t, dir, images.busybox, String(i));
        for (const op of OPS) samples[t.name]![op].push(times[op]);
      }
    }
    console.log(`\n(a) lifecycle, median wall ms of whole CLI calls over ${iterations} iterations`);
    console.log(`${'operation'.padEnd(10)}${'isulats'.padStart(10)}${'containerd'.padStart(12)}${'ratio'.padStart(8)}  target <= 1.00`);
    for (const op of OPS) {
      const a = median(samples.isulats![op]);
      const b = median(samples.containerd![op]);
      console.log(`${op.padEnd(10)}${fmt(a).padStart(10)}${fmt(b).padStart(12)}${fmt(a / b, 2).padStart(8)}  ${a <= b ? 'met' : 'missed'}`);
    }

    console.log('\n(b) iSulad method: N concurrent `run --no-pull CONTAINER-CONFIG POD-CONFIG`');
    console.log(`${'N'.padStart(3)}  ${'time ms isulats/ctrd (less)'.padEnd(32)}${'daemon RSS MB isulats/ctrd'.padEnd(30)}${'monitor RSS MB conmon(n)/shim(n) ratio'.padEnd(42)}failed`);
    for (const n of batches) {
      const r: Record<string, BatchResult> = {};
      for (const t of targets) r[t.name] = await batch(t, dir, images.busybox, n);
      const a = r.isulats!;
      const b = r.containerd!;
      const less = 1 - a.ms / b.ms;
      const monRatio = a.monitorKb / b.monitorKb;
      console.log(`${String(n).padStart(3)}  ${`${fmt(a.ms)}/${fmt(b.ms)} (${fmt(less * 100)}%)`.padEnd(32)}${`${mb(a.daemonKb)}/${mb(b.daemonKb)} (${fmt(a.daemonKb / b.daemonKb, 2)}x)`.padEnd(30)}${`${mb(a.monitorKb)}(${a.monitors})/${mb(b.monitorKb)}(${b.monitors}) ${fmt(monRatio, 3)}x`.padEnd(42)}${a.failures}/${b.failures}`);
      const floor = await clientFloor(targets[0]!, n);
      console.log(`     client floor: ${n} concurrent \`version\` calls take ${fmt(floor)} ms, so with this client at most ${fmt((1 - floor / b.ms) * 100)}% less than containerd is possible`);
      if (n === Math.max(...batches)) {
        console.log(`targets at N=${n}: time >= 75% less: ${less >= 0.75 ? 'met' : 'missed'} (${fmt(less * 100)}%); ` +
          `monitor RSS <= 0.15x: ${monRatio <= 0.15 ? 'met' : 'missed'} (${fmt(monRatio, 3)}x); ` +
          `daemon RSS <= containerd: ${a.daemonKb <= b.daemonKb ? 'met' : 'missed'} (${fmt(a.daemonKb / b.daemonKb, 2)}x)`);
      }
    }

    console.log('\n(c) the same N pods through one in-process gRPC client per daemon (RunPodSandbox, CreateContainer, StartContainer)');
    console.log(`${'N'.padStart(3)}  ${'time ms isulats/ctrd (less)'.padEnd(32)}failed`);
    for (const n of batches) {
      const a = await grpcBatch(targets[0]!, images.busybox, n);
      const b = await grpcBatch(targets[1]!, images.busybox, n);
      for (const r of [a, b]) if (r.firstError) console.error(`  failure: ${r.firstError}`);
      console.log(`${String(n).padStart(3)}  ${`${fmt(a.ms)}/${fmt(b.ms)} (${fmt((1 - a.ms / b.ms) * 100)}%)`.padEnd(32)}${a.failures}/${b.failures}`);
    }
  } finally {
    for (const t of [daemon ? daemon.endpoint : undefined, containerd?.endpoint]) {
      if (t) await cli({ name: 'isulats', endpoint: t, pid: 0, dir: '' }, ['rmp', '-a', '-f']).catch(() => undefined);
    }
    await teardownBenchRig({ daemons: [daemon], containerd, registry, dir });
  }
}

runBench(main);
