#!/usr/bin/env node
// Runs the daemon benchmark (bench/daemon/daemon-bench.ts, which reuses test/rig):
// isulats daemon vs containerd 1.6, same client.
// Usage: node bench/daemon/run.mjs [ITERATIONS] [N,N,...]   (default 5 and 1,10,50; needs root)
//        node bench/daemon/run.mjs --rss [N] [cli|grpc] [VARIANT...]   (bench/daemon/rss.ts: memory and CPU with N pods)
//        node bench/daemon/run.mjs --rpc [ITERATIONS]   (bench/daemon/rpc-times.ts: median latency per CRI call)
import { runBundled } from '../run-bundled.mjs';

const entries = { '--rss': 'bench/daemon/rss.ts', '--rpc': 'bench/daemon/rpc-times.ts' };
const entry = entries[process.argv[2]] ?? 'bench/daemon/daemon-bench.ts';
process.exitCode = await runBundled(entry, process.argv.slice(2));
