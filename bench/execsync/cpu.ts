// CPU an ExecSync costs the runtime: the daemon's own CPU plus what its children used (runc, the
// helper, the probe's process: all reaped, so counted in cutime/cstime), from /proc/PID/stat;
// for containerd, containerd and its shims (which run `runc exec` and reap the exec'd process).
// Two figures per target: CPU ms per call (calls one after another, median of per-round figures),
// and CPU % over a kubelet-shaped window (BENCH_PODS pods, one probe each per BENCH_PERIOD s).
import { readdirSync, readFileSync } from 'node:fs';
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import { goToolPath } from '../../test/rig/go-tools.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { goJson } from '../container-calls/go-json.js';
import { runBenchWithRig } from '../bench-rig.js';

const calls = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? '100');
const PODS = Number(process.env.BENCH_PODS ?? '20');
const WINDOW_S = Number(process.env.BENCH_WINDOW ?? '60');
const PERIOD_S = Number(process.env.BENCH_PERIOD ?? '10');
const PROBE = ['cat', '/etc/hostname'];
const TICK_MS = 10; // USER_HZ 100

interface Target {
  name: string;
  endpoint: string;
  /** The runtime's processes now (the daemon; containerd and its shims). */
  pids: () => number[];
  containers: string[];
}

function cpuTicks(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // utime stime cutime cstime: fields 14-17, here 11-14 after the command.
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  } catch {
    return 0;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Shims of one containerd: their command line names its socket's address. */
function shimsOf(address: string): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((p) => {
    const c = cmdline(p);
    return c.includes('containerd-shim') && c.includes(address);
  });
}

const cpuOf = (t: Target) => t.pids().reduce((sum, p) => sum + cpuTicks(p), 0);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    { name: 'isulats (execsync helper)', endpoint: helper.endpoint, pids: () => [helper.pid], containers: [] },
    { name: 'isulats (runc exec)', endpoint: viaRunc.endpoint, pids: () => [viaRunc.pid], containers: [] },
    { name: 'containerd 1.6', endpoint: containerd.endpoint, pids: () => [containerd.pid, ...shimsOf(address)], containers: [] },
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
      const before = cpuOf(t);
      for (let i = 0; i < 10; i++) await probe(clients.get(t.name)!, t.containers[(done + i) % t.containers.length]!);
      perCall.get(t.name)!.push(((cpuOf(t) - before) * TICK_MS) / 10);
    }
  }

  // Steady state: each pod probed once per period, the probes spread evenly, one target at a time.
  const steady = new Map<string, number>();
  if (WINDOW_S > 0) {
    for (const t of targets) {
      const cri = clients.get(t.name)!;
      const gap = (PERIOD_S * 1000) / t.containers.length;
      const start = Date.now();
      const before = cpuOf(t);
      let n = 0;
      while (Date.now() - start < WINDOW_S * 1000) {
        const due = start + n * gap;
        if (due > Date.now()) await sleep(due - Date.now());
        await probe(cri, t.containers[n % t.containers.length]!);
        n++;
      }
      steady.set(t.name, ((cpuOf(t) - before) * TICK_MS) / (Date.now() - start) * 100);
    }
  }
  for (const c of clients.values()) c.close();
  for (const t of targets) await goJson(go, t.endpoint, ['teardown', '-label', 'execsync'], 600_000);

  const ref = targets[2]!.name;
  console.log(`\nCPU ms per ExecSync (${PROBE.join(' ')}), median of ${calls / 10} rounds of 10 calls; load average after: ${loadavg()}`);
  console.log('| runtime | CPU ms per call | × containerd |');
  console.log('| --- | --- | --- |');
  for (const t of targets) console.log(`| ${t.name} | ${median(perCall.get(t.name)!).toFixed(1)} | ${(median(perCall.get(t.name)!) / median(perCall.get(ref)!)).toFixed(2)} |`);
  if (WINDOW_S > 0) {
    console.log(`\nsteady state: ${PODS} pods, one ExecSync per pod every ${PERIOD_S} s, ${WINDOW_S} s per runtime: runtime CPU %`);
    console.log('| runtime | CPU % | × containerd |');
    console.log('| --- | --- | --- |');
    for (const t of targets) console.log(`| ${t.name} | ${steady.get(t.name)!.toFixed(2)} | ${(steady.get(t.name)! / steady.get(ref)!).toFixed(2)} |`);
  }
});
