// Extra CreateContainer latency NRI adds inside the real engine (runc,
// conmon, overlay; host-network pod, so no CNI): 0, 1 and 5 subscribed
// pre-installed plugins (the env/ulimit adjuster example).
//   daemon:   plugins launched once with the engine; time per CreateContainer.
//   embedded: one CLI operation = open the engine, CreateContainer (which
//             launches and synchronises the plugins), close (Shutdown).
// Run through bench/nri/run-engine.mjs (bundles this file and the plugin).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/runtime/engine.js';
import type { EngineOptions, NriEngineOptions } from '../../src/runtime/config/engine-config.js';
import { populateBusyboxRootfs } from '../../test/rig/busybox-rootfs.js';

const pluginBundle = process.argv[2];
const iterations = Number(process.argv[3] ?? 20);
if (!pluginBundle) throw new Error('usage: engine-create.mjs PLUGIN_BUNDLE [ITERATIONS]');

const IMAGE = 'isulats-bench/busybox:nri';
const dir = mkdtempSync('/tmp/nribe-');
const base: EngineOptions = { root: join(dir, 'root'), state: join(dir, 'state'), cgroupParent: `/isulats-bench-${dir.slice(-6)}`, pauseBinaryPath: join(process.cwd(), 'build/pause/pause'), warn: () => undefined };

function pluginDir(n: number): string {
  const p = join(dir, `plugins-${n}`);
  mkdirSync(p, { recursive: true });
  for (let i = 0; i < n; i++) {
    const script = join(p, `${10 + i}-adjuster${i}`);
    // The adjuster takes annotations only from trusted namespaces (examples/nri/annotation-policy.ts).
    writeFileSync(`${pluginBundle}.trust.yaml`, 'allowedNamespaces: [bench]\n');
    writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${pluginBundle}" --config "${pluginBundle}.trust.yaml"\n`);
    chmodSync(script, 0o755);
  }
  return p;
}

const nriFor = (n: number, mode: 'daemon' | 'embedded'): NriEngineOptions => ({
  enabled: true, mode, pluginDir: pluginDir(n), pluginConfigDir: join(dir, 'no-conf'), enableExternalConnections: false,
});

// One plugin adjusts from the annotation; with several, each would set the same variable (a conflict), so none is asked to.
const podFor = (n: number) => ({
  metadata: { name: `bench-${n}`, namespace: 'bench', uid: `bench-${n}`, attempt: 0 },
  annotations: (n === 1 ? { 'env.nri.isulats.io': 'A: "1"\n' } : {}) as Record<string, string>,
  linux: { securityContext: { namespaceOptions: { network: 'NODE' as const } } },
});

async function createOnce(engine: Engine, podSandboxId: string, pod: object, i: number): Promise<{ ms: number; id: string }> {
  const started = process.hrtime.bigint();
  const { containerId } = await engine.createContainer({ podSandboxId, config: { metadata: { name: `c${i}` }, image: { image: IMAGE }, command: ['sleep', '60'] }, sandboxConfig: pod });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, id: containerId };
}

function stats(times: number[]): string {
  const s = [...times].sort((a, b) => a - b);
  const pct = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `median=${pct(50).toFixed(1)}ms\tp95=${pct(95).toFixed(1)}ms\tmean=${mean.toFixed(1)}ms\tn=${s.length}`;
}

async function daemonMode(n: number): Promise<string> {
  const engine = await Engine.open(n === 0 ? base : { ...base, nri: nriFor(n, 'daemon') });
  const pod = podFor(n);
  const { podSandboxId } = await engine.runPodSandbox({ config: pod });
  try {
    const times: number[] = [];
    for (let i = 0; i < iterations + 3; i++) {
      const { ms, id } = await createOnce(engine, podSandboxId, pod, i);
      if (i >= 3) times.push(ms);
      await engine.removeContainer({ containerId: id });
    }
    return `daemon   plugins=${n}\t${stats(times)}`;
  } finally {
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
  }
}

async function embeddedMode(n: number): Promise<string> {
  const setup = await Engine.open(base);
  const pod = podFor(n);
  const { podSandboxId } = await setup.runPodSandbox({ config: pod });
  await setup.close();
  const times: number[] = [];
  try {
    for (let i = 0; i < Math.max(3, Math.ceil(iterations / 2)); i++) {
      const started = process.hrtime.bigint();
      const engine = await Engine.open(n === 0 ? base : { ...base, nri: nriFor(n, 'embedded') });
      const { id } = await createOnce(engine, podSandboxId, pod, i);
      await engine.close();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      const cleanup = await Engine.open(base);
      await cleanup.removeContainer({ containerId: id });
      await cleanup.close();
    }
    return `embedded plugins=${n}\t${stats(times)}\t(open + create + close)`;
  } finally {
    const cleanup = await Engine.open(base);
    await cleanup.removePodSandbox({ podSandboxId });
    await cleanup.close();
  }
}

try {
  const rootfs = join(dir, 'rootfs');
  await populateBusyboxRootfs(rootfs);
  const engine = await Engine.open(base);
  await engine.images.buildFromRootfs(rootfs, IMAGE, { Cmd: ['sh'], created: '2024-01-01T00:00:00Z' });
  await engine.close();
  for (const n of [0, 1, 5]) console.log(await daemonMode(n));
  for (const n of [0, 1, 5]) console.log(await embeddedMode(n));
} finally {
  for (const c of readdirSync('/sys/fs/cgroup', { withFileTypes: true })) {
    if (c.isDirectory()) try { rmdirSync(join('/sys/fs/cgroup', c.name, base.cgroupParent!)); } catch { /* absent */ }
  }
  rmSync(dir, { recursive: true, force: true });
}
