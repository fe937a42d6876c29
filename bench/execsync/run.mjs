#!/usr/bin/env node
// CPU per ExecSync and under a kubelet-shaped probe load: isulats (the execsync helper), isulats
// with ISULATS_EXEC_SYNC=runc (runc exec per call) and containerd 1.6 (bench/execsync/cpu.ts).
// Usage: node bench/execsync/run.mjs [CALLS]   (needs root; default 100 calls per target)
//   BENCH_PODS=20: pods (one container each); BENCH_WINDOW=60: seconds of the steady-state run
//   (one ExecSync per pod every BENCH_PERIOD=10 s, spread over the period); BENCH_WINDOW=0 skips it.
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/execsync/cpu.ts', process.argv.slice(2));
