// A CreateContainer of about 2 MB (100k env vars, as the attacker sent) against isulats
// daemon and containerd 1.6, one runtime after the other on the same machine and client. Per run:
// the CreateContainer's wall time, and the longest gap between answers to Version calls made one
// after another on a second connection while the create is in flight (the time the runtime's
// event loop or lock left every other client waiting). After the runs, each runtime's VmRSS.
// Medians over the runs. Run through bench/big-create/run.mjs.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startContainerd, type Containerd } from '../../test/rig/containerd.js';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';

const runs = Number(process.argv[2] ?? '5');
const envCount = Number(process.argv[3] ?? '100000');

interface Sample { createMs: number; maxGapMs: number }

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

function vmRssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** Service-link-shaped env names and values, about 20 bytes each (values as bytes: KeyValue.value is bytes in the project proto). */
function bigEnv(n: number): Array<{ key: string; value: Buffer }> {
  return Array.from({ length: n }, (_, i) => ({ key: `SVC_${i}_SERVICE_PORT`, value: Buffer.from(String(10000 + (i % 50000))) }));
}

async function oneRun(cri: RawCriClient, probe: RawCriClient, podSandboxId: string, sandboxConfig: object, image: string, i: number): Promise<Sample> {
  const envs = bigEnv(envCount);
  let inFlight = true;
  let maxGapMs = 0;
  const probing = (async () => {
    let last = now();
    while (inFlight) {
      await probe.runtime('Version', {});
      const t = now();
      maxGapMs = Math.max(maxGapMs, t - last);
      last = t;
    }
  })();
  const t0 = now();
  let containerId: string;
  try {
    ({ containerId } = await cri.runtime('CreateContainer', {
      podSandboxId, sandboxConfig,
      config: { metadata: { name: `big-${i}`, attempt: 0 }, image: { image }, command: ['sleep', '60'], envs },
    }, 120_000));
  } finally {
    inFlight = false;
    await probing;
  }
  const createMs = now() - t0;
  await cri.runtime('RemoveContainer', { containerId }, 60_000);
  return { createMs, maxGapMs };
}

runBenchWithRig(async (rig) => {
  // A daemon of your own (e.g. under node --cpu-prof) instead of the one started here.
  const own = process.env.ISULATS_BENCH_ENDPOINT;
  const ownPid = Number(process.env.ISULATS_BENCH_PID ?? 0);
  // ISULATS_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p": node flags for this build's daemon.
  const nodeArgs = process.env.ISULATS_BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean);
  const daemon: IsulatsDaemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, nodeArgs });
  rig.daemons.push(daemon);
  const containerd: Containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] });
  rig.containerd = containerd;
  // BENCH_BASELINE=<checkout>: that build's daemon too, first, in the same run (a before/after row).
  const baselineDir = process.env.BENCH_BASELINE;
  const baseline = baselineDir && !own ? await startIsulatsDaemon({ podSandboxImage: rig.images.pause, binPath: join(baselineDir, 'bin/isulats') }) : undefined;
  if (baseline) rig.daemons.push(baseline);
  const rows: string[] = [];
  const targets: Array<[string, string, number]> = own ? [['isulats (own)', own, ownPid]] : [
    ...(baseline ? [['isulats, before', baseline.endpoint, baseline.pid] as [string, string, number]] : []),
    ['isulats', daemon.endpoint, daemon.pid], ['containerd', containerd.endpoint, containerd.pid],
  ];
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const [name, endpoint, pid] of targets) {
    const cri = openCriClient(endpoint);
    const probe = openCriClient(endpoint);
    try {
      await cri.image('PullImage', { image: { image: rig.images.busybox } }, 120_000);
      const uid = randomUUID();
      const config = {
        metadata: { name: `big-create-${uid.slice(0, 8)}`, uid, namespace: 'bench', attempt: 0 },
        linux: { securityContext: { namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' } } },
      };
      const { podSandboxId } = await cri.runtime('RunPodSandbox', { config }, 120_000);
      const samples: Sample[] = [];
      for (let i = 0; i < runs + 1; i++) {
        const s = await oneRun(cri, probe, podSandboxId, config, rig.images.busybox, i);
        if (i > 0) samples.push(s); // the first warms the runtime up
        console.log(`${name} run ${i}: create ${s.createMs.toFixed(0)} ms, longest Version gap ${s.maxGapMs.toFixed(0)} ms`);
      }
      const rss = vmRssKb(pid!);
      await cri.runtime('StopPodSandbox', { podSandboxId }, 60_000);
      await cri.runtime('RemovePodSandbox', { podSandboxId }, 60_000);
      rows.push(`| ${name} | ${median(samples.map((s) => s.createMs)).toFixed(0)} ms | ${median(samples.map((s) => s.maxGapMs)).toFixed(0)} ms | ${(rss / 1024).toFixed(1)} MiB |`);
    } finally {
      cri.close();
      probe.close();
    }
  }
  console.log(`\nCreateContainer with ${envCount} env vars, medians of ${runs} runs; load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('| runtime | CreateContainer | longest Version gap | VmRSS after |\n| --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
  // runBenchWithRig tears down the daemon, containerd and the registry.
});
