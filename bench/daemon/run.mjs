#!/usr/bin/env node
// Runs the daemon benchmark (bench/daemon/daemon-bench.ts, which reuses test/rig):
// isulats daemon vs containerd 1.6, same client.
// Usage: node bench/daemon/run.mjs [ITERATIONS] [N,N,...]   (default 5 and 1,10,50; needs root)
//        node bench/daemon/run.mjs --rss [N] [cli|grpc] [VARIANT...]   (bench/daemon/rss.ts: memory and CPU with N pods)
import { runBundled } from '../run-bundled.mjs';

const entry = process.argv[2] === '--rss' ? 'bench/daemon/rss.ts' : 'bench/daemon/daemon-bench.ts';
process.exitCode = await runBundled(entry, process.argv.slice(2));
