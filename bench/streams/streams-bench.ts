// A burst of exec streams, isulats daemon next to containerd 1.6 in one run, both driven by the
// same client: test/go-cri-client exec-burst (client-go's SPDY executor, as crictl), N sessions
// at once, each with a connection of its own, the Exec RPC under DEADLINE (crictl's default is
// 2 s), 100 kB of stdin through `wc -c`; meanwhile ListPodSandbox every 100 ms under the same
// deadline. Per runtime and N: sessions that succeeded, median and p95 session latency (connect
// to exit status), the errors by class, and the slowest unary call.
// Usage: node bench/streams/run.mjs [N,N,...] [DEADLINE]   (default 100 and 2s)
import { startContainerd } from '../../test/rig/containerd.js';
import { goToolPath, runGoCriClient, type ExecBurstResult } from '../../test/rig/go-tools.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';

const sizes = (process.argv[2] ?? '100').split(',').map(Number);
const deadline = process.argv[3] ?? '2s';

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : 'n/a');

runBenchWithRig(async (rig) => {
  const bin = goToolPath('go-cri-client');
  rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] });
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause });
  rig.daemons.push(daemon);
  const targets = [
    { name: 'isulats', endpoint: daemon.endpoint, containerId: '' },
    { name: 'containerd', endpoint: rig.containerd.endpoint, containerId: '' },
  ];
  for (const t of targets) {
    const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', t.endpoint, ...args]);
    const pulled = await go(['pull', '-image', rig.images.busybox]);
    if (pulled.code !== 0) throw new Error(`${t.name}: pull: ${pulled.stderr.trim()}`);
    const r = await go(['run-pod-container', '-name', `streams-bench-${t.name}`, '-label', 'streams-bench', '-image', rig.images.busybox, '--', 'sleep', '36000']);
    if (r.code !== 0) throw new Error(`${t.name}: run-pod-container: ${r.stderr.trim()}`);
    t.containerId = (JSON.parse(r.stdout) as { containerId: string }).containerId;
  }
  console.log(`exec burst: client-go SPDY, own connection per session, Exec deadline ${deadline}, 100 kB stdin through wc -c`);
  console.log(['runtime', 'N', 'ok', 'median ms', 'p95 ms', 'unary max ms', 'unary failed', 'errors'].join(' | '));
  for (const n of sizes) {
    for (const t of targets) {
      const r = await runGoCriClient(bin, ['-endpoint', t.endpoint, '-timeout', deadline, 'exec-burst', '-id', t.containerId, '-n', String(n),
        '-stdin-bytes', '100000', '-expect', 'ok\\n100000\\n', '--', 'sh', '-c', 'echo ok; wc -c'], { timeoutMs: 600_000 });
      if (r.code !== 0) throw new Error(`${t.name}: exec-burst: ${r.stderr.trim()}`);
      const b = JSON.parse(r.stdout) as ExecBurstResult;
      const errors = Object.entries(b.errors).map(([e, c]) => `${c}x ${e}`).join('; ') || '-';
      console.log([t.name, n, `${b.ok}/${n}`, fmt(percentile(b.latenciesMs, 50)), fmt(percentile(b.latenciesMs, 95)),
        fmt(b.unary.maxMs), `${b.unary.failed}/${b.unary.calls}`, errors].join(' | '));
    }
  }
});
