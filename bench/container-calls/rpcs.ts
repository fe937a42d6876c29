// Median latency of the read RPCs kubelet makes every second (PLEG relist) and on every probe,
// isulats daemon against containerd 1.6, with 1, 10 and 50 pods present (each with one running
// container), through the Go CRI client's `repeat` mode: K calls of one RPC on one connection,
// each timed by the client (no process start or dial in the figures). Rounds alternate which
// daemon goes first.
// Usage: node bench/container-calls/run.mjs --rpcs [ROUNDS]   (default 5 rounds of 20 calls; needs root)
//   BENCH_BASELINE=DIR: also another checkout's daemon (DIR/bin/isulats, built), e.g. main before a change.
//   BENCH_NO_LITE=1: also this daemon without --lite-mode (its other Node flags and MALLOC_ARENA_MAX kept),
//   and without --lite-mode but with --no-opt (ICs and the baseline compiler, no optimizing compiler).
//   BENCH_AUTHORITY=1: also this daemon through a client sending the bare socket path as `:authority`,
//   as crictl, critest and kubelets before 1.26 do (grpc-go 1.64 percent-encodes it, which nghttp2
//   accepts): such connections go through the daemon's authority fix (authority-fix.ts).
//   BENCH_FLAG_SETS="name=--a --b;name2=--c": also this daemon once per named set, run as shipped (its
//   re-exec, MALLOC_ARENA_MAX, its own bundle) but with these Node flags in place of its list
//   (ISULATS_DAEMON_NODE_FLAGS), e.g. `max-opt-1=--max-semi-space-size=1 --optimize-for-size --max-opt=1`.
//   BENCH_PODS=1,10,50: the pod counts (default 1,10,50).
//   BENCH_ENV_SETS="name=K=V,K=V;name2=K=V": also this daemon once per named environment (e.g.
//     nofast=ISULATS_GRPC_FAST_PATH=0).
//   --load: the calls are timed while busy loops hold every CPU (bench/load/cpu-load.ts), as on a
//     node whose pods use their CPU; pods are started before the loops.
//   BENCH_DAEMON_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/p": more Node flags for the daemon (beside its own).
import { writeFlagsWrapper } from './flags-wrapper.js';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient } from '../../test/rig/cri-client.js';
import { goToolPath } from '../../test/rig/go-tools.js';
import { REPO_ROOT } from '../../test/rig/cli.js';
import { goJson } from './go-json.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { DAEMON_NODE_FLAGS } from '../../src/daemon/process-tuning.js';
import { runBenchWithRig } from '../bench-rig.js';
import { startCpuLoad, type CpuLoad } from '../load/cpu-load.js';

const rounds = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? '5');
const K = 20;
const LOAD = process.argv.includes('--load');
const RPCS = ['Version', 'Status', 'ListPodSandbox', 'ListContainers', 'PodSandboxStatus', 'ContainerStatus', 'ImageStatus', 'ListImages'] as const;
const POD_COUNTS = (process.env.BENCH_PODS ?? '1,10,50').split(',').map(Number);

/** The Node.js flags a process runs with: its argv between node and the script. */
const nodeFlags = (pid: number) => {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1);
  return argv.slice(0, Math.max(0, argv.findIndex((a) => !a.startsWith('--')))).join(' ');
};
const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

runBenchWithRig(async (rig) => {
  const bin = goToolPath('go-cri-client');
  // floor: no runtime behind it (h2-floor.mjs), so no pods to make.
  const targets: Array<{ name: string; endpoint: string; pod: string; ctr: string; pid: () => number; args?: string[]; same?: string; floor?: boolean }> = [];
  const extraFlags = (process.env.BENCH_DAEMON_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const daemon = await startIsulatsDaemon(extraFlags.length === 0 ? { podSandboxImage: rig.images.pause } : {
    podSandboxImage: rig.images.pause,
    binPath: writeFlagsWrapper(join(rig.dir, 'isulats-flags.cjs'), [...DAEMON_NODE_FLAGS, ...extraFlags]),
    env: { ISULATS_DAEMON_REEXEC: '0', MALLOC_ARENA_MAX: '2' },
  });
  rig.daemons.push(daemon);
  targets.push({ name: 'isulats', endpoint: daemon.endpoint, pod: '', ctr: '', pid: () => daemon.pid });
  const containerd = (rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] }));
  targets.push({ name: 'containerd', endpoint: containerd.endpoint, pod: '', ctr: '', pid: () => containerd.pid });
  if (process.env.BENCH_BASELINE) {
    const baseline = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, binPath: join(process.env.BENCH_BASELINE, 'bin/isulats') });
    rig.daemons.push(baseline);
    targets.push({ name: 'baseline', endpoint: baseline.endpoint, pod: '', ctr: '', pid: () => baseline.pid });
  }
  if (process.env.BENCH_NO_LITE === '1') {
    // The daemon's own flags minus --lite-mode (and --no-expose-wasm, which only lite mode needs),
    // given on node's command line (the re-exec is off); once more without the optimizing compiler.
    const flags = DAEMON_NODE_FLAGS.filter((f) => f !== '--lite-mode' && f !== '--no-expose-wasm');
    for (const [name, extra] of [['no lite-mode', []], ['no lite, no opt', ['--no-opt']]] as const) {
      const wrapper = writeFlagsWrapper(join(rig.dir, `isulats-${name.replace(/\W+/g, '-')}.cjs`), [...flags, ...extra]);
      const d = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, binPath: wrapper, env: { ISULATS_DAEMON_REEXEC: '0', MALLOC_ARENA_MAX: '2' } });
      rig.daemons.push(d);
      targets.push({ name, endpoint: d.endpoint, pod: '', ctr: '', pid: () => d.pid });
    }
  }
  for (const set of (process.env.BENCH_FLAG_SETS ?? '').split(';').filter((x) => x.trim())) {
    const [name, flags = ''] = set.split(/=(.*)/s);
    const d = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, env: { ISULATS_DAEMON_NODE_FLAGS: flags } });
    rig.daemons.push(d);
    targets.push({ name: name!.trim(), endpoint: d.endpoint, pod: '', ctr: '', pid: () => d.pid });
  }
  for (const set of (process.env.BENCH_ENV_SETS ?? '').split(';').filter((x) => x.trim())) {
    const [name, vars = ''] = set.split(/=(.*)/s);
    const env = Object.fromEntries(vars.split(',').filter(Boolean).map((kv) => [kv.split('=')[0]!, kv.split('=').slice(1).join('=')]));
    const d = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, env });
    rig.daemons.push(d);
    targets.push({ name: name!.trim(), endpoint: d.endpoint, pod: '', ctr: '', pid: () => d.pid });
  }
  // The floor: node:http2 alone under the daemon's Node flags, an empty answer to every call.
  const floorSocket = join(rig.dir, 'h2-floor.sock');
  const floor = spawn(process.execPath, [...DAEMON_NODE_FLAGS, join(REPO_ROOT, 'bench/container-calls/h2-floor.mjs'), floorSocket], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => floor.kill('SIGTERM')); // also when the bench fails on the way
  await new Promise<void>((resolve, reject) => {
    floor.stdout.once('data', () => resolve());
    floor.once('exit', (code) => reject(new Error(`h2-floor.mjs exited with ${code}`)));
  });
  targets.push({ name: 'node:http2 floor', endpoint: `unix://${floorSocket}`, pod: '', ctr: '', pid: () => floor.pid!, floor: true });
  if (process.env.BENCH_AUTHORITY === '1') {
    for (const t of targets.filter((x) => x.name === 'isulats' || x.name === 'baseline')) {
      const args = ['-authority', t.endpoint.slice('unix://'.length)];
      targets.push({ name: `${t.name} path authority`, endpoint: t.endpoint, pod: '', ctr: '', pid: t.pid, args, same: t.name });
    }
  }
  const go = (endpoint: string, args: string[]) => goJson(bin, endpoint, args, 600_000);
  const own = targets.filter((t) => !t.same && !t.floor);
  for (const t of own) {
    const cri = openCriClient(t.endpoint);
    await cri.image('PullImage', { image: { image: rig.images.busybox } }, 120_000);
    cri.close();
    const out = await go(t.endpoint, ['run-pod-container', '-name', `rpcs-${t.name.replace(/\W+/g, '-')}`, '-label', 'rpcs', '-image', rig.images.busybox, '--', 'sleep', '3600']);
    t.pod = out.podId;
    t.ctr = out.containerId;
  }
  for (const t of targets.filter((x) => x.same)) Object.assign(t, { pod: targets.find((x) => x.name === t.same)!.pod, ctr: targets.find((x) => x.name === t.same)!.ctr });
  const times = new Map<string, number[]>();
  let present = 1;
  for (const pods of POD_COUNTS) {
    for (const t of own) {
      if (pods > present) await go(t.endpoint, ['run', '-n', String(pods - present), '-name', `rpcs-${pods}`, '-label', 'rpcs', '-image', rig.images.busybox]);
    }
    present = pods;
    // Started once the pods run, stopped before the next pod count starts its pods.
    const load: CpuLoad | undefined = LOAD ? startCpuLoad() : undefined;
    try {
      for (let round = 0; round < rounds; round++) {
        const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
        for (const rpc of RPCS) {
          for (const t of order) {
            const out = await go(t.endpoint, [...(t.args ?? []), 'repeat', '-rpc', rpc, '-k', String(K), '-pod', t.pod, '-id', t.ctr, '-image', rig.images.busybox]);
            const key = `${pods}|${rpc}|${t.name}`;
            times.set(key, [...(times.get(key) ?? []), ...(out.ms as number[])]);
          }
        }
      }
    } finally {
      await load?.stop();
    }
  }
  const rss = new Map(targets.map((t) => [t.name, rssKiB(t.pid())]));
  for (const t of own) await go(t.endpoint, ['teardown', '-label', 'rpcs']);
  floor.kill('SIGTERM');
  console.log(`median ms per RPC, ${rounds} interleaved rounds of ${K} calls on one connection, Go CRI client (grpc-go, k8s.io/cri-api)${LOAD ? ', under busy loops holding every CPU' : ''}`);
  const others = targets.filter((t) => t.name !== 'containerd');
  console.log(`| pods | call | containerd 1.6 | ${others.map((t) => `${t.name} | ratio`).join(' | ')} |`);
  console.log(`| --- | --- | --- | ${others.map(() => '--- | ---').join(' | ')} |`);
  for (const pods of POD_COUNTS) {
    for (const rpc of RPCS) {
      const ref = median(times.get(`${pods}|${rpc}|containerd`)!);
      const cells = others.map((t) => {
        const m = median(times.get(`${pods}|${rpc}|${t.name}`)!);
        return `${m.toFixed(2)} | ${(m / ref).toFixed(2)}`;
      });
      console.log(`| ${pods} | ${rpc} | ${ref.toFixed(2)} | ${cells.join(' | ')} |`);
    }
  }
  for (const t of own.filter((x) => x.name !== 'containerd')) console.log(`${t.name}: node ${nodeFlags(t.pid())}`);
  console.log(`RSS after the calls, ${POD_COUNTS.at(-1)} pods: ${targets.map((t) => `${t.name} ${Math.round(rss.get(t.name)! / 1024)} MiB`).join(', ')}`);
});
