#!/usr/bin/env node
// Bundles the NRI create-latency benchmark and its plugin, then runs it.
// Usage: node bench/nri/run.mjs [ITERATIONS]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = mkdtempSync(join(tmpdir(), 'nrib-'));
try {
  cpSync(join(root, 'src/api/descriptors'), join(out, 'descriptors'), { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  };
  await build({ ...common, entryPoints: [join(root, 'examples/nri/env-ulimit-adjuster.ts')], outfile: join(out, 'plugin.mjs') });
  await build({ ...common, entryPoints: [join(root, 'bench/nri/create-latency.ts')], outfile: join(out, 'bench.mjs') });
  const res = spawnSync(process.execPath, [join(out, 'bench.mjs'), join(out, 'plugin.mjs'), process.argv[2] ?? '200'], { stdio: 'inherit' });
  process.exitCode = res.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
