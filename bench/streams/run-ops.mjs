#!/usr/bin/env node
// Runs the single-op benchmark (bench/streams/ops-bench.ts): streaming exec (with and without a
// tty), ExecSync, and PullImage after RemoveImage (one-layer and six-layer images), isulats daemon
// next to containerd 1.6 through the same Go client, interleaved, medians.
// Usage: node bench/streams/run-ops.mjs [RUNS] [OPS]   (default 15 and all; needs root and the Go
//        client of scripts/build-go-test-tools.sh)
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/streams/ops-bench.ts', process.argv.slice(2));
