// CPU an ExecSync costs the runtime: the daemon's own CPU plus what its children used (runc, the
// helper, the probe's process: all reaped, so counted in cutime/cstime), from /proc/PID/stat;
// for containerd, containerd and its shims (which run `runc exec` and reap the exec'd process).
// Two figures per target: CPU ms per call (calls one after another, median of per-round figures),
// and CPU % over a kubelet-shaped window (BENCH_PODS pods, one probe each per BENCH_PERIOD s).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import { goToolPath } from '../../test/rig/go-tools.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { goJson } from '../container-calls/go-json.js';
import { runBenchWithRig } from '../bench-rig.js';
import { median, summedCpuMs } from '../daemon/proc-stats.js';
import { fmt, mdTable } from '../daemon/markdown.js';
import { listProcesses } from '../../test/rig/host-cleanup.js';

const calls = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? '100');
const PODS = Number(process.env.BENCH_PODS ?? '20');
const WINDOW_S = Number(process.env.BENCH_WINDOW ?? '60');
const PERIOD_S = Number(process.env.BENCH_PERIOD ?? '10');
const PROBE = ['cat', '/etc/hostname'];

interface Target {
  name: string;
  endpoint: string;
  /** The runtime's processes now (the daemon; containerd and its shims). */
  pids: () => Promise<number[]>;
  containers: string[];
}

/** Shims of one containerd: their command line names its socket's address. */
async function shimsOf(address: string): Promise<number[]> {
  return (await listProcesses()).filter((p) => (p.argv[0] ?? '').includes('containerd-shim') && p.argv.some((a) => a.includes(address))).map((p) => p.pid);
}

/** CPU ms of the runtime's processes so far, their reaped children's included. */
const cpuOf = async (t: Target) => summedCpuMs(await t.pids());

async function probe(cri: RawCriClient, containerId: string): Promise<void> {
  const r = await cri.runtime('ExecSync', { containerId, cmd: PROBE, timeout: 10 }, 60_000) as { exitCode?: number };
  if (r.exitCode) throw new Error(`probe exited ${r.exitCode}`);
}

runBenchWithRig(async (rig) => {
  const go = goToolPath('go-cri-client');
  const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`load average before: ${loadavg()} (other work on the machine moves these figures)`);
  const helper = await startIsulatsDaemon({ podSandboxImage: rig.images.pause });
  rig.daemons.push(helper);
  const viaRunc = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, env: { ISULATS_EXEC_SYNC: 'runc' } });
  rig.daemons.push(viaRunc);
  const containerd = (rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] }));
  const address = containerd.endpoint.replace(/^unix:\/\//, '');
  const targets: Target[] = [
    { name: 'isulats (execsync helper)', endpoint: helper.endpoint, pids: async () => [helper.pid], containers: [] },
    { name: 'isulats (runc exec)', endpoint: viaRunc.endpoint, pids: async () => [viaRunc.pid], containers: [] },
    { name: 'containerd 1.6', endpoint: containerd.endpoint, pids: async () => [containerd.pid, ...(await shimsOf(address))], containers: [] },
  ];
  for (const t of targets) {
    const cri = openCriClient(t.endpoint);
    await cri.image('PullImage', { image: { image: rig.images.busybox } }, 120_000);
    await goJson(go, t.endpoint, ['run', '-n', String(PODS), '-name', 'execsync', '-label', 'execsync', '-image', rig.images.busybox], 600_000);
    const listed = await cri.runtime('ListContainers', {}) as { containers: Array<{ id: string; state: string | number }> };
    t.containers = listed.containers.map((c) => c.id);
    if (t.containers.length !== PODS) throw new Error(`${t.name}: ${t.containers.length} containers, expected ${PODS}`);
    for (const id of t.containers) await probe(cri, id); // warm: first calls (seccomp copy, caches)
    cri.close();
  }

  // CPU per call: rounds of 10 calls, targets interleaved per round.
  const perCall = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const clients = new Map(targets.map((t) => [t.name, openCriClient(t.endpoint)]));
  for (let done = 0; done < calls; done += 10) {
    for (const t of targets) {
      const before = await cpuOf(t);
      for (let i = 0; i < 10; i++) await probe(clients.get(t.name)!, t.containers[(done + i) % t.containers.length]!);
      perCall.get(t.name)!.push(((await cpuOf(t)) - before) / 10);
    }
  }

  // Steady state: each pod probed once per period, the probes spread evenly, one target at a time.
  const steady = new Map<string, number>();
  if (WINDOW_S > 0) {
    for (const t of targets) {
      const cri = clients.get(t.name)!;
      const gap = (PERIOD_S * 1000) / t.containers.length;
      const start = Date.now();
      const before = await cpuOf(t);
      let n = 0;
      while (Date.now() - start < WINDOW_S * 1000) {
        const due = start + n * gap;
        if (due > Date.now()) await sleep(due - Date.now());
        await probe(cri, t.containers[n % t.containers.length]!);
        n++;
      }
      steady.set(t.name, ((await cpuOf(t)) - before) / (Date.now() - start) * 100);
    }
  }
  for (const c of clients.values()) c.close();
  for (const t of targets) await goJson(go, t.endpoint, ['teardown', '-label', 'execsync'], 600_000);

  const ref = targets[2]!.name;
  console.log(`\nCPU ms per ExecSync (${PROBE.join(' ')}), median of ${calls / 10} rounds of 10 calls; load average after: ${loadavg()}`);
  const perCallMs = (name: string) => median(perCall.get(name)!);
  console.log(mdTable(['runtime', 'CPU ms per call', '× containerd'], targets.map((t) => [t.name, fmt(perCallMs(t.name), 1), fmt(perCallMs(t.name) / perCallMs(ref), 2)])));
  if (WINDOW_S > 0) {
    console.log(`\nsteady state: ${PODS} pods, one ExecSync per pod every ${PERIOD_S} s, ${WINDOW_S} s per runtime: runtime CPU %`);
    console.log(mdTable(['runtime', 'CPU %', '× containerd'], targets.map((t) => [t.name, fmt(steady.get(t.name), 2), fmt(steady.get(t.name)! / steady.get(ref)!, 2)])));
  }
});
