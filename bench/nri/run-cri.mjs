#!/usr/bin/env node
// Runs bench/nri/cri-create.ts (which reuses test/rig): NRI's extra
// CreateContainer latency over CRI, isulats daemon next to containerd 1.7, same client.
// Usage: node bench/nri/run-cri.mjs [ITERATIONS]   (default 30; needs root and scripts/fetch-containerd17.sh)
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/nri/cri-create.ts', process.argv.slice(2));
