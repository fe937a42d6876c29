// A kubelet-shaped steady state, isulats daemon next to containerd 1.6 in one run: N pods (default
// 20, pod + `sleep` container each), then for SECONDS each phase ListPodSandbox + ListContainers
// every second, ListContainerStats every 10 s, and (phase "probes") one ExecSync probe per pod
// every 10 s, spread over the period as kubelet's probe workers are. Measures the CPU of the
// runtime and everything it runs: each daemon is moved into a cpuacct group of its own before its
// pods start, so conmon, runc and the CNI plugins count with the isulats daemon as the shims do
// with containerd (the containers' own processes are in their pods' cgroups, not counted).
// Usage: node bench/daemon/run.mjs --steady [--n 20] [--seconds 60] [--rounds 2] [--load]
//   (needs root and cgroup v1 cpuacct; --load: busy loops hold every CPU throughout)
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { startCpuLoad } from '../load/cpu-load.js';
import { moveToCpuacctGroup, type CpuacctGroup } from './cpuacct-group.js';
import { goClient, type RunOutput } from './go-client.js';
import { machineFacts } from './machine.js';
import { mdTable, fmt } from './markdown.js';
import { median } from './proc-stats.js';

const opt = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] ?? dflt : dflt;
};
const N = Number(opt('--n', '20'));
const SECONDS = Number(opt('--seconds', '60'));
const ROUNDS = Number(opt('--rounds', '2'));
const LOAD = process.argv.includes('--load');
const PHASES = ['probes', 'no probes'] as const;

interface Target { name: string; endpoint: string; pid: number; group?: CpuacctGroup; containers: string[] }

/** One phase on one runtime: its CPU in ms per second of wall time, and the calls that failed. */
async function phase(t: Target, cri: RawCriClient, probes: boolean): Promise<{ cpuMsPerS: number; failed: number; calls: number }> {
  let failed = 0;
  let calls = 0;
  const call = (p: Promise<unknown>): Promise<void> => {
    calls++;
    return p.then(() => undefined, () => { failed++; });
  };
  const inFlight: Array<Promise<void>> = [];
  const cpu0 = await t.group!.usageMs();
  const t0 = performance.now();
  const probeEveryMs = 10_000 / Math.max(1, t.containers.length);
  let nextProbe = 0;
  for (let tick = 0; performance.now() - t0 < SECONDS * 1000; tick++) {
    const tickStart = t0 + tick * 1000;
    inFlight.push(call(cri.runtime('ListPodSandbox', {})), call(cri.runtime('ListContainers', {})));
    if (tick % 10 === 0) inFlight.push(call(cri.runtime('ListContainerStats', {})));
    // The probes due within this second, each at its own offset.
    while (probes && nextProbe * probeEveryMs < (tick + 1) * 1000) {
      const at = t0 + nextProbe * probeEveryMs;
      const id = t.containers[nextProbe % t.containers.length]!;
      nextProbe++;
      await sleep(Math.max(0, at - performance.now()));
      inFlight.push(call(cri.runtime('ExecSync', { containerId: id, cmd: ['true'], timeout: 5 }, 10_000)));
    }
    await sleep(Math.max(0, tickStart + 1000 - performance.now()));
  }
  await Promise.all(inFlight);
  const wallS = (performance.now() - t0) / 1000;
  return { cpuMsPerS: ((await t.group!.usageMs()) - cpu0) / wallS, failed, calls };
}

runBenchWithRig(async (rig) => {
  const { images, dir } = rig;
  const facts = await machineFacts();
  const daemon = await startIsulatsDaemon({ podSandboxImage: images.pause });
  rig.daemons.push(daemon);
  const containerd = (rig.containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [rig.registry.host] }));
  const targets: Target[] = [
    { name: 'containerd 1.6', endpoint: containerd.endpoint, pid: containerd.pid, containers: [] },
    { name: 'isulats', endpoint: daemon.endpoint, pid: daemon.pid, containers: [] },
  ];
  const label = `steady-${process.pid}`;
  const load = LOAD ? startCpuLoad() : undefined;
  try {
    for (const t of targets) {
      for (const image of [images.busybox, images.pause]) await goClient(['pull', '-image', image], { endpoint: t.endpoint });
      t.group = await moveToCpuacctGroup(t.pid, `ist-steady-${t.name.split(' ')[0]}-${process.pid}`);
      const r = await goClient<RunOutput>(['run', '-n', String(N), '-name', 'steady', '-label', label, '-log-root', join(dir, 'pod-logs'),
        '-image', images.busybox], { endpoint: t.endpoint });
      if (r.failed) throw new Error(`${t.name}: ${r.failed} of ${N} pods failed: ${Object.keys(r.errors)[0]}`);
      t.containers = r.pods.map((p) => p.containerId);
    }
    await sleep(5_000); // the pods' start settles
    const results = new Map<string, number[]>();
    const failures = new Map<string, string>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const probes of [true, false]) {
        for (const t of round % 2 ? [...targets].reverse() : targets) {
          const cri = openCriClient(t.endpoint);
          try {
            console.error(`[bench] round ${round + 1}/${ROUNDS}, ${probes ? 'probes' : 'no probes'}: ${t.name}`);
            const r = await phase(t, cri, probes);
            const key = `${t.name}/${probes ? PHASES[0] : PHASES[1]}`;
            results.set(key, [...(results.get(key) ?? []), r.cpuMsPerS]);
            if (r.failed) failures.set(key, `${r.failed}/${r.calls} calls failed`);
          } finally {
            cri.close();
          }
        }
      }
    }
    console.log(`## Steady state, ${new Date().toISOString().slice(0, 10)}`);
    console.log();
    console.log(facts);
    console.log();
    console.log(`${N} pods; ListPodSandbox + ListContainers every 1 s, ListContainerStats every 10 s, probes: ExecSync \`true\` per pod every 10 s; ` +
      `${SECONDS} s per phase, median of ${ROUNDS} rounds${load ? `; under ${load.loops} busy loops` : ''}. CPU of the runtime's cpuacct group (daemon, monitors or shims, runc, CNI).`);
    console.log();
    console.log(mdTable(['phase', ...targets.map((t) => `${t.name} ms/s`), 'isulats / containerd'], PHASES.map((p) => {
      const [c, i] = targets.map((t) => median(results.get(`${t.name}/${p}`) ?? []));
      return [p, fmt(c!, 1), fmt(i!, 1), fmt(i! / c!, 2)];
    })));
    for (const [key, f] of failures) console.log(`\n${key}: ${f}`);
  } finally {
    await load?.stop();
    for (const t of targets) {
      await goClient(['teardown', '-label', label], { endpoint: t.endpoint }).catch((e: Error) => console.error(`teardown ${t.name}: ${e.message}`));
      await t.group?.remove().catch((e: Error) => console.error(`cpuacct group of ${t.name}: ${e.message}`));
    }
  }
});
