// The daemon benchmark: the same upstream-library Go CRI client (test/go-cri-client) drives
// containerd 1.6 (runc), `isulats daemon` (runc, and crun through a runtime handler) and a floor
// (the same per-pod work with no daemon, runc and crun), interleaved in one run. Prints markdown:
// (1) N pods at once (RunPodSandbox, CreateContainer, StartContainer each): wall time, ratios to
// containerd and to the floor, daemon VmRSS idle and at N, summed monitor VmRSS, CPU, processes
// per pod; (2) per-call medians; (3) the lifecycle one call at a time; (4) execs per CRI call
// (strace). Usage: node bench/daemon/run.mjs [--n 1,10,50] [--iterations 5] [--iterations-large 3]
//   [--lifecycle 5] [--no-trace] [--trace-only] [--load] [--clients process|crictl]   (needs root, strace)
// A busy node: --load runs every measurement while busy loops hold every CPU (bench/load/cpu-load.ts);
// --clients process makes each pod with one client process per call (process-clients.ts; the runc
// targets, crun's handler needs the one-process client); --clients crictl does it with upstream crictl.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { startContainerd } from '../../test/rig/containerd.js';
import { crunForThisHost } from '../../test/rig/crun-path.js';
import { listProcesses, type ProcessInfo } from '../../test/rig/host-cleanup.js';
import { ourMonitors, startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { prepareFloor, type Floor } from './floor.js';
import { goClient, type CallSummary, type FloorOutput, type LifecycleOutput, type RunOutput } from './go-client.js';
import { attribute, describeExecs, parseExecs, traceExecs } from './exec-trace.js';
import { cpuMs, median, summedCpuMs, summedRssKb, vmRssKb } from './proc-stats.js';
import { machineFacts } from './machine.js';
import { clientsAlone, crictlAlone, runPodsByCrictl, runPodsByProcess } from './process-clients.js';
import { crictlFor, type Crictl } from './crictl-client.js';
import { crictlBinary } from '../crictl-binary.js';
import { startCpuLoad, type CpuLoad } from '../load/cpu-load.js';
import { mdTable, fmt, mib } from './markdown.js';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const opt = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] ?? dflt : dflt;
};
const flag = (name: string): boolean => process.argv.includes(name);
const NS = opt('--n', '1,10,50').split(',').map(Number);
const ITER_SMALL = Number(opt('--iterations', '5'));
const ITER_LARGE = Number(opt('--iterations-large', '3'));
const LIFECYCLE = Number(opt('--lifecycle', '5'));
const LOAD = flag('--load');
const CLIENTS = opt('--clients', 'one');
/** --clients crictl: upstream crictl processes (crictl-client.ts) in place of the Go client's. */
const CRICTL_CLIENTS = CLIENTS === 'crictl';
const PROCESS_CLIENTS = CLIENTS === 'process' || CRICTL_CLIENTS;
const CORES = availableParallelism();

interface DaemonTarget {
  kind: 'daemon';
  key: string;
  label: string;
  endpoint: string;
  pid: number;
  handler: string;
  floorKey: string;
  monitors(ps: ProcessInfo[]): ProcessInfo[];
}
interface FloorTarget { kind: 'floor'; key: string; label: string; runtime: string }
/** --clients process: the client processes alone (what every runtime pays for them), against `endpoint`. */
interface ClientsTarget { kind: 'clients'; key: string; label: string; endpoint: string }
type Target = DaemonTarget | FloorTarget | ClientsTarget;

interface Sample {
  wallMs: number;
  failed: number;
  rssIdleKb?: number;
  rssAtNKb?: number;
  monitorKb?: number;
  monitors?: number;
  cpuSelfMs?: number;
  cpuTotalMs?: number;
  teardownMs: number;
  calls: CallSummary;
  /** CPU of the bench's own child processes over the run: the client processes (for the floor, its whole work). */
  clientCpuMs?: number;
}

let seq = 0;

/** --clients crictl: one crictl (its config file) per endpoint. */
const crictls = new Map<string, Promise<Crictl>>();
function crictlOf(endpoint: string, ctx: { dir: string; image: string }): Promise<Crictl> {
  let c = crictls.get(endpoint);
  if (!c) {
    // Found once per endpoint: the lookup hashes the cri-tools tarball.
    const bin = crictlBinary();
    if (!bin) throw new Error('no crictl: run scripts/build-critest.sh --crictl-only');
    crictls.set(endpoint, (c = crictlFor(bin, endpoint, ctx.dir, ctx.image, `c${crictls.size}`)));
  }
  return c;
}

async function measure(t: Target, n: number, ctx: { floor: Floor; image: string; logRoot: string; dir: string }): Promise<Sample> {
  const tag = `${t.key.replace(/\W/g, '')}${n}x${seq++}`;
  const children0 = (await cpuMs(process.pid)).children;
  const clientCpu = async () => (await cpuMs(process.pid)).children - children0;
  if (t.kind === 'clients') {
    const r = CRICTL_CLIENTS ? await crictlAlone(await crictlOf(t.endpoint, ctx), n) : await clientsAlone(t.endpoint, n);
    return { wallMs: r.failed ? NaN : r.wallMs, failed: r.failed, teardownMs: 0, calls: {}, clientCpuMs: await clientCpu() };
  }
  if (t.kind === 'floor') {
    const r = await ctx.floor.run(n, t.runtime, tag);
    return { wallMs: r.failed ? NaN : r.wallMs, failed: r.failed, teardownMs: r.teardownMs, calls: r.calls, clientCpuMs: await clientCpu() };
  }
  const rssIdleKb = await vmRssKb(t.pid);
  const cpu0 = await cpuMs(t.pid);
  const r: Pick<RunOutput, 'wallMs' | 'failed' | 'errors'> & { calls?: CallSummary } = CRICTL_CLIENTS
    ? await runPodsByCrictl(await crictlOf(t.endpoint, ctx), n, { label: tag, name: 'web' })
    : PROCESS_CLIENTS
    ? await runPodsByProcess(t.endpoint, n, { label: tag, name: 'web-frontend', image: ctx.image })
    : await goClient<RunOutput>(['run', '-n', String(n), '-name', 'web-frontend', '-label', tag, '-log-root', ctx.logRoot,
      '-image', ctx.image, '-handler', t.handler], { endpoint: t.endpoint });
  const cpu1 = await cpuMs(t.pid);
  const clientCpuMs = await clientCpu();
  const rssAtNKb = await vmRssKb(t.pid);
  const monitors = t.monitors(await listProcesses()).map((p) => p.pid);
  const monitorKb = await summedRssKb(monitors);
  const monitorCpu = await summedCpuMs(monitors);
  for (const [e, c] of Object.entries(r.errors).slice(0, 2)) console.error(`  ${t.label} N=${n}: ${c}× ${e}`);
  const down = await goClient<{ wallMs: number }>(['teardown', '-label', tag], { endpoint: t.endpoint });
  return {
    wallMs: r.failed ? NaN : r.wallMs, failed: r.failed, rssIdleKb, rssAtNKb, monitorKb, monitors: monitors.length,
    cpuSelfMs: cpu1.self - cpu0.self,
    cpuTotalMs: cpu1.self - cpu0.self + cpu1.children - cpu0.children + monitorCpu,
    teardownMs: down.wallMs, calls: r.calls ?? {}, clientCpuMs,
  };
}

const POD_CALLS = ['RunPodSandbox', 'CreateContainer', 'StartContainer'];
const FLOOR_STEPS = ['netns', 'CNI ADD', 'run pause', 'run container'];

/** Execs per call for one pod's lifecycle on a daemon, strace attached to it first. */
async function traceDaemon(t: DaemonTarget, dir: string, image: string, logRoot: string): Promise<Array<{ call: string; execs: string[] }>> {
  const tracer = await traceExecs(t.pid, join(dir, `strace-${t.key.replace(/\W/g, '')}.txt`));
  const out = await goClient<LifecycleOutput>(['lifecycle', '-k', '1', '-gap', '700ms', '-pull', '-name', 'traced-pod', '-label', `trace-${t.key}`,
    '-log-root', logRoot, '-image', image, '-handler', t.handler], { endpoint: t.endpoint }).finally(() => sleep(700));
  return attribute(await tracer.stop(), out.timeline);
}

/** Execs per step of one floor pod (strace wrapping the Go client, which spawns them). */
async function traceFloor(floor: Floor, runtime: string, dir: string): Promise<Array<{ call: string; execs: string[] }>> {
  const tag = `trace${seq++}`;
  await floor.prepare(runtime, tag);
  const file = join(dir, `strace-floor-${tag}.txt`);
  const out = await goClient<FloorOutput>([...floor.args(1, runtime, tag), '-gap', '700ms'], { prefix: ['strace', '-f', '-qq', '-e', 'trace=execve', '-ttt', '-o', file] });
  // The Go client's own exec (the first event) is before the first step: left out by the windows.
  const events = parseExecs(await readFile(file, 'utf8'));
  const pod = out.pods[0]!;
  return attribute(events, [...pod.calls, ...pod.teardown]);
}

runBenchWithRig(async (rig) => {
  const { images, dir } = rig;
  const facts = await machineFacts();
  const containerd = (rig.containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [rig.registry.host] }));
  const crun = await crunForThisHost();
  const daemon = await startIsulatsDaemon({ podSandboxImage: images.pause, extraConfig: { runtimes: { crun: { path: crun } } } });
  rig.daemons.push(daemon);
  // BENCH_BEFORE_BIN=<checkout>/bin/isulats: another build's daemon (runc) in the same interleaved rounds.
  const beforeBin = process.env.BENCH_BEFORE_BIN;
  const before = beforeBin ? await startIsulatsDaemon({ podSandboxImage: images.pause, binPath: beforeBin }) : undefined;
  if (before) rig.daemons.push(before);
  const floor = await prepareFloor(join(dir, 'floor'));
  const logRoot = join(dir, 'pod-logs');
  let load: CpuLoad | undefined;
  try {
    const shims = (ps: ProcessInfo[]) => ps.filter((p) => (p.argv[0] ?? '').includes('containerd-shim-runc-v2') && p.argv.some((a) => a.includes(containerd.dir)));
    const conmons = (ps: ProcessInfo[]) => ourMonitors(ps, daemon.dir);
    const daemons: DaemonTarget[] = [
      { kind: 'daemon', key: 'containerd', label: 'containerd 1.6 (runc)', endpoint: containerd.endpoint, pid: containerd.pid, handler: '', floorKey: 'floor-runc', monitors: shims },
      { kind: 'daemon', key: 'isulats-runc', label: 'isulats (runc)', endpoint: daemon.endpoint, pid: daemon.pid, handler: '', floorKey: 'floor-runc', monitors: conmons },
      { kind: 'daemon', key: 'isulats-crun', label: 'isulats (crun)', endpoint: daemon.endpoint, pid: daemon.pid, handler: 'crun', floorKey: 'floor-crun', monitors: conmons },
    ];
    const floors: FloorTarget[] = [
      { kind: 'floor', key: 'floor-runc', label: 'floor (runc)', runtime: 'runc' },
      { kind: 'floor', key: 'floor-crun', label: 'floor (crun)', runtime: crun },
    ];
    if (before) daemons.push({ kind: 'daemon', key: 'isulats-before', label: 'isulats, before (runc)', endpoint: before.endpoint, pid: before.pid, handler: '', floorKey: 'floor-runc', monitors: (ps) => ourMonitors(ps, before.dir) });
    // BENCH_TARGETS=key,key (containerd, isulats-runc, isulats-crun, isulats-before, floor-runc, floor-crun): a subset.
    const only = process.env.BENCH_TARGETS?.split(',');
    const targets: Target[] = [...daemons, ...floors].filter((t) => (!only || t.key === 'containerd' || only.includes(t.key))
      && !(PROCESS_CLIENTS && t.kind === 'daemon' && t.handler !== ''));
    // What the client processes cost by themselves, on the same CPUs: part of every runtime's figure.
    if (PROCESS_CLIENTS) targets.push({ kind: 'clients', key: 'clients', label: `${CRICTL_CLIENTS ? 'crictl' : 'client'} processes alone (3 per pod, a Version call each)`, endpoint: containerd.endpoint });
    for (const t of daemons.filter((d) => d.handler === '')) {
      for (const image of [images.busybox, images.pause]) await goClient(['pull', '-image', image], { endpoint: t.endpoint });
    }
    const ctx = { floor, image: images.busybox, logRoot, dir };
    // First pods pay one-time set-up (image unpack, caches): not measured.
    for (const t of targets) await measure(t, 1, ctx);

    const out: string[] = [];
    const print = (s = '') => { out.push(s); console.log(s); };
    print(`## Daemon benchmark, ${new Date().toISOString().slice(0, 10)}`);
    print();
    print(facts);
    print();
    if (LOAD || PROCESS_CLIENTS) {
      print(`Busy node: ${[LOAD ? 'every measurement under busy loops holding every CPU' : '', PROCESS_CLIENTS ? `one ${CRICTL_CLIENTS ? 'crictl' : 'client'} process per call (${CRICTL_CLIENTS ? 'crictl runp, create, start' : 'run-pod, create-container, start-container'} per pod)` : ''].filter(Boolean).join('; ')}.`);
      print();
    }
    // --load: busy loops for every measurement below (the traces included), stopped at the end.
    if (LOAD) load = startCpuLoad();

    const execsPerPod = new Map<string, number>();
    if (!flag('--no-trace')) {
      console.error('[bench] tracing execs per call');
      const traced: Record<string, Array<{ call: string; execs: string[] }>> = {};
      for (const t of daemons) traced[t.key] = await traceDaemon(t, dir, images.busybox, logRoot);
      const floorTrace: Record<string, Array<{ call: string; execs: string[] }>> = {};
      for (const f of floors) floorTrace[f.key] = await traceFloor(floor, f.runtime, dir);
      print('### Processes spawned per CRI call (strace -f -e trace=execve on the daemon, one pod, calls 0.7 s apart)');
      print();
      const calls = traced.containerd!.map((c) => c.call);
      print(mdTable(['call', ...daemons.map((t) => t.label)], calls.map((call) => [call,
        ...daemons.map((t) => { const e = traced[t.key]!.find((c) => c.call === call)?.execs ?? []; return `${e.length}: ${describeExecs(e)}`; })])));
      print();
      const perPod = (rows: Array<{ call: string; execs: string[] }>, names: string[]) => rows.filter((r) => names.includes(r.call)).reduce((s, r) => s + r.execs.length, 0);
      for (const t of daemons) execsPerPod.set(t.key, perPod(traced[t.key]!, POD_CALLS));
      for (const f of floors) execsPerPod.set(f.key, perPod(floorTrace[f.key]!, FLOOR_STEPS));
      print(`Per pod (RunPodSandbox + CreateContainer + StartContainer; the container's own pause and sleep included): ` +
        `${targets.map((t) => `${t.label} ${execsPerPod.get(t.key)}`).join(', ')}.`);
      print();
      print(mdTable(['floor step', ...floors.map((f) => f.label)], floorTrace[floors[0]!.key]!.map((r, i) => [r.call,
        ...floors.map((f) => { const e = floorTrace[f.key]![i]?.execs ?? []; return `${e.length}: ${describeExecs(e)}`; })])));
      print();
      if (flag('--trace-only')) return;
    }

    const results = new Map<string, Sample[]>();
    for (const n of NS) {
      const iterations = n >= 50 ? ITER_LARGE : ITER_SMALL;
      for (let i = 0; i < iterations; i++) {
        // Rotate the order so no target always follows the same one.
        const order = targets.map((_, j) => targets[(i + j) % targets.length]!);
        for (const t of order) {
          console.error(`[bench] N=${n} iteration ${i + 1}/${iterations}: ${t.label}`);
          const s = await measure(t, n, ctx);
          const key = `${n}/${t.key}`;
          results.set(key, [...(results.get(key) ?? []), s]);
        }
      }
    }
    const med = (n: number, key: string, f: (s: Sample) => number | undefined) => median((results.get(`${n}/${key}`) ?? []).map((s) => f(s) ?? NaN));
    print(`### N pods at once: RunPodSandbox + CreateContainer + StartContainer each (medians; ${ITER_SMALL} iterations, ${ITER_LARGE} at N ≥ 50)`);
    print();
    const rows: string[][] = [];
    for (const n of NS) {
      for (const t of targets) {
        const wall = med(n, t.key, (s) => s.wallMs);
        const ctd = med(n, 'containerd', (s) => s.wallMs);
        const fl = med(n, t.kind === 'daemon' ? t.floorKey : t.key, (s) => s.wallMs);
        const failed = (results.get(`${n}/${t.key}`) ?? []).reduce((a, s) => a + s.failed, 0);
        rows.push([String(n), t.label, fmt(wall), fmt(wall / ctd, 2), fmt(wall / fl, 2),
          t.kind === 'daemon' ? mib(med(n, t.key, (s) => s.rssIdleKb)) : '—',
          t.kind === 'daemon' ? mib(med(n, t.key, (s) => s.rssAtNKb)) : '—',
          t.kind === 'daemon' ? `${mib(med(n, t.key, (s) => s.monitorKb))} (${fmt(med(n, t.key, (s) => s.monitors))})` : '—',
          t.kind === 'daemon' ? fmt(med(n, t.key, (s) => s.cpuSelfMs)) : '—',
          t.kind === 'daemon' ? fmt(med(n, t.key, (s) => s.cpuTotalMs)) : '—',
          String(execsPerPod.get(t.key) ?? 'n/a'), fmt(med(n, t.key, (s) => s.teardownMs)), String(failed),
          ...(PROCESS_CLIENTS ? [fmt(med(n, t.key, (s) => s.clientCpuMs)), fmt(med(n, t.key, (s) => ((s.cpuTotalMs ?? 0) + (s.clientCpuMs ?? 0)) / CORES))] : [])]);
      }
    }
    print(mdTable(['N', 'target', 'wall ms', '× containerd', '× floor', 'daemon RSS idle MiB', 'daemon RSS at N MiB', 'monitors RSS MiB (count)',
      'daemon CPU ms', 'CPU ms incl. children + monitors', 'execs per pod', 'teardown ms', 'failed',
      ...(PROCESS_CLIENTS ? ['client processes CPU ms', `(runtime + client CPU) / ${CORES} cores, ms`] : [])], rows));
    print();
    if (PROCESS_CLIENTS) {
      print(`The last column is the least wall time the CPU allows: every millisecond of CPU the runtime (daemon, its children and monitors) and the client processes spent, spread over ${CORES} cores with none idle. For the floor the client is the Go client that runs runc and the CNI plugins itself, so its whole work is in "client processes CPU".`);
      print();
    }
    // One process per call has no per-call timeline (each process times only itself).
    if (!PROCESS_CLIENTS) {
      print('Per-call medians / p90 in ms within those runs (median over iterations):');
      print();
      const callRows: string[][] = [];
      for (const n of NS) {
        for (const t of targets) {
          const names = t.kind === 'daemon' ? POD_CALLS : FLOOR_STEPS;
          callRows.push([String(n), t.label, ...names.map((c) => `${fmt(med(n, t.key, (s) => s.calls[c]?.median))} / ${fmt(med(n, t.key, (s) => s.calls[c]?.p90))}`)]);
        }
      }
      print(mdTable(['N', 'target', 'RunPodSandbox (floor: netns + CNI ADD)', 'CreateContainer (floor: run pause)', 'StartContainer (floor: run container)'],
        callRows.map((r) => (r[1]!.startsWith('floor') ? [r[0]!, r[1]!, mergeFloor(r[2]!, r[3]!), r[4]!, r[5]!] : r.slice(0, 5)))));
      print();
    }

    console.error('[bench] lifecycle');
    const lc = new Map<string, Record<string, number[]>>();
    for (let i = 0; i < LIFECYCLE; i++) {
      for (const t of i % 2 ? [...daemons].reverse() : daemons) {
        const r = await goClient<LifecycleOutput>(['lifecycle', '-k', '1', '-pull', '-name', 'lifecycle-pod', '-label', `lc-${t.key}`, '-log-root', logRoot,
          '-image', images.busybox, '-handler', t.handler], { endpoint: t.endpoint });
        const acc = lc.get(t.key) ?? {};
        for (const c of r.timeline) (acc[c.call] ??= []).push(c.ms);
        lc.set(t.key, acc);
      }
    }
    print(`### Lifecycle, one call at a time (median ms over ${LIFECYCLE} pods)`);
    print();
    const ops = Object.keys(lc.get('containerd') ?? {});
    print(mdTable(['call', ...daemons.map((t) => t.label), ...daemons.slice(1).map((t) => `${t.label} / containerd`)], ops.map((op) => {
      const m = daemons.map((t) => median(lc.get(t.key)?.[op] ?? []));
      return [op === 'Exec' ? 'Exec (+ SPDY stream)' : op === 'PullImage' ? 'PullImage (after RemoveImage)' : op, ...m.map((x) => fmt(x, 1)), ...m.slice(1).map((x) => fmt(x / m[0]!, 2))];
    })));
    print();
  } finally {
    await load?.stop();
    await floor.cleanup().catch((e: Error) => console.error(`floor cleanup: ${e.message}`));
  }
});

function mergeFloor(a: string, b: string): string {
  const [a50, a90] = a.split(' / ').map(Number);
  const [b50, b90] = b.split(' / ').map(Number);
  return `${fmt(a50! + b50!)} / ${fmt(a90! + b90!)}`;
}
