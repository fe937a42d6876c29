// Single lifecycle ops that stream or pull, isulats daemon next to containerd 1.6 in one run, both
// driven by the same client (test/go-cri-client, client-go and the CRI Go API as crictl uses them),
// each whole client process timed from outside, the two runtimes interleaved (order alternating
// per round), medians over RUNS rounds:
//   exec        Exec + SPDY stream of `echo hi`, no tty (crictl exec)
//   exec-tty    the same with a tty (crictl exec -t)
//   exec-sync   ExecSync of `echo hi` (crictl exec -s)
//   pull        PullImage of a one-layer image (the busybox binary) right after RemoveImage of it (crictl rmi; crictl pull)
//   pull-multi  the same with a six-layer image of small files, as distro images are
//   rmi         the RemoveImage before each pull
// Usage: node bench/streams/run-ops.mjs [RUNS] [OPS]   (default 15 and all, OPS comma-separated;
//        BENCH_RAW=1 prints every time, BENCH_DAEMON_LOG=FILE keeps the daemon's log,
//        BENCH_BEFORE_BIN=OTHER/bin/isulats adds that build's daemon as `isulats-before`, in the same rounds,
//        BENCH_DAEMON_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' profiles the daemon)
import { randomBytes } from 'node:crypto';
import { copyFile, readdir, readFile } from 'node:fs/promises';
import { startContainerd } from '../../test/rig/containerd.js';
import { goToolPath, runGoCriClient } from '../../test/rig/go-tools.js';
import { BUSYBOX_BIN } from '../../test/rig/busybox-rootfs.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { layer, pushImage } from '../../test/integration/image-fixtures.js';
import { runBenchWithRig } from '../bench-rig.js';

const runs = Number(process.argv[2] ?? 15);
const ALL = ['exec', 'exec-tty', 'exec-sync', 'pull', 'pull-multi'];
const ops = (process.argv[3] ?? ALL.join(',')).split(',');

/** CPU time (user + system, ms) the processes spent themselves, children not counted. */
async function cpuMs(pids: number[]): Promise<number> {
  let ticks = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return (ticks * 1000) / 100; // USER_HZ
}

/** The runtime's own processes: the daemon, or containerd and its shims. */
async function runtimePids(t: { name: string; pid: number; dir: string }): Promise<number[]> {
  if (t.name === 'isulats') return [t.pid];
  const pids = [t.pid];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const argv = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if ((argv[0] ?? '').includes('containerd-shim') && argv.some((a) => a.includes(t.dir))) pids.push(Number(name));
  }
  return pids;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Six layers of 40 small files each (config files, scripts), as a distro image's layers look. */
async function multiLayerImage(registryUrl: string, repo: string): Promise<void> {
  const layers = [];
  for (let l = 0; l < 6; l++) {
    const files = [];
    for (let f = 0; f < 40; f++) {
      const text = `# layer ${l} file ${f}\n${'key=value\n'.repeat(200)}`;
      files.push({ name: `etc/l${l}/f${f}.conf`, type: 'file' as const, data: Buffer.concat([Buffer.from(text), randomBytes(2048)]) });
    }
    layers.push(await layer(files));
  }
  await pushImage({ url: registryUrl }, repo, 'v1', layers);
}

runBenchWithRig(async (rig) => {
  const bin = goToolPath('go-cri-client');
  const host = rig.registry.host;
  // Images only the pull rounds use (their own IDs), so no container holds them.
  const pullOne = `${host}/bench/one-layer:v1`;
  await pushImage({ url: rig.registry.url }, 'bench/one-layer', 'v1', [await layer([
    { name: 'bin/busybox', type: 'file', mode: 0o755, data: await readFile(BUSYBOX_BIN) },
    { name: 'etc/bench-id', type: 'file', data: `${process.pid}\n` },
  ])]);
  const pullMulti = `${host}/bench/six-layers:v1`;
  await multiLayerImage(rig.registry.url, 'bench/six-layers');

  rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [host] });
  const nodeArgs = process.env.BENCH_DAEMON_NODE_ARGS?.split(' ').filter(Boolean);
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, nodeArgs });
  rig.daemons.push(daemon);
  const targets = [
    { name: 'isulats', endpoint: daemon.endpoint, containerId: '', pid: daemon.pid, dir: daemon.dir, pids: [] as number[] },
    { name: 'containerd', endpoint: rig.containerd.endpoint, containerId: '', pid: rig.containerd.pid, dir: rig.containerd.dir, pids: [] as number[] },
  ];
  if (process.env.BENCH_BEFORE_BIN) {
    // Another build of the daemon (e.g. main before a change), measured in the same interleaved rounds.
    const before = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, binPath: process.env.BENCH_BEFORE_BIN });
    rig.daemons.push(before);
    targets.push({ name: 'isulats-before', endpoint: before.endpoint, containerId: '', pid: before.pid, dir: before.dir, pids: [] as number[] });
  }
  for (const t of targets) {
    const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', t.endpoint, ...args]);
    const pulled = await go(['pull', '-image', rig.images.busybox]);
    if (pulled.code !== 0) throw new Error(`${t.name}: pull: ${pulled.stderr.trim()}`);
    const r = await go(['run-pod-container', '-name', `ops-bench-${t.name}-${process.pid}`, '-label', 'ops-bench', '-image', rig.images.busybox, '--', 'sleep', '36000']);
    if (r.code !== 0) throw new Error(`${t.name}: run-pod-container: ${r.stderr.trim()}`);
    t.containerId = (JSON.parse(r.stdout) as { containerId: string }).containerId;
    t.pids = await runtimePids(t);
  }

  const cpu = new Map<string, number[]>();
  const timed = async (t: (typeof targets)[number], args: string[], expectOut?: string): Promise<number> => {
    const cpu0 = await cpuMs(t.pids);
    const start = process.hrtime.bigint();
    const r = await runGoCriClient(bin, ['-endpoint', t.endpoint, ...args]);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const key = `${args[0]}${args.includes('-tty') ? ' -tty' : ''}|${t.name}`;
    cpu.set(key, [...(cpu.get(key) ?? []), (await cpuMs(t.pids)) - cpu0]);
    if (r.code !== 0) throw new Error(`${t.name}: ${args[0]}: exit ${r.code}: ${r.stderr.trim()}`);
    if (expectOut !== undefined && r.stdout.replace(/\r/g, '') !== expectOut) throw new Error(`${t.name}: ${args[0]}: stdout ${JSON.stringify(r.stdout)}`);
    return ms;
  };
  const argsOf = (op: string, id: string): string[] => {
    if (op === 'exec') return ['exec', '-id', id, '--', 'echo', 'hi'];
    if (op === 'exec-tty') return ['exec', '-id', id, '-tty', '--', 'echo', 'hi'];
    return ['exec-sync', '-id', id, '--', 'echo', 'hi'];
  };

  const times = new Map<string, number[]>();
  const add = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
  for (let r = 0; r < runs; r++) {
    // Each target goes first as often as the others.
    const order = targets.map((_, i) => targets[(i + r) % targets.length]!);
    for (const op of ops) {
      for (const t of order) {
        if (op.startsWith('pull')) {
          const ref = op === 'pull' ? pullOne : pullMulti;
          if (r > 0) add(`rmi ${op}|${t.name}`, await timed(t, ['remove-image', '-image', ref]));
          add(`${op}|${t.name}`, await timed(t, ['pull', '-image', ref]));
        } else {
          add(`${op}|${t.name}`, await timed(t, argsOf(op, t.containerId), 'hi\n'));
        }
      }
    }
  }
  console.log(`lifecycle ops through test/go-cri-client, whole client process timed, ${runs} interleaved rounds, medians (ms)`);
  const daemons = targets.map((t) => t.name).filter((n) => n !== 'containerd');
  console.log(`| op | ${daemons.join(' | ')} | containerd 1.6 | ${daemons.map((n) => `${n} ratio`).join(' | ')} |`);
  console.log(`|${' --- |'.repeat(2 + 2 * daemons.length)}`);
  const keys = [...new Set([...times.keys()].map((k) => k.split('|')[0]!))];
  for (const k of keys) {
    const b = median(times.get(`${k}|containerd`) ?? []);
    const ours = daemons.map((n) => median(times.get(`${k}|${n}`) ?? []));
    console.log(`| ${k} | ${ours.map((a) => a.toFixed(1)).join(' | ')} | ${b.toFixed(1)} | ${ours.map((a) => (a / b).toFixed(2)).join(' | ')} |`);
  }
  console.log('');
  console.log('runtime CPU per call (daemon; containerd + its shims; user + system, children such as runc not counted), mean ms');
  console.log(`| call | ${daemons.join(' | ')} | containerd 1.6 |`);
  console.log(`|${' --- |'.repeat(2 + daemons.length)}`);
  const mean = (xs: number[] = []) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const k of [...new Set([...cpu.keys()].map((x) => x.split('|')[0]!))]) {
    console.log(`| ${k} | ${daemons.map((n) => mean(cpu.get(`${k}|${n}`)).toFixed(1)).join(' | ')} | ${mean(cpu.get(`${k}|containerd`)).toFixed(1)} |`);
  }
  if (process.env.BENCH_RAW) console.log(JSON.stringify(Object.fromEntries(times)));
  // The daemon's log (its dir goes at teardown), e.g. for phase timestamps a profiling build writes.
  if (process.env.BENCH_DAEMON_LOG) await copyFile(daemon.logPath, process.env.BENCH_DAEMON_LOG);
});
