// A kubelet-shaped node at N = 20, 110 and 250 pods, isulats daemon beside containerd 1.6 in one
// run (bench/daemon/node-scale.ts does one runtime at one N): runtime CPU per second, daemon RSS,
// runtime RSS in all, List* latency p50/p99, the time to start and to remove all N pods, then the
// cost per pod from the smallest N to the largest (the slope). Runtimes alternate first at each N;
// /proc/loadavg before and after each N.
// Usage: node bench/daemon/run.mjs --scale [--n 20,110,250] [--seconds 30] [--load] [--runtimes containerd,isulats] [--cpu-prof] [--server-times]
//   (root, cgroup v1 cpuacct; --load: 4 busy loops throughout; --runtimes isulats: the daemon alone, to
//   profile it; --cpu-prof: the daemon under node --cpu-prof, its top self time printed at the end
//   (--cpu-prof-dir DIR keeps the profile);
//   --server-times: the daemon logs every call at debug, and each List call's time is split into the
//   wait before the daemon took it up, its work, and the time from its answer to the client: server-times.ts)
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startContainerd } from '../../test/rig/containerd.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { startCpuLoad } from '../load/cpu-load.js';
import { moveToCpuacctGroup } from './cpuacct-group.js';
import { goClient } from './go-client.js';
import { machineFacts } from './machine.js';
import { fmt, mdTable, mib } from './markdown.js';
import { LISTS, measureNode, type NodeFigures, type NodeTarget } from './node-scale.js';
import { topSelfTime } from './cpu-profile.js';
import { serverListTimes } from './server-times.js';

const opt = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] ?? dflt : dflt;
};
const NS = opt('--n', '20,110,250').split(',').map(Number);
const SECONDS = Number(opt('--seconds', '30'));
const LOAD = process.argv.includes('--load');
const RUNTIMES = opt('--runtimes', 'containerd,isulats').split(',');
const PROFILE = process.argv.includes('--cpu-prof');
const SERVER_TIMES = process.argv.includes('--server-times');
const loadavg = async (): Promise<string> => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');

runBenchWithRig(async (rig) => {
  const facts = await machineFacts();
  const profDir = opt('--cpu-prof-dir', join(rig.dir, 'prof'));
  const daemon = await startIsulatsDaemon({
    podSandboxImage: rig.images.pause,
    // BENCH_BEFORE_BIN=<checkout>/bin/isulats: another build's daemon in the isulats column (a before run).
    ...(process.env.BENCH_BEFORE_BIN ? { binPath: process.env.BENCH_BEFORE_BIN } : {}),
    ...(PROFILE ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir] } : {}),
    ...(SERVER_TIMES ? { logLevel: 'debug' } : {}),
  });
  rig.daemons.push(daemon);
  const ctd = RUNTIMES.includes('containerd') ? (rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] })) : undefined;
  const targets: NodeTarget[] = [];
  const load = LOAD ? startCpuLoad(4) : undefined;
  const out: string[] = [];
  const all = new Map<string, NodeFigures[]>();
  try {
    const runtimes = [...(ctd ? [['containerd 1.6', ctd.endpoint, ctd.pid] as const] : []), ['isulats', daemon.endpoint, daemon.pid] as const];
    for (const [name, endpoint, pid] of runtimes) {
      for (const image of [rig.images.busybox, rig.images.pause]) await goClient(['pull', '-image', image], { endpoint });
      targets.push({ name, endpoint, pid, group: await moveToCpuacctGroup(pid, `ist-scale-${name.split(' ')[0]}-${process.pid}`) });
    }
    for (const [k, n] of NS.entries()) {
      const before = await loadavg();
      const figs: NodeFigures[] = [];
      for (const t of k % 2 ? [...targets].reverse() : targets) {
        console.error(`[bench] N=${n}: ${t.name}`);
        const f = await measureNode(t, { n, seconds: SECONDS, image: rig.images.busybox, logRoot: join(rig.dir, 'logs'), label: `scale-${process.pid}-${n}` });
        figs[targets.indexOf(t)] = f;
        all.set(t.name, [...(all.get(t.name) ?? []), f]);
      }
      const names = targets.map((t) => t.name);
      const two = figs.length === 2;
      // One column per runtime, and their ratio when both ran.
      const row = (label: string, pick: (f: NodeFigures) => number, digits = 0, show: (v: number) => string = (v) => fmt(v, digits)): string[] =>
        [label, ...figs.map((f) => show(pick(f))), ...(two ? [fmt(pick(figs[1]!) / pick(figs[0]!), 2)] : [])];
      out.push(`### N = ${n}: load average ${before} before, ${await loadavg()} after`, '');
      const rows = [
        row('start all N at once, ms', (f) => f.startAllMs),
        row('remove all N at once, ms', (f) => f.removeAllMs),
        row('runtime CPU, ms/s (steady)', (f) => f.cpuMsPerS, 1),
        row('daemon VmRSS, MiB', (f) => f.daemonRssKb, 0, mib),
        row('daemon RssAnon (VmRSS without file pages), MiB', (f) => f.daemonAnonKb, 0, mib),
        row(`runtime VmRSS in all, MiB (processes: ${figs.map((f) => f.runtimeProcs).join(' / ')})`, (f) => f.runtimeRssKb, 0, mib),
        ...LISTS.flatMap((m) => [row(`${m} p50, ms`, (f) => f.lists[m].p50, 1), row(`${m} p99, ms (of ${figs.map((f) => f.lists[m].count).join(' / ')})`, (f) => f.lists[m].p99, 1)]),
      ];
      if (SERVER_TIMES) {
        const isu = figs[names.indexOf('isulats')]!;
        const times = await serverListTimes(daemon.logPath, isu.listCalls);
        for (const m of LISTS) {
          const t = times[m];
          const cell = `before ${fmt(t.before.p50, 1)} / ${fmt(t.before.p99, 1)}, inside ${fmt(t.inside.p50, 1)} / ${fmt(t.inside.p99, 1)}, after ${fmt(t.after.p50, 1)} / ${fmt(t.after.p99, 1)} (${t.count} calls)`;
          rows.push([`${m} in the daemon, p50 / p99 ms`, ...names.map((name) => (name === 'isulats' ? cell : '')), ...(two ? [''] : [])]);
        }
      }
      out.push(mdTable(['', ...names, ...(two ? ['isulats / containerd'] : [])], rows), '');
      for (const f of figs) if (f.failed) out.push(`${targets[figs.indexOf(f)]!.name}: ${f.failed} calls failed in the steady state (first: ${f.firstError})`, '');
    }
    if (NS.length > 1) {
      const slope = (name: string, pick: (f: NodeFigures) => number): number => {
        const fs = all.get(name)!;
        return (pick(fs.at(-1)!) - pick(fs[0]!)) / (fs.at(-1)!.n - fs[0]!.n);
      };
      const rows: Array<[string, (f: NodeFigures) => number, number]> = [
        ['runtime CPU, ms/s per pod', (f) => f.cpuMsPerS, 2],
        ['runtime VmRSS in all, kB per pod', (f) => f.runtimeRssKb, 0],
        ['daemon VmRSS, kB per pod', (f) => f.daemonRssKb, 0],
        ['start all, ms per pod', (f) => f.startAllMs, 1],
        ['remove all, ms per pod', (f) => f.removeAllMs, 1],
        ['ListContainers p50, ms per pod', (f) => f.lists.ListContainers.p50, 3],
      ];
      out.push(`### Slope, N = ${NS[0]} → ${NS.at(-1)} (each figure's difference over the difference in pods)`, '');
      out.push(mdTable(['per added pod', ...targets.map((t) => t.name), ...(targets.length === 2 ? ['isulats / containerd'] : [])], rows.map(([label, pick, d]) => {
        const v = targets.map((t) => slope(t.name, pick));
        return [label, ...v.map((x) => fmt(x, d)), ...(v.length === 2 ? [fmt(v[1]! / v[0]!, 2)] : [])];
      })), '');
    }
  } finally {
    await load?.stop();
    for (const t of targets) await t.group.remove().catch((e: Error) => console.error(`cpuacct group of ${t.name}: ${e.message}`));
  }
  console.log([`## A node at ${NS.join(', ')} pods, ${new Date().toISOString().slice(0, 10)}`, '', facts, '',
    `Pod + one \`sleep\` container each (kubelet's namespace options), started at once by the Go client; then ${SECONDS} s of relist (ListPodSandbox + ListContainers) every 1 s, ` +
    `ListContainerStats every 10 s, an ExecSync \`true\` probe per pod every 10 s; then all removed at once${load ? `; under ${load.loops} busy loops` : ''}. ` +
    'CPU and RSS in all: the runtime\'s own cpuacct group (daemon, conmons or shims, runc, CNI).', '', ...out].join('\n'));
  if (PROFILE) {
    await daemon.cleanup(); // the profile is written when the daemon exits
    rig.daemons.length = 0;
    const files = (await readdir(profDir).catch(() => [] as string[])).filter((f) => f.endsWith('.cpuprofile'));
    for (const f of files) console.log([`### Daemon profile (${f}), top self time`, '', await topSelfTime(join(profDir, f), 25)].join('\n'));
  }
});
