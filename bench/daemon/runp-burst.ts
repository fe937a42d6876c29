// A quicker go-bench for one question: N pods at once (the Go client's `run`) on isulats daemon
// variants of V8/libuv settings, optionally containerd, and the floor (runc), interleaved; wall
// time, daemon CPU (and its main thread's) and per-call medians. Variants: default (the daemon's own re-exec flags),
// nolite (those without --lite-mode), noreexec (Node's defaults), semi<MB> (another
// --max-semi-space-size), uv<N> (UV_THREADPOOL_SIZE), nobatch (the addon's spawn workers left
// SCHED_OTHER: ISULATS_SPAWN_BATCH=0), before (the daemon of BENCH_BEFORE_BIN=
// <checkout>/bin/isulats, another build, with its own settings). --prof DIR: a --cpu-prof per variant, and
// each burst's window on the profile's clock. --strace DIR: `strace -f -T -ttt` of each isulats
// burst (daemon threads and children) into DIR/<variant>-<N>-<i>.txt. --perf DIR: `perf record -g` of
// the same into DIR/<variant>-<N>-<i>.data (e.g. the share of ext4's inode allocator in the daemon's CPU).
//   node bench/daemon/run.mjs --burst --n 50,10 --iterations 2 --variants default,nolite --containerd [--no-floor] [--prof DIR] [--strace DIR] [--perf DIR]
import { join } from 'node:path';
import { startContainerd } from '../../test/rig/containerd.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { prepareFloor } from './floor.js';
import { goClient, type RunOutput } from './go-client.js';
import { cpuMs, median } from './proc-stats.js';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { signalPid } from '../../test/rig/proc.js';
import { readFile } from 'node:fs/promises';

/** CPU time of a process's main thread (the event loop's; its TID is the PID), in ms; NaN for containerd's. */
async function mainThreadCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').catch(() => '');
  return Number(stat.split(' ')[0]) / 1e6;
}

const opt = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] ?? dflt : dflt;
};
const NS = opt('--n', '50').split(',').map(Number);
const ITER = Number(opt('--iterations', '2'));
const VARIANTS = opt('--variants', 'default').split(',');
const PROF = opt('--prof', '');
const STRACE = opt('--strace', '');
const PERF = opt('--perf', '');

/** A tracer (strace or perf) on a process, its threads and its children, until stopped. */
async function traceAll(tracer: 'strace' | 'perf', pid: number, file: string): Promise<() => Promise<void>> {
  mkdirSync(tracer === 'strace' ? STRACE : PERF, { recursive: true });
  const args = tracer === 'strace' ? ['-f', '-qq', '-T', '-ttt', '-o', file, '-p', String(pid)] : ['record', '-q', '-g', '-F', '999', '-o', file, '-p', String(pid)];
  const child = spawn(tracer, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await sleep(1500); // neither gives a sign that it attached to every thread
  return async () => {
    signalPid(child.pid!, 'SIGINT');
    await Promise.race([exited, sleep(10_000).then(() => signalPid(child.pid!, 'SIGKILL'))]);
  };
}
const withFloor = !process.argv.includes('--no-floor');

const variantOpts = (v: string): { nodeArgs?: string[]; env?: Record<string, string>; binPath?: string } => {
  const prof = PROF ? ['--cpu-prof', '--cpu-prof-dir', join(PROF, v)] : [];
  const trace: Record<string, string> = {};
  if (v === 'nolite') return { nodeArgs: ['--max-semi-space-size=1', '--optimize-for-size', '--v8-pool-size=1', ...prof], env: { ISULATS_DAEMON_REEXEC: '0', MALLOC_ARENA_MAX: '2', ...trace } };
  if (v === 'noreexec') return { nodeArgs: prof, env: { ISULATS_DAEMON_REEXEC: '0', ...trace } };
  if (v.startsWith('semi')) return { nodeArgs: [`--max-semi-space-size=${v.slice(4)}`, '--optimize-for-size', '--lite-mode', '--no-expose-wasm', '--v8-pool-size=1', ...prof], env: { ISULATS_DAEMON_REEXEC: '0', MALLOC_ARENA_MAX: '2', ...trace } };
  if (v === 'before') {
    if (!process.env.BENCH_BEFORE_BIN) throw new Error('variant "before" needs BENCH_BEFORE_BIN=<checkout>/bin/isulats');
    return { nodeArgs: prof, env: trace, binPath: process.env.BENCH_BEFORE_BIN };
  }
  if (v.startsWith('uv')) return { nodeArgs: prof, env: { UV_THREADPOOL_SIZE: v.slice(2), ...trace } };
  if (v === 'nobatch') return { nodeArgs: prof, env: { ISULATS_SPAWN_BATCH: '0', ...trace } };
  return { nodeArgs: prof, env: trace };
};

runBenchWithRig(async (rig) => {
  const { images, dir } = rig;
  const daemons = new Map<string, { endpoint: string; pid: number }>();
  if (process.argv.includes('--containerd')) {
    const c = (rig.containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [rig.registry.host] }));
    daemons.set('containerd', c);
    for (const image of [images.busybox, images.pause]) await goClient(['pull', '-image', image], { endpoint: c.endpoint });
  }
  for (const v of VARIANTS) {
    const d: IsulatsDaemon = await startIsulatsDaemon({ podSandboxImage: images.pause, ...variantOpts(v) });
    rig.daemons.push(d);
    daemons.set(v, d);
    for (const image of [images.busybox, images.pause]) await goClient(['pull', '-image', image], { endpoint: d.endpoint });
  }
  const floor = await prepareFloor(join(dir, 'floor'));
  const logRoot = join(dir, 'pod-logs');
  let seq = 0;
  type Result = { wall: number; calls: Record<string, number>; cpu?: number; mainCpu?: number };
  const results = new Map<string, Result[]>();
  const add = (k: string, r: Result) => results.set(k, [...(results.get(k) ?? []), r]);
  try {
    for (const n of NS) {
      for (let i = 0; i < ITER; i++) {
        // The order rotates each iteration: a daemon's teardown leaves background deletions that
        // would otherwise always fall into the same next target's burst.
        const order = [...daemons];
        for (const [v, d] of [...order.slice(i % order.length), ...order.slice(0, i % order.length)]) {
          const tag = `b${v}${n}x${seq++}`.replace(/\W/g, '');
          const tracer = STRACE && v !== 'containerd' ? 'strace' : PERF ? 'perf' : undefined;
          const stopTrace = tracer ? await traceAll(tracer, d.pid, join(tracer === 'strace' ? STRACE : PERF, `${v}-${n}-${i}.${tracer === 'strace' ? 'txt' : 'data'}`)) : undefined;
          const c0 = await cpuMs(d.pid);
          const m0 = await mainThreadCpuMs(d.pid);
          const t0 = process.hrtime.bigint() / 1000n;
          const r = await goClient<RunOutput>(['run', '-n', String(n), '-name', 'web-frontend', '-label', tag, '-log-root', logRoot, '-image', images.busybox], { endpoint: d.endpoint });
          const c1 = await cpuMs(d.pid);
          const mainCpu = (await mainThreadCpuMs(d.pid)) - m0;
          await stopTrace?.();
          // CLOCK_MONOTONIC in µs, the clock of a .cpuprofile's startTime: the burst's window in the profile.
          if (PROF) console.error(`[bench] ${v} N=${n} window ${t0}-${process.hrtime.bigint() / 1000n} us`);
          for (const [e, c] of Object.entries(r.errors).slice(0, 2)) console.error(`  ${v} N=${n}: ${c}x ${e}`);
          add(`${v} N=${n}`, { wall: r.wallMs, cpu: c1.self - c0.self, mainCpu, calls: Object.fromEntries(Object.entries(r.calls).map(([k, s]) => [k, s.median])) });
          console.error(`[bench] ${v} N=${n}: ${r.wallMs.toFixed(0)} ms, cpu ${(c1.self - c0.self).toFixed(0)} ms (main thread ${mainCpu.toFixed(0)}), ${JSON.stringify(r.calls)}`);
          await goClient(['teardown', '-label', tag], { endpoint: d.endpoint });
        }
        if (withFloor) {
          const r = await floor.run(n, 'runc', `f${n}x${seq++}`);
          add(`floor N=${n}`, { wall: r.wallMs, calls: Object.fromEntries(Object.entries(r.calls).map(([k, s]) => [k, s.median])) });
          console.error(`[bench] floor N=${n}: ${r.wallMs.toFixed(0)} ms ${JSON.stringify(r.calls)}`);
        }
      }
    }
  } finally {
    await floor.cleanup();
  }
  for (const [k, rs] of results) {
    const calls = Object.keys(rs[0]!.calls).map((c) => `${c} ${median(rs.map((r) => r.calls[c]!)).toFixed(0)}`).join(', ');
    const cpu = rs[0]!.cpu === undefined ? '' : `, daemon cpu ${median(rs.map((r) => r.cpu!)).toFixed(0)} ms (main thread ${median(rs.map((r) => r.mainCpu!)).toFixed(0)} ms)`;
    console.log(`${k}: wall ${median(rs.map((r) => r.wall)).toFixed(0)} ms (${rs.map((r) => r.wall.toFixed(0)).join('/')})${cpu}; ${calls}`);
  }
});
