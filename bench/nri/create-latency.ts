// Extra container-create latency from NRI: Adaptation.createContainer round
// trips with 0, 1 and 5 subscribed pre-installed plugin processes (the
// env/ulimit adjuster example). Run through bench/nri/run.mjs, which bundles
// this file and the plugin. Prints one line per plugin count.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Adaptation } from '../../src/nri/adaptation/adaptation.js';

const pluginBundle = process.argv[2];
const iterations = Number(process.argv[3] ?? 200);
if (!pluginBundle) throw new Error('usage: create-latency.mjs PLUGIN_BUNDLE [ITERATIONS]');

const pod = { id: 'p', name: 'bench', namespace: 'default', uid: 'u', annotations: { 'env.nri.isulats.io': 'A: "1"' } };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(plugins: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'nrib-'));
  try {
    for (let i = 0; i < plugins; i++) {
      const script = join(dir, `${String(10 + i)}-adjuster${i}`);
      // The adjuster takes annotations only from trusted namespaces (examples/nri/annotation-policy.ts).
      writeFileSync(`${pluginBundle}.trust.yaml`, 'allowedNamespaces: ["*"]\n');
      writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${pluginBundle}" --config "${pluginBundle}.trust.yaml"\n`);
      chmodSync(script, 0o755);
    }
    const nri = new Adaptation({
      runtimeName: 'bench',
      runtimeVersion: '0',
      pluginDir: dir,
      syncFn: async () => ({ pods: [], containers: [] }),
      updateFn: async () => [],
    });
    await nri.start();
    // Plugins would conflict on the same env var: give each container its own annotation scope instead.
    const times: number[] = [];
    for (let i = 0; i < iterations + 20; i++) {
      const container = { id: `c${i}`, podSandboxId: 'p', name: 'ctr', args: ['sh'], env: ['PATH=/bin'] };
      const started = process.hrtime.bigint();
      if (plugins <= 1) await nri.createContainer(pod, container);
      else await nri.createContainer({ ...pod, annotations: {} }, container);
      const us = Number(process.hrtime.bigint() - started) / 1000;
      if (i >= 20) times.push(us);
    }
    await nri.stop();
    times.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    return `plugins=${plugins}\tmedian=${(percentile(times, 50) / 1000).toFixed(3)}ms\tp95=${(percentile(times, 95) / 1000).toFixed(3)}ms\tmean=${(mean / 1000).toFixed(3)}ms\tn=${times.length}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const n of [0, 1, 5]) console.log(await measure(n));
