#!/usr/bin/env node
// Runs the streaming burst benchmark (bench/streams/streams-bench.ts, which reuses test/rig):
// N concurrent exec streams through the same Go client (client-go, as crictl) against isulats
// daemon and containerd 1.6, side by side.
// Usage: node bench/streams/run.mjs [N,N,...] [DEADLINE]   (default 100 and 2s; needs root and
//        the Go client of scripts/build-go-test-tools.sh)
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/streams/streams-bench.ts', process.argv.slice(2));
