#!/usr/bin/env node
// Bundles a lifecycle benchmark with esbuild (no tsx here) and runs it.
//   node bench/lifecycle/run.mjs [ITERATIONS]           whole CLI calls: embedded vs containerd vs bare runc
//   node bench/lifecycle/run.mjs --engine [ITERATIONS]  the engine in-process (no CLI start-up)
// Needs root, runc, conmon, containerd, docker-registry and the CNI plugins; build the CLI first
// (node scripts/build.mjs).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const engine = args[0] === '--engine';
if (engine) args.shift();
const entry = engine ? 'bench/lifecycle/lifecycle-bench.ts' : 'bench/lifecycle/cli-lifecycle-bench.ts';
// build/bench/ is two levels below the repo, as test/rig/ is: the rig's import.meta.url paths
// (../../assets/...) stay valid, and external packages resolve from the repo's node_modules.
const out = join(repo, 'build', 'bench', engine ? 'lifecycle.mjs' : 'cli-lifecycle.mjs');
await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', packages: 'external', absWorkingDir: repo, entryPoints: [join(repo, entry)], outfile: out });
const env = { ...process.env, ISULATS_NATIVE: process.env.ISULATS_NATIVE ?? join(repo, 'build', 'Release', 'isulats.node') };
const r = spawnSync(process.execPath, [out, ...args], { stdio: 'inherit', env, cwd: repo });
process.exitCode = r.status ?? 1;
