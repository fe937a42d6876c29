#!/usr/bin/env node
// Bundles the pull benchmark with esbuild (tsx is not installed) and runs it.
// Env: BENCH_MB (total uncompressed MB, default 300), BENCH_RUNS (default 3).
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
execFileSync(process.execPath, [join(repo, 'scripts', 'build-native.mjs')], { stdio: 'inherit' });
// Bundles live under node_modules/.cache so that external packages still resolve.
const out = join(repo, 'node_modules', '.cache', 'isulats-bench');
const opts = { bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', packages: 'external', absWorkingDir: repo };
await build({ ...opts, entryPoints: [join(repo, 'bench/pull/pull-bench.ts')], outfile: join(out, 'pull-bench.mjs') });
await build({ ...opts, entryPoints: [join(repo, 'bench/pull/pull-entry.ts')], outfile: join(out, 'pull-entry.mjs') });
const env = { ...process.env, BENCH_PULL_ENTRY: join(out, 'pull-entry.mjs'), BENCH_REPO: repo };
const r = spawnSync(process.execPath, [join(out, 'pull-bench.mjs')], { stdio: 'inherit', env });
process.exitCode = r.status ?? 1;
