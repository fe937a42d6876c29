// CPU per read call: N pods on each runtime, then the same call many times in a row on one
// connection, and the runtime's CPU time (utime + stime of the daemon process, /proc/PID/stat)
// over the calls. Wall-clock latency on a shared machine is mostly the wait for a CPU, which
// grows with the CPU a call needs; this measures that need itself, which the load barely moves.
// The lowest of 3 rounds (runtimes alternating) per call. Daemon variants as --variants
// "flags;flags" (ISULATS_DAEMON_NODE_FLAGS, "default" for the shipped flags; "env:NAME=VALUE" sets
// that variable instead, e.g. "env:ISULATS_H2_TRANSPORT=0" for the daemon before the hand-framed transport).
// Usage: node bench/daemon/run.mjs --list-cpu [--n 20] [--calls 300] [--variants default] [--no-containerd]
import { readFileSync } from 'node:fs';
import { startContainerd } from '../../test/rig/containerd.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { openCriClient } from '../../test/rig/cri-client.js';
import { runBenchWithRig } from '../bench-rig.js';
import { goClient } from './go-client.js';
import { machineFacts } from './machine.js';
import { fmt, mdTable } from './markdown.js';
import { rssAnonKb, vmRssKb } from './proc-stats.js';

const opt = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] ?? dflt : dflt;
};
const N = Number(opt('--n', '20'));
const CALLS = Number(opt('--calls', '300'));
const VARIANTS = opt('--variants', 'default').split(';');
const METHODS = ['Version', 'ListPodSandbox', 'ListContainers', 'ListContainerStats'];
const ROUNDS = 3;

/** utime + stime of `pid` in ms (clock ticks of 10 ms). */
const cpuMs = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

runBenchWithRig(async (rig) => {
  const facts = await machineFacts();
  const targets: Array<{ name: string; endpoint: string; pid: number }> = [];
  if (!process.argv.includes('--no-containerd')) {
    const c = (rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] }));
    targets.push({ name: 'containerd 1.6', endpoint: c.endpoint, pid: c.pid });
  }
  for (const v of VARIANTS) {
    const env = v.startsWith('env:') ? { [v.slice(4, v.indexOf('='))]: v.slice(v.indexOf('=') + 1) } : { ISULATS_DAEMON_NODE_FLAGS: v };
    const d = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, ...(v === 'default' ? {} : { env }) });
    rig.daemons.push(d);
    targets.push({ name: v === 'default' ? 'isulats' : v.startsWith('env:') ? `isulats, ${v.slice(4)}` : `isulats, flags: ${v}`, endpoint: d.endpoint, pid: d.pid });
  }
  for (const t of targets) {
    for (const image of [rig.images.busybox, rig.images.pause]) await goClient(['pull', '-image', image], { endpoint: t.endpoint });
    if (N) await goClient(['run', '-n', String(N), '-name', 'web', '-label', 'list-cpu=1', '-log-root', `${rig.dir}/logs-${t.pid}`, '-image', rig.images.busybox], { endpoint: t.endpoint, timeoutMs: 600_000 });
  }
  const before = loadavg();
  const perCall = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      const cri = openCriClient(t.endpoint);
      for (const m of METHODS) {
        for (let i = 0; i < 5; i++) await cri.runtime(m, {});
        const calls = m === 'ListContainerStats' ? Math.ceil(CALLS / 10) : CALLS;
        const c0 = cpuMs(t.pid);
        for (let i = 0; i < calls; i++) await cri.runtime(m, {});
        perCall.set(`${t.name}|${m}`, [...(perCall.get(`${t.name}|${m}`) ?? []), (cpuMs(t.pid) - c0) / calls]);
      }
      cri.close();
    }
  }
  const after = loadavg();
  const rows = [];
  for (const t of targets) {
    rows.push([t.name, ...METHODS.map((m) => fmt(Math.min(...perCall.get(`${t.name}|${m}`)!), 3)), fmt((await vmRssKb(t.pid)) / 1024, 1), fmt((await rssAnonKb(t.pid)) / 1024, 1)]);
  }
  for (const t of targets) if (N) await goClient(['teardown', '-label', 'list-cpu=1'], { endpoint: t.endpoint, timeoutMs: 600_000 });
  console.log([`## Daemon CPU per read call, ${N} pods, ${new Date().toISOString().slice(0, 10)}`, '', facts, '',
    `${CALLS} calls in a row on one connection (ListContainerStats: ${Math.ceil(CALLS / 10)}), the lowest of ${ROUNDS} rounds; load average ${before} before, ${after} after.`, '',
    mdTable(['daemon CPU ms per call', ...METHODS, 'VmRSS MiB', 'RssAnon MiB'], rows)].join('\n'));
});
