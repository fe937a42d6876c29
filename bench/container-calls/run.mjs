#!/usr/bin/env node
// Container CRI calls, isulats daemon against containerd 1.6 (bench/container-calls/*.ts, reusing test/rig).
// Usage: node bench/container-calls/run.mjs --procs            processes spawned per call (strace; counts only)
//        node bench/container-calls/run.mjs [ROUNDS]           median ms per call through the Go CRI client, interleaved
//        node bench/container-calls/run.mjs --rpcs [ROUNDS] [--load]    median ms of the read RPCs (PLEG relist, probes) with 1, 10, 50 pods
import { runBundled } from '../run-bundled.mjs';

const entry = process.argv[2] === '--procs' ? 'bench/container-calls/procs.ts' : process.argv[2] === '--rpcs' ? 'bench/container-calls/rpcs.ts' : 'bench/container-calls/times.ts';
process.exitCode = await runBundled(entry, process.argv.slice(2));
