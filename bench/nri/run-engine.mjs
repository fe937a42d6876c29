#!/usr/bin/env node
// Bundles the engine-level NRI create benchmark (like bench/lifecycle: into
// node_modules/.cache so packages and the native addon resolve) and the
// example plugin (beside its protocol descriptors), then runs it.
// Usage: node bench/nri/run-engine.mjs [ITERATIONS]   (needs root, runc, conmon)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(repo, 'node_modules', '.cache', 'isulats-bench', 'nri-engine.mjs');
const pluginDir = mkdtempSync(join(tmpdir(), 'nribp-'));
try {
  await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', packages: 'external', absWorkingDir: repo, entryPoints: [join(repo, 'bench/nri/engine-create.ts')], outfile: out });
  // Both bundles read the protocol descriptors from beside themselves.
  cpSync(join(repo, 'src/api/descriptors'), join(dirname(out), 'descriptors'), { recursive: true });
  cpSync(join(repo, 'src/api/descriptors'), join(pluginDir, 'descriptors'), { recursive: true });
  await build({
    bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    entryPoints: [join(repo, 'examples/nri/env-ulimit-adjuster.ts')], outfile: join(pluginDir, 'plugin.mjs'),
  });
  const env = { ...process.env, ISULATS_NATIVE: process.env.ISULATS_NATIVE ?? join(repo, 'build', 'Release', 'isulats.node') };
  const r = spawnSync(process.execPath, [out, join(pluginDir, 'plugin.mjs'), process.argv[2] ?? '20'], { stdio: 'inherit', env, cwd: repo });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(pluginDir, { recursive: true, force: true });
}
