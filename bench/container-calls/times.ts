// Median latency of each container lifecycle call, isulats daemon against containerd 1.6, through
// the Go CRI client (test/go-cri-client, grpc-go and k8s.io/cri-api as in crictl and kubelet): the
// client times the RPC itself (no process start or dial in the figure). Rounds alternate which
// daemon goes first; each daemon keeps one pod for all its containers.
// Usage: node bench/container-calls/run.mjs [ROUNDS]   (default 12; needs root)
//   BENCH_BASELINE=DIR: also another checkout's daemon (DIR/bin/isulats, built), e.g. main before a change.
import { join } from 'node:path';
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient } from '../../test/rig/cri-client.js';
import { goToolPath } from '../../test/rig/go-tools.js';
import { goJson } from './go-json.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { GRACEFUL } from './script.js';

const rounds = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? '12');
const OPS = ['create', 'start', 'status (a read: the RPC floor)', 'stop (SIGTERM)', 'rm', 'stop (timeout 0)', 'rm (2)'] as const;
type Op = (typeof OPS)[number];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

runBenchWithRig(async (rig) => {
  const bin = goToolPath('go-cri-client');
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause });
  rig.daemons.push(daemon);
  const containerd = (rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] }));
  const targets = [{ name: 'isulats', endpoint: daemon.endpoint, pod: '' }, { name: 'containerd', endpoint: containerd.endpoint, pod: '' }];
  if (process.env.BENCH_BASELINE) {
    const baseline = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, binPath: join(process.env.BENCH_BASELINE, 'bin/isulats') });
    rig.daemons.push(baseline);
    targets.push({ name: 'baseline', endpoint: baseline.endpoint, pod: '' });
  }
  const go = (endpoint: string, args: string[]) => goJson(bin, endpoint, args);
  for (const t of targets) {
    const cri = openCriClient(t.endpoint);
    await cri.image('PullImage', { image: { image: rig.images.busybox } }, 120_000);
    cri.close();
    t.pod = (await go(t.endpoint, ['run-pod', '-name', `bench-${t.name}`, '-label', 'container-calls'])).podId;
  }
  const times = new Map(targets.map((t) => [t.name, new Map<Op, number[]>(OPS.map((op) => [op, []]))]));
  const cycle = async (t: (typeof targets)[number], round: number) => {
    const record = (op: Op, out: Record<string, any>) => times.get(t.name)!.get(op)!.push(out.ms as number);
    const image = rig.images.busybox;
    const a = await go(t.endpoint, ['create-container', '-pod', t.pod, '-name', `graceful-${round}`, '-image', image, '--', ...GRACEFUL]);
    record('create', a);
    record('start', await go(t.endpoint, ['start-container', '-id', a.containerId]));
    record('status (a read: the RPC floor)', await go(t.endpoint, ['container-status', '-id', a.containerId]));
    record('stop (SIGTERM)', await go(t.endpoint, ['stop-container', '-id', a.containerId, '-stop-timeout', '10']));
    record('rm', await go(t.endpoint, ['remove-container', '-id', a.containerId]));
    const b = await go(t.endpoint, ['create-container', '-pod', t.pod, '-name', `killed-${round}`, '-image', image, '--', 'sleep', '3600']);
    await go(t.endpoint, ['start-container', '-id', b.containerId]);
    record('stop (timeout 0)', await go(t.endpoint, ['stop-container', '-id', b.containerId]));
    record('rm (2)', await go(t.endpoint, ['remove-container', '-id', b.containerId]));
  };
  for (let round = 0; round < rounds; round++) {
    // Each daemon takes each place in the order equally often.
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const t of order) await cycle(t, round);
  }
  for (const t of targets) await go(t.endpoint, ['stop-remove', '-pod', t.pod]);
  console.log(`median ms per RPC over ${rounds} interleaved rounds, Go CRI client (grpc-go, k8s.io/cri-api)`);
  const baseline = targets.length > 2;
  console.log(`| call | isulats | containerd 1.6 | ratio |${baseline ? ' baseline | ratio |' : ''}`);
  console.log(`| --- | --- | --- | --- |${baseline ? ' --- | --- |' : ''}`);
  for (const op of OPS) {
    const [a, b, c] = targets.map((t) => median(times.get(t.name)!.get(op)!));
    const extra = c === undefined ? '' : ` ${c.toFixed(1)} | ${(c / b!).toFixed(2)} |`;
    console.log(`| ${op} | ${a!.toFixed(1)} | ${b!.toFixed(1)} | ${(a! / b!).toFixed(2)} |${extra}`);
  }
});
