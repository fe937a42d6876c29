// Upstream crictl as the client, isulats daemon beside containerd 1.6 in one run (issue 31): per
// iteration `crictl run c.json p.json` then `crictl rmp -f`, and the same pod step by step (runp,
// create, start, rmp), a crictl process per call as a user types them, interleaved between the
// runtimes (order alternating), idle and under the busy loops. Medians; ratios of one run only;
// /proc/loadavg before and after each mode. The floor of `crictl run`, in the same rounds: what a
// `crictl version` process costs (start-up, dial, Version) plus one pod by bare runc and CNI
// without a daemon or a pause (floor.ts, -no-pause): netns, the CNI chain, the container's overlay
// and `runc run -d`. --cpu-prof: the daemon runs with node --cpu-prof and the top self-time
// functions of its profile are printed after the tables.
// --configs minimal: hand-written configs without kubelet's security context (crictl-client.ts).
// Usage: node bench/daemon/run.mjs --crictl [--iterations 7] [--modes idle,load] [--configs kubelet|minimal] [--cpu-prof [--cpu-prof-dir DIR: keep it]]
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startContainerd } from '../../test/rig/containerd.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { crictlBinary } from '../crictl-binary.js';
import { startCpuLoad } from '../load/cpu-load.js';
import { CRICTL_STEPS, crictlFor, crictlRunThenRmp, crictlSteps, type ConfigShape, type Crictl } from './crictl-client.js';
import { machineFacts } from './machine.js';
import { fmt, mdTable } from './markdown.js';
import { median } from './proc-stats.js';
import { topSelfTime } from './cpu-profile.js';
import { prepareFloor } from './floor.js';

const opt = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] ?? dflt : dflt;
};
const ITERATIONS = Number(opt('--iterations', '7'));
const MODES = opt('--modes', 'idle,load').split(',');
const PROFILE = process.argv.includes('--cpu-prof');
const SHAPE = opt('--configs', 'kubelet') as ConfigShape;
const ROWS = ['crictl run', 'crictl rmp -f (after run)', ...CRICTL_STEPS.map((s) => `step: ${s}`), 'steps: runp+create+start'];

const loadavg = async (): Promise<string> => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');

runBenchWithRig(async (rig) => {
  const bin = crictlBinary();
  if (!bin) throw new Error('no crictl: run scripts/build-critest.sh --crictl-only');
  const facts = await machineFacts();
  const profDir = opt('--cpu-prof-dir', join(rig.dir, 'prof'));
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, ...(PROFILE ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir] } : {}) });
  rig.daemons.push(daemon);
  rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] });
  const clients: Array<{ name: string; c: Crictl }> = [
    { name: 'containerd 1.6', c: await crictlFor(bin, rig.containerd.endpoint, rig.dir, rig.images.busybox, 'ctd', SHAPE) },
    { name: 'isulats', c: await crictlFor(bin, daemon.endpoint, rig.dir, rig.images.busybox, 'ist', SHAPE) },
  ];
  for (const { c } of clients) {
    await c.call(['pull', rig.images.busybox]);
    await crictlRunThenRmp(c, 'warm'); // containerd pulls its pause image, both warm their caches
  }
  const floor = await prepareFloor(join(rig.dir, 'floor'));
  try {
    const floorRun = async (tag: string): Promise<number> => {
      const version = await clients[1]!.c.call(['version']);
      const pod = await floor.run(1, 'runc', tag, { noPause: true });
      if (pod.failed) throw new Error(`floor ${tag}: ${Object.keys(pod.errors).join('; ')}`);
      return version.ms + pod.wallMs;
    };
    await floorRun('warm');
    const out: string[] = [];
    for (const mode of MODES) {
      const load = mode === 'load' ? startCpuLoad(4) : undefined;
      const before = await loadavg();
      const times = new Map<string, number[]>();
      const add = (k: string, ms: number) => times.set(k, [...(times.get(k) ?? []), ms]);
      try {
        for (let i = 0; i < ITERATIONS; i++) {
          console.error(`[bench] ${mode} ${i + 1}/${ITERATIONS}`);
          for (const { name, c } of i % 2 ? [...clients].reverse() : clients) {
            const r = await crictlRunThenRmp(c, `${mode}-r${i}`);
            add(`${name}/crictl run`, r.run);
            add(`${name}/crictl rmp -f (after run)`, r.rmp);
            const s = await crictlSteps(c, `${mode}-s${i}`);
            for (const step of CRICTL_STEPS) add(`${name}/step: ${step}`, s[step]);
            add(`${name}/steps: runp+create+start`, s.runp + s.create + s.start);
          }
          add('floor/crictl run', await floorRun(`${mode}${i}`));
        }
      } finally {
        await load?.stop();
      }
      const after = await loadavg();
      out.push(`### ${mode === 'load' ? `Under ${load!.loops} busy loops` : 'Idle (no loops of ours)'}: load average ${before} before, ${after} after`, '');
      out.push(mdTable(['ms, median of ' + ITERATIONS, 'containerd 1.6', 'isulats', 'isulats / containerd', 'floor', 'floor / containerd'], ROWS.map((row) => {
        const [c, s] = clients.map(({ name }) => median(times.get(`${name}/${row}`) ?? []));
        const f = median(times.get(`floor/${row}`) ?? []);
        return [row, fmt(c), fmt(s), fmt(s! / c!, 2), Number.isFinite(f) ? fmt(f) : '—', Number.isFinite(f) ? fmt(f / c!, 2) : '—'];
      })), '');
    }
    console.log([`## crictl 1.34 as the client, ${new Date().toISOString().slice(0, 10)}`, '', facts, '', `crictl: ${bin}; container configs: ${SHAPE}`, '', ...out].join('\n'));
    if (PROFILE) {
      await daemon.cleanup(); // the profile is written when the daemon exits
      rig.daemons.length = 0;
      const files = (await readdir(profDir).catch(() => [] as string[])).filter((f) => f.endsWith('.cpuprofile'));
      for (const f of files) console.log([`### Daemon profile (${f}), top self time`, '', await topSelfTime(join(profDir, f), 20)].join('\n'));
    }
  } finally {
    await floor.cleanup().catch((e: Error) => console.error(`floor cleanup: ${e.message}`));
  }
});
