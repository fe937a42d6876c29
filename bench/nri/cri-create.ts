// Extra CreateContainer latency of 0, 1 and 5 subscribed NRI plugins, over
// CRI, `isulats daemon` side by side with containerd 1.7 (trixie's, fetched by
// scripts/fetch-containerd17.sh), both with NRI on. One in-process CRI client
// drives both; the plugins are the same external processes (the env/ulimit
// adjuster example), one set connected to each runtime's NRI socket. Creates
// alternate between the runtimes so both see the same machine load.
// With one plugin the pod's annotation makes it adjust env and an rlimit; with
// five, each would set the same variable (a conflict), so they are asked and
// answer with empty adjustments. Each create is followed by an untimed remove.
// Run through bench/nri/run-cri.mjs. Usage: ... [ITERATIONS] (default 30)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startContainerd, type Containerd } from '../../test/rig/containerd.js';
import { containerd17BinDir } from '../../test/rig/containerd17.js';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import { pushRigImages } from '../../test/rig/images.js';
import { bundleExamplePlugins } from '../../test/rig/nri-plugin-bundles.js';
import { stopPid } from '../../test/rig/proc.js';
import { startRegistry, type Registry } from '../../test/rig/registry.js';
import { makeTempDir } from '../../test/rig/temp-dir.js';
import { waitFor } from '../../test/rig/wait.js';
import { teardownBenchRig, runBench } from '../bench-rig.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../../test/rig/isulats-daemon.js';

const iterations = Number(process.argv[2] ?? '30');
const WARMUP = 3;
const COUNTS = [0, 1, 5];

interface Target {
  name: 'isulats' | 'containerd';
  cri: RawCriClient;
  nriSocket: string;
  plugins: ChildProcess[];
  samples: Map<number, number[]>;
}

/** Quantile q of the samples (linear interpolation; q = 0.5 is the median). */
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (at - lo);
};

/** Connects external plugin processes until `n` are connected, each waited for until configured. */
async function connectPlugins(t: Target, bundle: string, n: number): Promise<void> {
  while (t.plugins.length < n) {
    const i = t.plugins.length;
    // The adjuster takes annotations only from trusted namespaces (examples/nri/annotation-policy.ts).
    writeFileSync(`${bundle}.trust.yaml`, 'allowedNamespaces: ["*"]\n');
    const child = spawn(process.execPath, [bundle, '--socket', t.nriSocket, '--name', `adjuster${i}`, '--idx', String(30 + i), '--config', `${bundle}.trust.yaml`], { stdio: ['ignore', 'ignore', 'pipe'] });
    t.plugins.push(child);
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`plugin on ${t.name} exited: ${err}`);
      return err.includes('configured by');
    }, { timeoutMs: 15_000, what: `plugin ${i} on ${t.name} to be configured` });
  }
}

function podConfig(n: number): Record<string, unknown> {
  return {
    metadata: { name: `nri-bench-${n}`, uid: randomUUID(), namespace: 'nri-bench', attempt: 0 },
    annotations: n === 1 ? { 'env.nri.isulats.io': 'A: "1"\n', 'ulimits.nri.isulats.io': '- type: nofile\n  soft: 1024\n  hard: 2048\n' } : {},
    linux: { securityContext: { namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' } } },
  };
}

async function timedCreate(t: Target, podSandboxId: string, sandboxConfig: object, image: string, i: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  const { containerId } = await t.cri.runtime('CreateContainer', {
    podSandboxId, sandboxConfig, config: { metadata: { name: `c${i}`, attempt: 0 }, image: { image }, command: ['sleep', '60'] },
  }, 60_000);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  await t.cri.runtime('RemoveContainer', { containerId }, 60_000);
  return ms;
}

async function main(): Promise<void> {
  const binDir = containerd17BinDir();
  const dir = await makeTempDir('ist-bn-');
  let registry: Registry | undefined;
  let containerd: Containerd | undefined;
  let daemon: IsulatsDaemon | undefined;
  const targets: Target[] = [];
  try {
    const { 'env-ulimit-adjuster': bundle } = await bundleExamplePlugins(join(dir, 'b'), ['env-ulimit-adjuster']);
    registry = await startRegistry();
    const images = await pushRigImages(registry.host);
    const emptyDir = join(dir, 'none');
    mkdirSync(emptyDir);
    const daemonNri = join(dir, 'nri.sock');
    daemon = await startIsulatsDaemon({
      podSandboxImage: images.pause,
      extraConfig: { 'nri-support': true, 'nri-socket': daemonNri, 'nri-plugin-dir': emptyDir, 'nri-plugin-config-dir': emptyDir },
    });
    containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [registry.host], binDir, nri: true });
    for (const [name, endpoint, nriSocket] of [['isulats', daemon.endpoint, daemonNri], ['containerd', containerd.endpoint, containerd.nriSocket!]] as const) {
      await waitFor(async () => existsSync(nriSocket), { timeoutMs: 10_000, what: `${name} NRI socket` });
      const t: Target = { name, cri: openCriClient(endpoint), nriSocket, plugins: [], samples: new Map() };
      targets.push(t);
      await t.cri.image('PullImage', { image: { image: images.busybox } }, 120_000);
      const version = await t.cri.runtime('Version', {});
      console.log(`${name}: ${version.runtimeName as string} ${version.runtimeVersion as string}`);
    }

    for (const n of COUNTS) {
      const pods = new Map<Target, { id: string; config: Record<string, unknown> }>();
      for (const t of targets) {
        await connectPlugins(t, bundle!, n);
        const config = podConfig(n);
        pods.set(t, { id: (await t.cri.runtime('RunPodSandbox', { config }, 120_000)).podSandboxId as string, config });
        t.samples.set(n, []);
      }
      for (let i = 0; i < WARMUP + iterations; i++) {
        // Alternate which runtime goes first, so neither always runs right after the other.
        for (const t of i % 2 ? [...targets].reverse() : targets) {
          const pod = pods.get(t)!;
          const ms = await timedCreate(t, pod.id, pod.config, images.busybox, i);
          if (i >= WARMUP) t.samples.get(n)!.push(ms);
        }
      }
      for (const [t, pod] of pods) {
        await t.cri.runtime('StopPodSandbox', { podSandboxId: pod.id }, 60_000);
        await t.cri.runtime('RemovePodSandbox', { podSandboxId: pod.id }, 60_000);
      }
    }

    // The spread shows how much of a difference between rows is noise on this machine.
    console.log(`\nCRI CreateContainer ms over ${iterations}: median [p25-p75], extra median over 0 plugins`);
    console.log(`${'plugins'.padEnd(9)}${'isulats daemon'.padEnd(32)}containerd 1.7`);
    const base = new Map(targets.map((t) => [t, quantile(t.samples.get(0)!, 0.5)]));
    for (const n of COUNTS) {
      const cells = targets.map((t) => {
        const xs = t.samples.get(n)!;
        const m = quantile(xs, 0.5);
        const extra = n === 0 ? '' : ` ${m >= base.get(t)! ? '+' : ''}${(m - base.get(t)!).toFixed(1)}`;
        return `${m.toFixed(1)} [${quantile(xs, 0.25).toFixed(1)}-${quantile(xs, 0.75).toFixed(1)}]${extra}`.padEnd(32);
      });
      console.log(`${String(n).padEnd(9)}${cells.join('')}`);
    }
  } finally {
    for (const t of targets) {
      for (const p of t.plugins) if (p.pid !== undefined && p.exitCode === null) await stopPid(p.pid, 5_000).catch(() => undefined);
      t.cri.close();
    }
    await teardownBenchRig({ daemons: [daemon], containerd, registry, dir });
  }
}

runBench(main);
