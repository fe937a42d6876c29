#!/usr/bin/env node
// Start-up benchmark of whole CLI calls: the median wall time of `isulats
// version` and `isulats pods` against one CRI endpoint, as the npm install runs
// them (node bin/isulats) and as the single executable does (scripts/build-sea.mjs,
// built into a temp dir first), next to `node -e 0` (the floor of any Node.js CLI),
// crictl when it is installed, and else our Go CRI client on the Kubernetes
// libraries (test/go-cri-client), one Go process per call as crictl is.
//
//   node bench/cli/run.mjs [RUNS]          (default 30 runs per command)
//   ISULATS_BENCH_ENDPOINT=unix:///run/containerd/containerd.sock node bench/cli/run.mjs
//   BENCH_SEA=0 leaves the single executable out.
//
// Without ISULATS_BENCH_ENDPOINT it starts a private containerd (no CNI, no
// pods) under a temp dir, like the test rig does, and stops it at the end.
// Uses hyperfine when present (-N: no shell in between), else its own loop.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const RUNS = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 30);
const NODE = process.execPath;
const BIN = join(ROOT, 'bin/isulats');

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** A private containerd on a short temp socket; resolves once the CLI can talk to it. */
async function startContainerd() {
  const dir = mkdtempSync(join(tmpdir(), 'ist-bench-'));
  const sock = join(dir, 'c.sock');
  const config = `version = 2
root = "${dir}/root"
state = "${dir}/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.internal.v1.tracing", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "${sock}"
[ttrpc]
  address = "${sock}.ttrpc"
[plugins."io.containerd.grpc.v1.cri"]
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  disable_apparmor = true
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${dir}/cni"
[plugins."io.containerd.internal.v1.opt"]
  path = "${dir}/opt"
`;
  writeFileSync(join(dir, 'config.toml'), config);
  const child = spawn('containerd', ['--config', join(dir, 'config.toml')], { stdio: ['ignore', 'ignore', 'ignore'], detached: false });
  const endpoint = `unix://${sock}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      for (let i = 0; i < 50 && child.exitCode === null; i++) await sleep(100);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 60; i++) {
    if (child.exitCode !== null) break;
    const r = spawnSync(NODE, [BIN, '-r', endpoint, '-t', '2s', 'version'], { encoding: 'utf8' });
    if (r.status === 0) return { endpoint, stop };
    await sleep(250);
  }
  await stop();
  throw new Error('containerd did not come up');
}

function hyperfine(commands) {
  const out = join(mkdtempSync(join(tmpdir(), 'ist-hf-')), 'r.json');
  const args = ['-N', '--warmup', '3', '--runs', String(RUNS), '--export-json', out, '--style', 'none', ...commands.map((c) => c.argv.join(' '))];
  const r = spawnSync('hyperfine', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`hyperfine failed: ${r.stderr}`);
  const results = JSON.parse(readFileSync(out, 'utf8')).results;
  rmSync(join(out, '..'), { recursive: true, force: true });
  return results.map((res) => ({ median: res.median * 1000, min: res.min * 1000, max: res.max * 1000, cpu: (res.user + res.system) * 1000 }));
}

function ownLoop(commands) {
  return commands.map((c) => {
    for (let i = 0; i < 3; i++) spawnSync(c.argv[0], c.argv.slice(1), { stdio: 'ignore' });
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(c.argv[0], c.argv.slice(1), { stdio: 'ignore' });
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 0) throw new Error(`${c.argv.join(' ')} exited ${r.status}`);
    }
    times.sort((a, b) => a - b);
    const mid = Math.floor(times.length / 2);
    const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
    return { median, min: times[0], max: times[times.length - 1], cpu: undefined };
  });
}

async function main() {
  if (!existsSync(join(ROOT, 'dist/isulats.cjs'))) spawnSync(NODE, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const sea = process.env.BENCH_SEA === '0' ? undefined : buildSea();
  const goClient = goCriClient();
  let endpoint = process.env.ISULATS_BENCH_ENDPOINT;
  let stop = async () => undefined;
  if (!endpoint) ({ endpoint, stop } = await startContainerd());
  try {
    const commands = [
      { name: 'node -e 0', argv: [NODE, '-e', '0'] },
      { name: 'isulats version', argv: [NODE, BIN, '-r', endpoint, 'version'] },
      { name: 'isulats pods', argv: [NODE, BIN, '-r', endpoint, 'pods'] },
    ];
    if (sea) {
      commands.push({ name: 'one-file version', argv: [sea.exe, '-r', endpoint, 'version'] });
      commands.push({ name: 'one-file pods', argv: [sea.exe, '-r', endpoint, 'pods'] });
    }
    const crictl = which('crictl');
    if (crictl) {
      commands.push({ name: 'crictl version', argv: [crictl, '-r', endpoint, 'version'] });
      commands.push({ name: 'crictl pods', argv: [crictl, '-r', endpoint, 'pods'] });
    } else if (goClient) {
      commands.push({ name: 'go client version', argv: [goClient, '-endpoint', endpoint, 'version'] });
      commands.push({ name: 'go client pods', argv: [goClient, '-endpoint', endpoint, 'list'] });
    }
    for (const c of commands) {
      const r = spawnSync(c.argv[0], c.argv.slice(1), { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${c.name} fails: ${r.stderr.trim()}`);
    }
    const tool = which('hyperfine') ? 'hyperfine' : 'own timing loop';
    const results = tool === 'hyperfine' ? hyperfine(commands) : ownLoop(commands);
    const floor = results[0].median;
    console.log(`CLI start-up, ${RUNS} runs each (${tool}), endpoint ${endpoint}`);
    // CPU time (user + system, mean) is steadier than wall time on a busy machine.
    console.log(`${'command'.padEnd(18)}${'median ms'.padStart(11)}${'min ms'.padStart(9)}${'max ms'.padStart(9)}${'x node'.padStart(9)}${'cpu ms'.padStart(9)}${'cpu x'.padStart(8)}`);
    commands.forEach((c, i) => {
      const r = results[i];
      const cpu = r.cpu === undefined ? '-'.padStart(9) + '-'.padStart(8) : `${r.cpu.toFixed(1).padStart(9)}${(r.cpu / results[0].cpu).toFixed(2).padStart(8)}`;
      console.log(`${c.name.padEnd(18)}${r.median.toFixed(1).padStart(11)}${r.min.toFixed(1).padStart(9)}${r.max.toFixed(1).padStart(9)}${(r.median / floor).toFixed(2).padStart(9)}${cpu}`);
    });
    if (!crictl) console.log(`crictl: not installed${goClient ? '; the Go client (k8s.io/cri-api, grpc-go, one process per call) stands in' : ''}`);
    if (sea) console.log(`single executable: ${(statSync(sea.exe).size / 1024 / 1024).toFixed(1)} MiB; npm package (tarball): ${packSize()}`);
    const ratio = results[1].median / floor;
    console.log(`ratio version/node: ${ratio.toFixed(2)} (target <= 2.5, stretch <= 2.0)`);
  } finally {
    await stop();
    if (sea) rmSync(sea.dir, { recursive: true, force: true });
  }
}

/** The single executable, built into a temp dir (its files go under that dir too). */
function buildSea() {
  const dir = mkdtempSync(join(tmpdir(), 'ist-bsea-'));
  const exe = join(dir, 'isulats');
  const r = spawnSync(NODE, ['scripts/build-sea.mjs', '--out', exe], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build-sea failed: ${r.stderr}`);
  mkdirSync(join(dir, 'run'), { mode: 0o700 });
  process.env.XDG_RUNTIME_DIR = join(dir, 'run'); // inherited by every timed call
  return { dir, exe };
}

/** test/go-cri-client's binary for the current source, when scripts/setup.sh built it. */
function goCriClient() {
  const hash = createHash('sha256').update(readFileSync(join(ROOT, 'test/go-cri-client/main.go'))).digest('hex').slice(0, 16);
  const bin = join(process.env.ISULATS_GO_TRIXIE_DIR ?? '/var/cache/isulats/go-trixie', 'bin', `go-cri-client-${hash}`);
  return existsSync(bin) ? bin : undefined;
}

/** What `npm pack` would write, without writing it. */
function packSize() {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) return 'unknown (npm pack failed)';
  const [info] = JSON.parse(r.stdout);
  return `${(info.size / 1024 / 1024).toFixed(1)} MiB packed, ${(info.unpackedSize / 1024 / 1024).toFixed(1)} MiB installed`;
}

main().catch((err) => {
  console.error(`bench: ${err.message}`);
  process.exit(1);
});
