// A kubelet-shaped node at N = 20, 110 and 250 pods, isulats daemon beside containerd 1.6 in one
// run (bench/daemon/node-scale.ts does one runtime at one N): runtime CPU per second, daemon RSS,
// runtime RSS in all, List* latency p50/p99, the time to start and to remove all N pods, then the
// cost per pod from the smallest N to the largest (the slope). Runtimes alternate first at each N;
// /proc/loadavg before and after each N.
// Usage: node bench/daemon/run.mjs --scale [--n 20,110,250] [--seconds 30] [--load]
//   (root, cgroup v1 cpuacct; --load: 4 busy loops throughout)
import { readFile } from 'node:fs/promises';
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

const opt = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] ?? dflt : dflt;
};
const NS = opt('--n', '20,110,250').split(',').map(Number);
const SECONDS = Number(opt('--seconds', '30'));
const LOAD = process.argv.includes('--load');
const loadavg = async (): Promise<string> => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');

runBenchWithRig(async (rig) => {
  const facts = await machineFacts();
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause });
  rig.daemons.push(daemon);
  const ctd = (rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] }));
  const targets: NodeTarget[] = [];
  const load = LOAD ? startCpuLoad(4) : undefined;
  const out: string[] = [];
  const all = new Map<string, NodeFigures[]>();
  try {
    for (const [name, endpoint, pid] of [['containerd 1.6', ctd.endpoint, ctd.pid], ['isulats', daemon.endpoint, daemon.pid]] as const) {
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
      const [c, s] = figs as [NodeFigures, NodeFigures];
      const row = (label: string, a: number, b: number, digits = 0): string[] => [label, fmt(a, digits), fmt(b, digits), fmt(b / a, 2)];
      out.push(`### N = ${n}: load average ${before} before, ${await loadavg()} after`, '');
      out.push(mdTable(['', 'containerd 1.6', 'isulats', 'isulats / containerd'], [
        row('start all N at once, ms', c.startAllMs, s.startAllMs),
        row('remove all N at once, ms', c.removeAllMs, s.removeAllMs),
        row('runtime CPU, ms/s (steady)', c.cpuMsPerS, s.cpuMsPerS, 1),
        ['daemon VmRSS, MiB', mib(c.daemonRssKb), mib(s.daemonRssKb), fmt(s.daemonRssKb / c.daemonRssKb, 2)],
        [`runtime VmRSS in all, MiB (processes: ${c.runtimeProcs} / ${s.runtimeProcs})`, mib(c.runtimeRssKb), mib(s.runtimeRssKb), fmt(s.runtimeRssKb / c.runtimeRssKb, 2)],
        ...LISTS.flatMap((m) => [row(`${m} p50, ms`, c.lists[m].p50, s.lists[m].p50, 1), row(`${m} p99, ms (of ${c.lists[m].count} / ${s.lists[m].count})`, c.lists[m].p99, s.lists[m].p99, 1)]),
      ]), '');
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
      out.push(mdTable(['per added pod', 'containerd 1.6', 'isulats', 'isulats / containerd'], rows.map(([label, pick, d]) => {
        const [a, b] = targets.map((t) => slope(t.name, pick));
        return [label, fmt(a, d), fmt(b, d), fmt(b! / a!, 2)];
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
});
