#!/usr/bin/env node
// Runs the daemon benchmark (bench/daemon/daemon-bench.ts, which reuses test/rig):
// isulats daemon vs containerd 1.6, same client.
// Usage: node bench/daemon/run.mjs [ITERATIONS] [N,N,...]   (default 5 and 1,10,50; needs root)
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/daemon/daemon-bench.ts', process.argv.slice(2));
