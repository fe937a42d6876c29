// Daemon memory and CPU, side by side in one run: `isulats daemon` (one or more launch variants)
// and containerd 1.6, all started first, then for every target in turn:
// - start: VmRSS once it answers;
// - idle: after one round of the calls a quiet node makes (rss-activity.ts: pull, a pod with a
//   container, ExecSync, stats, lists, removal) and BENCH_SETTLE_S seconds (default 10) of quiet,
//   the median of three reads a second apart (containerd's idle figure is also after serving calls);
// - N pods at once (`run --no-pull` from N CLI processes, or RunPodSandbox + CreateContainer +
//   StartContainer from one in-process gRPC client), read a second after the last one started and
//   again after BENCH_SETTLE_S with the pods still running, with the CPU time the daemon used for them (its own, and its reaped children's: runc, CNI plugins,
//   conmon's first stage).
// Memory from /proc/PID/status: VmRSS, split into anonymous and file-backed, and the high-water mark.
// N defaults to 50, clients to grpc.
// Usage: node bench/daemon/run.mjs --rss [N] [cli|grpc] [VARIANT...]
//   VARIANT = name=ITEM,ITEM...: a daemon launched with these Node.js flags (--x) and environment
//   variables (K=V), e.g. `tuned= defaults=ISULATS_DAEMON_REEXEC=0` (the daemon's own settings
//   against Node's defaults), and `checkout=DIR` runs another built checkout's daemon (DIR/bin/isulats),
//   e.g. `isulats= main=checkout=/tmp/main-copy`; default: one daemon as shipped. BENCH_SMAPS=1 adds RSS by mapping;
//   BENCH_PROBE=1 adds the V8 heap (process.memoryUsage, heap spaces) of each isulats variant at
//   idle; BENCH_NO_CONTAINERD=1 leaves containerd out.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../../test/rig/cli.js';
import { startContainerd } from '../../test/rig/containerd.js';
import { writeContainerConfig, writePodConfig } from '../../test/rig/pod-configs.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { runPodsInProcess } from './common.js';
import { serveOneRound } from './rss-activity.js';

const args = process.argv.slice(2).filter((a) => a !== '--rss');
const n = Number(args[0] ?? '50');
const mode = (args[1] ?? 'grpc') as 'cli' | 'grpc';
const settleMs = Number(process.env.BENCH_SETTLE_S ?? '10') * 1000;
const variants = (args.length > 2 ? args.slice(2) : ['isulats=']).map((v) => {
  const [name, flags = ''] = v.split(/=(.*)/s);
  const nodeArgs: string[] = [];
  const env: Record<string, string> = {};
  let binPath: string | undefined;
  for (const f of flags.split(',').filter(Boolean)) {
    if (f.startsWith('--')) nodeArgs.push(f);
    else if (f.startsWith('checkout=')) binPath = join(f.slice('checkout='.length), 'bin/isulats');
    else env[f.split('=')[0]!] = f.split('=').slice(1).join('=');
  }
  return { name: name!, nodeArgs, env, binPath };
});

interface Target {
  name: string;
  endpoint: string;
  pid: number;
  /** Where the heap probe writes (isulats variants under BENCH_PROBE=1). */
  probeOut?: string;
}

const CLK_TCK = 100;
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
const mb = (kb = 0) => (kb / 1024).toFixed(1);

async function procStat(pid: number): Promise<{ self: number; children: number }> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
  // fields after the comm: state=0 ... utime=11 stime=12 cutime=13 cstime=14
  return { self: ((f[11] ?? 0) + (f[12] ?? 0)) * (1000 / CLK_TCK), children: ((f[13] ?? 0) + (f[14] ?? 0)) * (1000 / CLK_TCK) };
}

type Memory = Record<'VmRSS' | 'VmHWM' | 'RssAnon' | 'RssFile' | 'Threads', number>;

async function memory(pid: number): Promise<Memory> {
  const out = { VmRSS: 0, VmHWM: 0, RssAnon: 0, RssFile: 0, Threads: 0 };
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  for (const key of Object.keys(out) as Array<keyof Memory>) {
    const m = new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status);
    if (m) out[key] = Number(m[1]);
  }
  return out;
}

/** The Node.js flags a process runs with: its argv between node and the script. */
async function nodeFlags(pid: number): Promise<string> {
  const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(1);
  return argv.slice(0, Math.max(0, argv.findIndex((a) => !a.startsWith('--')))).join(' ');
}

/** The median (by VmRSS) of three reads a second apart. */
async function settledMemory(pid: number): Promise<Memory> {
  const reads: Memory[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await sleep(1000);
    reads.push(await memory(pid));
  }
  return reads.sort((a, b) => a.VmRSS - b.VmRSS)[1]!;
}

/** RSS by mapping name (files, [heap], [stack], anonymous), largest first. */
async function smapsSummary(pid: number): Promise<string> {
  const by = new Map<string, number>();
  let name = '';
  for (const line of (await readFile(`/proc/${pid}/smaps`, 'utf8')).split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) name = `${head[2] || '(anonymous)'} ${head[1]}`;
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss) by.set(name, (by.get(name) ?? 0) + Number(rss[1]));
  }
  return [...by].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `  ${mb(v)} MB ${k}`).join('\n');
}

/** Preloaded into isulats variants under BENCH_PROBE=1: SIGUSR2 writes the V8 heap figures to a file. */
const PROBE = `
const { writeFileSync } = require('node:fs');
const v8 = require('node:v8');
process.on('SIGUSR2', () => {
  const kb = (b) => Math.round(b / 1024);
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, kb(s.physical_space_size)]));
  const h = v8.getHeapStatistics();
  const u = process.memoryUsage();
  writeFileSync(process.env.BENCH_PROBE_OUT, JSON.stringify({ rss: kb(u.rss), heapTotal: kb(u.heapTotal), heapUsed: kb(u.heapUsed), external: kb(u.external), arrayBuffers: kb(u.arrayBuffers), physical: kb(h.total_physical_size), malloced: kb(h.malloced_memory), peakMalloced: kb(h.peak_malloced_memory), spaces }));
});`;

async function probe(t: Target): Promise<string> {
  if (!t.probeOut) return '';
  await writeFile(t.probeOut, '');
  process.kill(t.pid, 'SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    const text = await readFile(t.probeOut, 'utf8');
    if (text) return `  V8 (KB): ${text}`;
  }
  return '  V8: no answer from the probe';
}

function cli(endpoint: string, argv: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/isulats', '-r', endpoint, '-t', '120s', ...argv], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function runPods(target: Target, dir: string, image: string): Promise<{ ms: number; failures: number }> {
  if (mode === 'cli') {
    const configs: Array<[string, string]> = [];
    for (let i = 0; i < n; i++) {
      const name = `r${n}-${target.name}-${i}`;
      configs.push([await writeContainerConfig(dir, { name, image, command: ['sleep', '3600'] }), await writePodConfig(dir, { name })]);
    }
    const t1 = process.hrtime.bigint();
    const codes = await Promise.all(configs.map(([ctr, pod]) => cli(target.endpoint, ['run', '--no-pull', ctr, pod])));
    return { ms: Number(process.hrtime.bigint() - t1) / 1e6, failures: codes.filter((c) => c !== 0).length };
  }
  const t0 = process.hrtime.bigint();
  const errors = await runPodsInProcess(target.endpoint, image, Array.from({ length: n }, (_, i) => `g${n}-${target.name}-${i}`));
  for (const e of errors.slice(0, 3)) console.error(`  ${target.name}: ${e}`);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, failures: errors.length };
}

runBenchWithRig(async (rig) => {
  const { images, daemons, dir } = rig;
  const targets: Target[] = [];
  const probeFile = join(dir, 'probe.cjs');
  if (process.env.BENCH_PROBE === '1') await writeFile(probeFile, PROBE);
  for (const v of variants) {
    const probeOut = process.env.BENCH_PROBE === '1' ? join(dir, `probe-${v.name}.json`) : undefined;
    const nodeArgs = probeOut ? [`--require=${probeFile}`, ...v.nodeArgs] : v.nodeArgs;
    const env = probeOut ? { ...v.env, BENCH_PROBE_OUT: probeOut } : v.env;
    const d = await startIsulatsDaemon({ podSandboxImage: images.pause, nodeArgs, env, binPath: v.binPath });
    daemons.push(d);
    targets.push({ name: v.name, endpoint: d.endpoint, pid: d.pid, probeOut });
  }
  if (process.env.BENCH_NO_CONTAINERD !== '1') {
    const containerd = (rig.containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [rig.registry.host] }));
    targets.push({ name: 'containerd', endpoint: containerd.endpoint, pid: containerd.pid });
  }
  await sleep(2000);
  const start = new Map<string, Memory>();
  for (const t of targets) start.set(t.name, await memory(t.pid));

  for (const t of targets) {
    for (const img of [images.busybox, images.pause]) if ((await cli(t.endpoint, ['pull', img])) !== 0) throw new Error(`${t.name}: pull ${img} failed`);
    const failed = await serveOneRound(t.endpoint, images.busybox, `idle-${t.name}`);
    if (failed.length > 0) console.log(`${t.name}: calls that failed in the idle round: ${failed.join('; ')}`);
  }
  await sleep(settleMs);
  console.log(`idle: after one round of calls and ${settleMs / 1000} s; memory in MB`);
  console.log(['target', 'RSS start', 'RSS idle', 'anon', 'file', 'HWM', 'threads'].join('\t'));
  for (const t of targets) {
    const m = await settledMemory(t.pid);
    console.log([t.name, mb(start.get(t.name)!.VmRSS), mb(m.VmRSS), mb(m.RssAnon), mb(m.RssFile), mb(m.VmHWM), m.Threads].join('\t'));
    if (process.env.BENCH_SMAPS) console.log(await smapsSummary(t.pid));
    const heap = await probe(t);
    if (heap) console.log(heap);
  }
  for (const t of targets.filter((x) => x.name !== 'containerd')) console.log(`${t.name}: node ${await nodeFlags(t.pid)}`);
  if (n <= 0) return;

  console.log(`N=${n} pods per target, ${mode} clients; memory in MB, CPU in ms`);
  console.log(['target', 'wall', 'failed', 'RSS before', 'RSS after', 'RSS settled', 'HWM', 'anon', 'file', 'threads', 'cpu self', 'cpu children'].join('\t'));
  for (const t of targets) {
    const before = await memory(t.pid);
    const cpu0 = await procStat(t.pid);
    const r = await runPods(t, dir, images.busybox);
    await sleep(1000);
    const after = await memory(t.pid);
    const cpu1 = await procStat(t.pid);
    await sleep(settleMs);
    const settled = await settledMemory(t.pid);
    console.log([t.name, r.ms.toFixed(0), r.failures, mb(before.VmRSS), mb(after.VmRSS), mb(settled.VmRSS), mb(after.VmHWM), mb(after.RssAnon), mb(after.RssFile), after.Threads,
      (cpu1.self - cpu0.self).toFixed(0), (cpu1.children - cpu0.children).toFixed(0)].join('\t'));
    if (process.env.BENCH_SMAPS) console.log(await smapsSummary(t.pid));
    const heap = await probe(t);
    if (heap) console.log(heap);
    await cli(t.endpoint, ['rmp', '-a', '-f']);
  }
});
