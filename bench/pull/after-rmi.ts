// PullImage right after RemoveImage, the rig's busybox image (one layer: the busybox binary, an
// applet symlink each, a few dirs and files), isulats daemon next to containerd 1.6 through the same
// Go client, interleaved, medians. Two shapes:
//   lifecycle  a pod and container run, exec'd, stopped and removed, then RemoveImage (untimed) and
//              PullImage (timed by the client): bench/daemon's lifecycle, the pull only
//   bare       RemoveImage (untimed), then PullImage, no pod before it (the whole client process
//              timed from outside: its start-up included, for both)
//   bare cpu   the runtime's own CPU time (user + system) over that PullImage
//   rmi + bare cpu, children too   the same over RemoveImage and PullImage, with its reaped children's
//              (the removal's work, wherever and whenever each runtime does it; containerd's shims
//              are not its children and take no part here)
// Usage: node bench/pull/run-after-rmi.mjs [ROUNDS]   (BENCH_DAEMON_NODE_ARGS passes Node flags,
// e.g. --cpu-prof --cpu-prof-dir=/tmp/x; BENCH_STRACE=FILE straces each runtime over the last
// round; BENCH_BASE_BIN=<other checkout>/bin/isulats adds that build's daemon as "isulats-before";
// BENCH_GAP=300ms adds the lifecycle shape with that pause after every call; BENCH_BARE_ONLY=1
// runs the bare shape only, for a CPU profile of pulls alone)
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { startContainerd } from '../../test/rig/containerd.js';
import { goToolPath } from '../../test/rig/go-tools.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { run } from '../../test/rig/proc.js';
import { runBenchWithRig } from '../bench-rig.js';
import { goClient, type LifecycleOutput } from '../daemon/go-client.js';
import { cpuMs, median } from '../daemon/proc-stats.js';
import { join } from 'node:path';

const rounds = Number(process.argv[2] ?? 9);

runBenchWithRig(async (rig) => {
  const { images, dir } = rig;
  rig.containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [rig.registry.host] });
  const nodeArgs = process.env.BENCH_DAEMON_NODE_ARGS?.split(' ').filter(Boolean);
  const daemon = await startIsulatsDaemon({ podSandboxImage: images.pause, nodeArgs });
  rig.daemons.push(daemon);
  const logRoot = join(dir, 'pod-logs');
  const targets = [
    { name: 'containerd', endpoint: rig.containerd.endpoint, pid: rig.containerd.pid },
    { name: 'isulats', endpoint: daemon.endpoint, pid: daemon.pid },
  ];
  if (process.env.BENCH_BASE_BIN) {
    const before = await startIsulatsDaemon({ podSandboxImage: images.pause, nodeArgs, binPath: process.env.BENCH_BASE_BIN });
    rig.daemons.push(before);
    targets.push({ name: 'isulats-before', endpoint: before.endpoint, pid: before.pid });
  }
  for (const t of targets) for (const image of [images.busybox, images.pause]) await goClient(['pull', '-image', image], { endpoint: t.endpoint });

  const times = new Map<string, number[]>();
  const add = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
  const pullMs = (out: LifecycleOutput) => out.timeline.find((c) => c.call === 'PullImage')!.ms;
  for (let r = 0; r < rounds; r++) {
    const last = r === rounds - 1;
    for (const t of r % 2 ? [...targets].reverse() : targets) {
      const trace = last && process.env.BENCH_STRACE ? startStrace(t.pid, `${process.env.BENCH_STRACE}.${t.name}`) : undefined;
      if (trace) await sleep(300);
      const lc = process.env.BENCH_BARE_ONLY ? undefined : await goClient<LifecycleOutput>(['lifecycle', '-k', '1', '-pull', '-name', 'pull-bench', '-label', `pb-${t.name}`, '-log-root', logRoot,
        '-image', images.busybox], { endpoint: t.endpoint });
      if (lc) add(`lifecycle|${t.name}`, pullMs(lc));
      if (process.env.BENCH_GAP) {
        const gapped = await goClient<LifecycleOutput>(['lifecycle', '-k', '1', '-pull', '-gap', process.env.BENCH_GAP, '-name', 'pull-bench', '-label', `pb-${t.name}`,
          '-log-root', logRoot, '-image', images.busybox], { endpoint: t.endpoint });
        add(`lifecycle, calls ${process.env.BENCH_GAP} apart|${t.name}`, pullMs(gapped));
      }
      const cpuBeforeRmi = await cpuMs(t.pid);
      await run(goToolPath('go-cri-client'), ['-endpoint', t.endpoint, 'remove-image', '-image', images.busybox]);
      const cpu0 = await cpuMs(t.pid);
      const t0 = process.hrtime.bigint();
      await goClient(['pull', '-image', images.busybox], { endpoint: t.endpoint });
      add(`bare|${t.name}`, Number(process.hrtime.bigint() - t0) / 1e6);
      const cpu1 = await cpuMs(t.pid);
      add(`bare cpu|${t.name}`, cpu1.self - cpu0.self);
      // What each spends on the removal too, wherever it does it (containerd inside RemoveImage, isulats
      // partly after it and in an rm child), over the pair.
      add(`rmi + bare cpu, children too|${t.name}`, cpu1.self + cpu1.children - cpuBeforeRmi.self - cpuBeforeRmi.children);
      trace?.kill('SIGINT');
    }
  }
  console.log(`PullImage after RemoveImage of ${images.busybox}, ${rounds} interleaved rounds, medians (ms, timed by the Go client)`);
  const ours = targets.filter((t) => t.name !== 'containerd').map((t) => t.name);
  console.log(`| shape | containerd 1.6 | ${ours.join(' | ')} | ${ours.map((n) => `${n} / containerd`).join(' | ')} |`);
  console.log(`| --- | --- | ${ours.map(() => '--- | ---').join(' | ')} |`);
  for (const shape of ['lifecycle', ...(process.env.BENCH_GAP ? [`lifecycle, calls ${process.env.BENCH_GAP} apart`] : []), 'bare', 'bare cpu', 'rmi + bare cpu, children too']) {
    const b = median(times.get(`${shape}|containerd`) ?? []);
    const a = ours.map((n) => median(times.get(`${shape}|${n}`) ?? []));
    if (!times.has(`${shape}|containerd`)) continue;
    console.log(`| ${shape} | ${b.toFixed(1)} | ${a.map((x) => x.toFixed(1)).join(' | ')} | ${a.map((x) => (x / b).toFixed(2)).join(' | ')} |`);
  }
  console.log(JSON.stringify(Object.fromEntries(times)));
});

function startStrace(pid: number, file: string) {
  return spawn('strace', ['-f', '-qq', '-T', '-ttt', '-p', String(pid), '-o', file, '-e', 'trace=%file,%desc,%process,%network'], { stdio: 'ignore' });
}
