// Daemon memory and CPU with N pods, side by side in one run: `isulats daemon` (one or more
// launch variants) and containerd 1.6. Each target gets N pods at once (`run --no-pull` from N
// CLI processes, or RunPodSandbox + CreateContainer + StartContainer from one in-process gRPC
// client), then its VmRSS (anonymous and file-backed) and the CPU time the daemon process used
// (its own, and its reaped children's: runc, CNI plugins, conmon's first stage) are printed.
// N defaults to 50, clients to cli.
// Usage: node bench/daemon/run.mjs --rss [N] [cli|grpc] [VARIANT...]
//   VARIANT = name=ITEM,ITEM...: a daemon launched with these Node.js flags (--x) and environment
//   variables (K=V), e.g. `tuned= defaults=ISULATS_DAEMON_REEXEC=0` (the daemon's own settings
//   against Node's defaults); default: one daemon as shipped. BENCH_SMAPS=1 adds RSS by mapping;
//   BENCH_NO_CONTAINERD=1 leaves containerd out.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { REPO_ROOT } from '../../test/rig/cli.js';
import { startContainerd } from '../../test/rig/containerd.js';
import { writeContainerConfig, writePodConfig } from '../../test/rig/pod-configs.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { runPodsInProcess } from './common.js';

const args = process.argv.slice(2).filter((a) => a !== '--rss');
const n = Number(args[0] ?? '50');
const mode = (args[1] ?? 'cli') as 'cli' | 'grpc';
const variants = (args.length > 2 ? args.slice(2) : ['isulats=']).map((v) => {
  const [name, flags = ''] = v.split(/=(.*)/s);
  const nodeArgs: string[] = [];
  const env: Record<string, string> = {};
  for (const f of flags.split(',').filter(Boolean)) {
    if (f.startsWith('--')) nodeArgs.push(f);
    else env[f.split('=')[0]!] = f.split('=').slice(1).join('=');
  }
  return { name: name!, nodeArgs, env };
});

interface Target {
  name: string;
  endpoint: string;
  pid: number;
}

const CLK_TCK = 100;

async function procStat(pid: number): Promise<{ self: number; children: number }> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
  // fields after the comm: state=0 ... utime=11 stime=12 cutime=13 cstime=14
  return { self: ((f[11] ?? 0) + (f[12] ?? 0)) * (1000 / CLK_TCK), children: ((f[13] ?? 0) + (f[14] ?? 0)) * (1000 / CLK_TCK) };
}

async function memory(pid: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  for (const key of ['VmRSS', 'VmHWM', 'RssAnon', 'RssFile', 'Threads']) {
    const m = new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status);
    if (m) out[key] = Number(m[1]);
  }
  return out;
}

function cli(endpoint: string, argv: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/isulats', '-r', endpoint, '-t', '120s', ...argv], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function runPods(target: Target, dir: string, image: string): Promise<{ ms: number; failures: number }> {
  if (mode === 'cli') {
    const configs: Array<[string, string]> = [];
    for (let i = 0; i < n; i++) {
      const name = `r${n}-${target.name}-${i}`;
      configs.push([await writeContainerConfig(dir, { name, image, command: ['sleep', '3600'] }), await writePodConfig(dir, { name })]);
    }
    const t1 = process.hrtime.bigint();
    const codes = await Promise.all(configs.map(([ctr, pod]) => cli(target.endpoint, ['run', '--no-pull', ctr, pod])));
    return { ms: Number(process.hrtime.bigint() - t1) / 1e6, failures: codes.filter((c) => c !== 0).length };
  }
  const t0 = process.hrtime.bigint();
  const errors = await runPodsInProcess(target.endpoint, image, Array.from({ length: n }, (_, i) => `g${n}-${target.name}-${i}`));
  for (const e of errors.slice(0, 3)) console.error(`  ${target.name}: ${e}`);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, failures: errors.length };
}

runBenchWithRig(async (rig) => {
  const { images, daemons, dir } = rig;
  const targets: Target[] = [];
  for (const v of variants) {
    const d = await startIsulatsDaemon({ podSandboxImage: images.pause, nodeArgs: v.nodeArgs, env: v.env });
    daemons.push(d);
    targets.push({ name: v.name, endpoint: d.endpoint, pid: d.pid });
  }
  if (process.env.BENCH_NO_CONTAINERD !== '1') {
    const containerd = (rig.containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [rig.registry.host] }));
    targets.push({ name: 'containerd', endpoint: containerd.endpoint, pid: containerd.pid });
  }
  for (const t of targets) {
    for (const img of [images.busybox, images.pause]) if ((await cli(t.endpoint, ['pull', img])) !== 0) throw new Error(`${t.name}: pull ${img} failed`);
  }
  console.log(`N=${n} pods per target, ${mode} clients; memory in MB, CPU in ms`);
  console.log(['target', 'wall', 'failed', 'RSS before', 'RSS after', 'HWM', 'anon', 'file', 'threads', 'cpu self', 'cpu children'].join('\t'));
  for (const t of targets) {
    const before = await memory(t.pid);
    const cpu0 = await procStat(t.pid);
    const r = await runPods(t, dir, images.busybox);
    await new Promise((res) => setTimeout(res, 1000));
    const after = await memory(t.pid);
    const cpu1 = await procStat(t.pid);
    const mb = (kb = 0) => (kb / 1024).toFixed(1);
    console.log([t.name, r.ms.toFixed(0), r.failures, mb(before.VmRSS), mb(after.VmRSS), mb(after.VmHWM), mb(after.RssAnon), mb(after.RssFile), after.Threads,
      (cpu1.self - cpu0.self).toFixed(0), (cpu1.children - cpu0.children).toFixed(0)].join('\t'));
    if (process.env.BENCH_SMAPS) {
      // RSS by mapping name (files, [heap], [stack], anonymous), largest first.
      const by = new Map<string, number>();
      let name = '';
      for (const line of (await readFile(`/proc/${t.pid}/smaps`, 'utf8')).split('\n')) {
        const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
        if (head) name = head[1] || '(anonymous)';
        const rss = /^Rss:\s+(\d+)/.exec(line);
        if (rss) by.set(name, (by.get(name) ?? 0) + Number(rss[1]));
      }
      console.log([...by].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `  ${(v / 1024).toFixed(1)} MB ${k}`).join('\n'));
    }
    await cli(t.endpoint, ['rmp', '-a', '-f']);
  }
});
