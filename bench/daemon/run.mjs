#!/usr/bin/env node
// Runs the daemon benchmarks (their TypeScript reuses test/rig; needs root):
//   node bench/daemon/run.mjs [--n 1,10,50] [--iterations 5] [--iterations-large 3] [--lifecycle 5] [--no-trace] [--trace-only]
//        bench/daemon/go-bench.ts: the Go CRI client drives containerd 1.6, isulats daemon (runc, crun)
//        and a no-daemon floor (runc, crun); markdown tables of wall time, RSS, CPU, execs per call
//   node bench/daemon/run.mjs --cli [ITERATIONS] [N,N,...]   (bench/daemon/daemon-bench.ts: through the Node CLI)
//   node bench/daemon/run.mjs --rss [N] [cli|grpc] [VARIANT...]   (bench/daemon/rss.ts: memory and CPU with N pods)
//   node bench/daemon/run.mjs --burst [--n 50,10] [--variants default,nolite,...] [--containerd]   (bench/daemon/runp-burst.ts: N pods at once, daemon settings compared)
//   node bench/daemon/run.mjs --rpc [ITERATIONS] [--load]   (bench/daemon/rpc-times.ts: median latency per CRI call)
//   node bench/daemon/run.mjs --steady [--n 20] [--seconds 60] [--rounds 2] [--load]   (bench/daemon/steady.ts: kubelet-shaped steady state, CPU of the runtime)
//   node bench/daemon/run.mjs --crictl [--iterations 7] [--modes idle,load] [--cpu-prof]   (bench/daemon/crictl-bench.ts: upstream crictl as the client, a process per call)
//   node bench/daemon/run.mjs --scale [--n 20,110,250] [--seconds 30] [--load] [--runtimes isulats] [--cpu-prof] [--server-times]   (bench/daemon/node-scale-bench.ts: a kubelet-shaped node at N pods)
//   node bench/daemon/run.mjs --list-cpu [--n 20] [--calls 300] [--variants "flags;env:NAME=VALUE"] [--no-containerd]   (bench/daemon/list-cpu.ts: the daemon's CPU per read call)
//   go-bench's busy-node options: --load (busy loops hold every CPU), --clients process (one client process per call)
import { runBundled } from '../run-bundled.mjs';

const entries = { '--burst': 'bench/daemon/runp-burst.ts', '--crictl': 'bench/daemon/crictl-bench.ts', '--scale': 'bench/daemon/node-scale-bench.ts', '--list-cpu': 'bench/daemon/list-cpu.ts', '--cli': 'bench/daemon/daemon-bench.ts', '--rss': 'bench/daemon/rss.ts', '--rpc': 'bench/daemon/rpc-times.ts', '--steady': 'bench/daemon/steady.ts' };
const entry = entries[process.argv[2]] ?? 'bench/daemon/go-bench.ts';
const args = entries[process.argv[2]] ? process.argv.slice(3) : process.argv.slice(2);
process.exitCode = await runBundled(entry, args);
