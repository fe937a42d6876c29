// A burst of exec streams, isulats daemon next to containerd 1.6 in one run, both driven by the
// same client: test/go-cri-client (client-go's SPDY executor, as crictl), N sessions at once, each
// with a connection of its own and the Exec RPC under DEADLINE (crictl's default is 2 s).
// - default: one client process (exec-burst) runs every session, 100 kB of stdin through
//   `wc -c`, with ListPodSandbox every 100 ms under the same deadline;
// - --procs: one client process per session, as N `crictl exec ID echo ok` started at once (the
//   processes' own start competes for the CPU with the runtime), with ListPodSandbox timed from
//   this process every 100 ms.
// Per runtime and N: sessions that succeeded, median and p95 session latency, the errors by
// class, the slowest unary call, and (--procs) how long the slowest failure took to come.
// --load: the bursts run while busy loops hold every CPU (bench/load/cpu-load.ts).
// Usage: node bench/streams/run.mjs [N,N,...] [DEADLINE] [--procs] [--load] [--only isulats|containerd]
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient } from '../../test/rig/cri-client.js';
import { execProcessBurst } from '../../test/rig/exec-process-burst.js';
import { goToolPath, runGoCriClient, type ExecBurstResult } from '../../test/rig/go-tools.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { threadSchedMs } from '../daemon/proc-stats.js';
import { startCpuLoad } from '../load/cpu-load.js';

const args = process.argv.slice(2);
const procs = args.includes('--procs');
const load = args.includes('--load');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
const positional = args.filter((a, i) => !a.startsWith('--') && (onlyAt < 0 || i !== onlyAt + 1));
const sizes = (positional[0] ?? '100').split(',').map(Number);
const deadline = positional[1] ?? '2s';

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : 'n/a');

runBenchWithRig(async (rig) => {
  const bin = goToolPath('go-cri-client');
  const targets: Array<{ name: string; endpoint: string; containerId: string; pid: number }> = [];
  if (only !== 'containerd') {
    // BENCH_EVENT_LOOP_NICE: the daemon's event-loop-nice (default -10; 0 leaves the thread as started).
    const nice = process.env.BENCH_EVENT_LOOP_NICE;
    const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, extraConfig: nice === undefined ? {} : { 'event-loop-nice': Number(nice) } });
    rig.daemons.push(daemon);
    targets.push({ name: 'isulats', endpoint: daemon.endpoint, containerId: '', pid: daemon.pid });
  }
  if (only !== 'isulats') {
    rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] });
    targets.push({ name: 'containerd', endpoint: rig.containerd.endpoint, containerId: '', pid: rig.containerd.pid });
  }
  for (const t of targets) {
    const go = (a: string[]) => runGoCriClient(bin, ['-endpoint', t.endpoint, ...a]);
    const pulled = await go(['pull', '-image', rig.images.busybox]);
    if (pulled.code !== 0) throw new Error(`${t.name}: pull: ${pulled.stderr.trim()}`);
    const r = await go(['run-pod-container', '-name', `streams-bench-${t.name}`, '-label', 'streams-bench', '-image', rig.images.busybox, '--', 'sleep', '36000']);
    if (r.code !== 0) throw new Error(`${t.name}: run-pod-container: ${r.stderr.trim()}`);
    t.containerId = (JSON.parse(r.stdout) as { containerId: string }).containerId;
  }
  console.log(procs
    ? `exec burst${load ? ' under load' : ''}: one client process per session (as crictl exec ID echo ok), Exec deadline ${deadline}`
    : `exec burst${load ? ' under load' : ''}: client-go SPDY, own connection per session, Exec deadline ${deadline}, 100 kB stdin through wc -c`);
  console.log(['runtime', 'N', 'ok', 'median ms', 'p95 ms', 'unary max ms', 'unary failed', 'slowest failure ms', 'main thread on CPU / waiting for one, s', 'errors'].join(' | '));
  for (const n of sizes) {
    for (const t of targets) {
      let b: ExecBurstResult & { failureMs?: number[] };
      const cpuLoad = load ? startCpuLoad() : undefined;
      // The daemon's main thread (isulats: its event loop): how long it ran, and how long it was runnable but waited for a CPU.
      const sched0 = await threadSchedMs(t.pid);
      try {
        if (procs) {
          const client = openCriClient(t.endpoint);
          try {
            b = await execProcessBurst({ bin, endpoint: t.endpoint, containerId: t.containerId, n, deadline, argv: ['echo', 'ok'], expect: 'ok\n',
              processTimeoutMs: 300_000, unary: { client, timeoutMs: 2_000 } });
          } finally {
            client.close();
          }
        } else {
          const r = await runGoCriClient(bin, ['-endpoint', t.endpoint, '-timeout', deadline, 'exec-burst', '-id', t.containerId, '-n', String(n),
            '-stdin-bytes', '100000', '-expect', 'ok\\n100000\\n', '--', 'sh', '-c', 'echo ok; wc -c'], { timeoutMs: 600_000 });
          if (r.code !== 0) throw new Error(`${t.name}: exec-burst: ${r.stderr.trim()}`);
          b = JSON.parse(r.stdout) as ExecBurstResult;
        }
      } finally {
        await cpuLoad?.stop();
      }
      const sched1 = await threadSchedMs(t.pid);
      const sched = t.name !== 'isulats' ? '-' : `${((sched1.runMs - sched0.runMs) / 1000).toFixed(1)} / ${((sched1.waitMs - sched0.waitMs) / 1000).toFixed(1)}`;
      const errors = Object.entries(b.errors).map(([e, c]) => `${c}x ${e}`).join('; ') || '-';
      console.log([t.name, n, `${b.ok}/${n}`, fmt(percentile(b.latenciesMs, 50)), fmt(percentile(b.latenciesMs, 95)),
        fmt(b.unary.maxMs), `${b.unary.failed}/${b.unary.calls}`, b.failureMs?.length ? fmt(b.failureMs.at(-1)!) : '-', sched, errors].join(' | '));
    }
  }
});
