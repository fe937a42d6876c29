#!/usr/bin/env node
// Bundles the daemon benchmark (bench/daemon/daemon-bench.ts, which reuses test/rig and
// test/e2e/helpers) with esbuild and runs it: isulats daemon vs containerd 1.6, same client.
// Usage: node bench/daemon/run.mjs [ITERATIONS] [N,N,...]   (default 5 and 1,10,50; needs root)
//        node bench/daemon/run.mjs --rss [N] [cli|grpc] [VARIANT...]   (bench/daemon/rss.ts: memory and CPU with N pods)
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
if (spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, stdio: 'inherit' }).status !== 0) process.exit(1);
// Two levels below the repo root, like the test/rig modules it bundles, so their
// import.meta.url paths (repo root, proto, pause source) still resolve; removed after the run.
const out = join(repo, 'bench', 'daemon', `.bench-${process.pid}.mjs`);
await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', packages: 'external', absWorkingDir: repo, entryPoints: [join(repo, process.argv[2] === '--rss' ? 'bench/daemon/rss.ts' : 'bench/daemon/daemon-bench.ts')], outfile: out });
const r = spawnSync(process.execPath, [out, ...process.argv.slice(2)], { stdio: 'inherit', cwd: repo });
rmSync(out, { force: true });
process.exitCode = r.status ?? 1;
