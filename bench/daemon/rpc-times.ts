// Per-RPC latency of the lifecycle, isulats daemon against containerd 1.6, through one in-process
// CRI client (no CLI start-up in the figures): which calls a whole-CLI difference comes from.
// Usage: node bench/daemon/run.mjs --rpc [ITERATIONS] [--load]   (default 10; needs root)
//   --load: measured while busy loops hold every CPU (bench/load/cpu-load.ts), as on a busy node.
//   BENCH_DAEMON_ENV=K=V,K=V: environment for the daemon (e.g. ISULATS_DAEMON_REEXEC=0: Node's defaults).
import { randomUUID } from 'node:crypto';
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { startCpuLoad } from '../load/cpu-load.js';

const iterations = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? '10');
const LOAD = process.argv.includes('--load');
const OPS = ['ListPodSandbox', 'RunPodSandbox', 'ImageStatus', 'CreateContainer', 'StartContainer', 'ContainerStatus', 'ListContainers', 'ExecSync',
  'StopContainer', 'StopPodSandbox', 'RemovePodSandbox'] as const;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function measure(cri: RawCriClient, image: string, rounds: number): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(OPS.map((op) => [op, []]));
  const timed = async <T>(op: (typeof OPS)[number], fn: () => Promise<T>): Promise<T> => {
    const t0 = process.hrtime.bigint();
    const out = await fn();
    times.get(op)!.push(Number(process.hrtime.bigint() - t0) / 1e6);
    return out;
  };
  for (let i = 0; i < rounds; i++) {
    const name = `rpc-${i}-${randomUUID().slice(0, 8)}`;
    const sandboxConfig = { metadata: { name, uid: randomUUID(), namespace: 'default', attempt: 0 }, linux: {} };
    await timed('ListPodSandbox', () => cri.runtime('ListPodSandbox', {}));
    const pod = await timed('RunPodSandbox', () => cri.runtime('RunPodSandbox', { config: sandboxConfig }, 120_000));
    await timed('ImageStatus', () => cri.image('ImageStatus', { image: { image } }));
    const ctr = await timed('CreateContainer', () => cri.runtime('CreateContainer', {
      podSandboxId: pod.podSandboxId, sandboxConfig,
      config: { metadata: { name, attempt: 0 }, image: { image }, command: ['sleep', '3600'], linux: {} },
    }, 120_000));
    await timed('StartContainer', () => cri.runtime('StartContainer', { containerId: ctr.containerId }, 120_000));
    await timed('ContainerStatus', () => cri.runtime('ContainerStatus', { containerId: ctr.containerId }));
    await timed('ListContainers', () => cri.runtime('ListContainers', {}));
    await timed('ExecSync', () => cri.runtime('ExecSync', { containerId: ctr.containerId, cmd: ['true'], timeout: 10 }, 60_000));
    await timed('StopContainer', () => cri.runtime('StopContainer', { containerId: ctr.containerId, timeout: 0 }, 60_000));
    await timed('StopPodSandbox', () => cri.runtime('StopPodSandbox', { podSandboxId: pod.podSandboxId }, 60_000));
    await timed('RemovePodSandbox', () => cri.runtime('RemovePodSandbox', { podSandboxId: pod.podSandboxId }, 60_000));
  }
  return times;
}

runBenchWithRig(async (rig) => {
  const { images } = rig;
  const env = Object.fromEntries((process.env.BENCH_DAEMON_ENV ?? '').split(',').filter(Boolean).map((kv) => [kv.split('=')[0]!, kv.split('=').slice(1).join('=')]));
  const daemon = await startIsulatsDaemon({ podSandboxImage: images.pause, env });
  rig.daemons.push(daemon);
  const containerd = (rig.containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [rig.registry.host] }));
  const targets = [{ name: 'isulats', endpoint: daemon.endpoint }, { name: 'containerd', endpoint: containerd.endpoint }];
  for (const t of targets) {
    const cri = openCriClient(t.endpoint);
    for (const image of [images.busybox, images.pause]) await cri.image('PullImage', { image: { image } }, 120_000);
    cri.close();
  }
  const results = targets.map(() => new Map<string, number[]>(OPS.map((op) => [op, []])));
  // One warm connection per runtime for the whole run.
  const clients = targets.map((t) => openCriClient(t.endpoint));
  for (const cri of clients) await cri.runtime('Version', {});
  const load = LOAD ? startCpuLoad() : undefined;
  try {
    // Interleaved, one lifecycle each in turn (the order alternating): a shared machine's load moves both alike.
    for (let i = 0; i < iterations; i++) {
      for (const j of i % 2 ? [1, 0] : [0, 1]) {
        for (const [op, times] of await measure(clients[j]!, images.busybox, 1)) results[j]!.get(op)!.push(...times);
      }
    }
  } finally {
    await load?.stop();
    for (const cri of clients) cri.close();
  }
  console.log(`median ms per RPC over ${iterations} iterations, one in-process client${load ? `, under ${load.loops} busy loops` : ''}`);
  console.log(`${'rpc'.padEnd(18)}${'isulats'.padStart(9)}${'containerd'.padStart(12)}${'ratio'.padStart(8)}`);
  for (const op of OPS) {
    const [a, b] = results.map((r) => median(r.get(op)!));
    console.log(`${op.padEnd(18)}${a!.toFixed(1).padStart(9)}${b!.toFixed(1).padStart(12)}${(a! / b!).toFixed(2).padStart(8)}`);
  }
});
