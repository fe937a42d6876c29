#!/usr/bin/env node
// Runs the trace benchmark (bench/trace/trace-bench.ts, which reuses test/rig): median per-call
// latency of Version and ListPodSandbox through `isulats trace` vs direct, same client.
// Usage: node bench/trace/run.mjs [CALLS]   (default 200; needs root)
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/trace/trace-bench.ts', process.argv.slice(2));
