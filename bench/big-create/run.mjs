#!/usr/bin/env node
// Runs bench/big-create/big-create.ts (which reuses test/rig): a 2 MB CreateContainer (100k env vars)
// on isulats daemon next to containerd 1.6, and how long each runtime leaves other calls unanswered.
// Usage: node bench/big-create/run.mjs [RUNS] [ENV_COUNT]   (default 5 runs, 100000 vars; needs root)
// BENCH_BASELINE=<checkout> adds that build's daemon as an "isulats, before" row in the same run.
// ISULATS_BENCH_ENDPOINT=unix:///... ISULATS_BENCH_PID=<pid> measures a daemon of your own instead
// (e.g. one started under node --cpu-prof to see where the time goes).
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/big-create/big-create.ts', process.argv.slice(2));
