#!/usr/bin/env node
// Bundles the lifecycle benchmark with esbuild (no tsx here) and runs it.
// Usage: node bench/lifecycle/run.mjs [ITERATIONS]   (needs root, runc, conmon, CNI plugins)
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Inside node_modules/.cache so external packages resolve and the native addon path stays valid.
const out = join(repo, 'node_modules', '.cache', 'isulats-bench', 'lifecycle.mjs');
await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', packages: 'external', absWorkingDir: repo, entryPoints: [join(repo, 'bench/lifecycle/lifecycle-bench.ts')], outfile: out });
const env = { ...process.env, ISULATS_NATIVE: process.env.ISULATS_NATIVE ?? join(repo, 'build', 'Release', 'isulats.node') };
const r = spawnSync(process.execPath, [out, ...process.argv.slice(2)], { stdio: 'inherit', env, cwd: repo });
process.exitCode = r.status ?? 1;
