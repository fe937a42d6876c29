// The main (JavaScript) thread's cost per child started through ProcessRunner, the way the daemon
// starts runc, conmon and CNI plugins: N children of /bin/true, C in flight at once, per mode:
//   run       run() with the default environment (runc calls)
//   run-env   run() with a fresh { ...env, CNI_* } object per call (how CNI plugin calls were made before extraEnv)
//   run-extra run() with the CNI_* variables as extraEnv over this process's environment (CNI plugin
//             calls now; a build without extraEnv runs it as `run`, without them)
//   detached  runDetached() (runc run -d)
//   piped     spawnPiped(), its three streams drained and closed (exec sessions' runc exec)
// Per child: the main thread's CPU time (/proc/self/task/<pid>/schedstat, user + kernel, ns), the
// event loop's active time (perf_hooks.eventLoopUtilization), the synchronous part of the call
// (performance.now() around it until it returns its promise), and the wall time of the burst.
// Prints one JSON line per mode; bench/spawn/run.mjs runs it for this checkout and a base,
// interleaved, and prints medians.
//   node bench/spawn/run.mjs [--n 1000] [--concurrency 50] [--rounds 5] [--modes run,run-env,run-extra,detached,piped] [--env-vars 40] [--base DIR]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';

const opt = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? dflt) : dflt;
};
const N = Number(opt('--n', '1000'));
const CONCURRENCY = Number(opt('--concurrency', '50'));
const MODES = opt('--modes', 'run,run-env,run-extra,detached,piped').split(',');
const ENV_VARS = Number(opt('--env-vars', '0'));

// A daemon under systemd or kubelet's node setup has a few dozen variables: pad to that many.
for (let i = Object.keys(process.env).length; i < ENV_VARS; i++) process.env[`ISULATS_BENCH_PAD_${i}`] = `value-${i}-${'x'.repeat(20)}`;

/** CPU time of the main thread (its TID is the PID), user and kernel, in ns. */
function mainThreadCpuNs(): number {
  return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
}

/** The main thread's context switches: voluntary (it blocked) and involuntary (it was preempted). */
function mainThreadSwitches(): { voluntary: number; involuntary: number } {
  const status = readFileSync(`/proc/self/task/${process.pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { voluntary: field('voluntary_ctxt_switches'), involuntary: field('nonvoluntary_ctxt_switches') };
}

const runner = new ProcessRunner();
const baseEnv = { ...process.env };

const starts: Record<string, () => Promise<unknown>> = {
  run: () => runner.run({ cmd: '/bin/true', args: ['--bench'], timeoutMs: 60_000 }),
  'run-env': () =>
    runner.run({
      cmd: '/bin/true',
      args: [],
      env: { ...baseEnv, CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'c'.repeat(64), CNI_NETNS: '/var/run/netns/x', CNI_IFNAME: 'eth0', CNI_ARGS: 'IgnoreUnknown=1', CNI_PATH: '/usr/lib/cni' },
      input: '{"cniVersion":"1.0.0"}',
      timeoutMs: 60_000,
    }),
  'run-extra': () =>
    runner.run({
      cmd: '/bin/true',
      args: [],
      extraEnv: { CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'c'.repeat(64), CNI_NETNS: '/var/run/netns/x', CNI_IFNAME: 'eth0', CNI_ARGS: 'IgnoreUnknown=1', CNI_PATH: '/usr/lib/cni' },
      input: '{"cniVersion":"1.0.0"}',
      timeoutMs: 60_000,
    }),
  detached: () => runner.runDetached({ cmd: '/bin/true', args: ['--bench'] }),
  piped: async () => {
    const p = await runner.spawnPiped({ cmd: '/bin/true', args: ['--bench'] });
    p.stdin.end();
    const drained = (s: NodeJS.ReadableStream) => new Promise<void>((r) => s.on('end', r).on('close', r).resume());
    await Promise.all([drained(p.stdout), drained(p.stderr), p.exited]);
  },
};

interface Figures {
  mode: string;
  n: number;
  concurrency: number;
  envVars: number;
  /** Per child, µs. */
  mainCpuUs: number;
  eluActiveUs: number;
  syncUs: number;
  /** Per child: the main thread's voluntary (blocked) and involuntary (preempted) switches. */
  blocked: number;
  preempted: number;
  wallMs: number;
}

async function burst(mode: string, n: number): Promise<Figures> {
  const start = starts[mode];
  if (!start) throw new Error(`unknown mode ${mode}`);
  let next = 0;
  let syncMs = 0;
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = mainThreadCpuNs();
  const sw0 = mainThreadSwitches();
  const t0 = performance.now();
  const lane = async () => {
    while (next < n) {
      next++;
      const s = performance.now();
      const p = start();
      syncMs += performance.now() - s;
      await p;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n) }, lane));
  const wallMs = performance.now() - t0;
  const cpuNs = mainThreadCpuNs() - cpu0;
  const elu = performance.eventLoopUtilization(elu0);
  const sw = mainThreadSwitches();
  return {
    mode,
    n,
    concurrency: CONCURRENCY,
    envVars: Object.keys(process.env).length,
    mainCpuUs: cpuNs / 1000 / n,
    eluActiveUs: (elu.active * 1000) / n,
    syncUs: (syncMs * 1000) / n,
    blocked: (sw.voluntary - sw0.voluntary) / n,
    preempted: (sw.involuntary - sw0.involuntary) / n,
    wallMs,
  };
}

for (const mode of MODES) {
  await burst(mode, Math.min(200, N)); // warm-up: JIT, thread stacks, page cache
  console.log(JSON.stringify(await burst(mode, N)));
}
