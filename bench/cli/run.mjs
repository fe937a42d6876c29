#!/usr/bin/env node
// Start-up benchmark of whole CLI calls: per-call CPU (user + system, from
// wait4) and peak RSS (ru_maxrss, the child's VmHWM) of `isulats version`,
// `pods`, `ps`, `inspect` (of a running container) and `inspectp` against one
// CRI endpoint holding one pod and its container, plus `inspect` of an ID the
// runtime does not have (an error answer, which the fast path leaves to the
// full CLI), as the npm install runs them (node bin/isulats) and, with
// BENCH_SEA=1, as the single executable does (scripts/build-sea.mjs, built into
// a temp dir first, in the same rounds), beside `node -e 0` (the
// floor of any Node.js CLI) and crictl 1.34 (scripts/build-critest.sh builds it
// into /var/cache/isulats/critest; else crictl on PATH). Runs are interleaved
// (one of each command per round), so load that comes and goes hits them all
// alike; medians and ratios to `node -e 0` are printed.
//
//   node bench/cli/run.mjs [RUNS]          (default 30 rounds)
//   BENCH_BUSY=2 ...   a second pass with 2 busy-loop processes beside (loaded figures)
//   ISULATS_BENCH_ENDPOINT=unix:///run/containerd/containerd.sock node bench/cli/run.mjs
//   BENCH_CONTAINERD=/var/cache/isulats/containerd-trixie/usr/bin/containerd (the rig-like 1.7)
//
// Without ISULATS_BENCH_ENDPOINT it starts a private containerd (no CNI) under a
// temp dir, like the test rig does, imports a one-file image made from
// build/pause/pause (`ctr images import`, no registry), runs a host-network pod
// and a container from it, and removes them and stops containerd at the end.
// With ISULATS_BENCH_ENDPOINT, that runtime must have ISULATS_BENCH_POD and
// ISULATS_BENCH_CONTAINER (IDs) to inspect. The load average is printed beside
// each pass: on a shared machine, read the ratios, not the times.
// bench/cli/rusage.py runs the calls, so its own start-up is in no figure.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const RUNS = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 30);
const NODE = process.execPath;
const BIN = join(ROOT, 'bin/isulats');
const CONTAINERD = process.env.BENCH_CONTAINERD ?? 'containerd';
/** An ID no runtime has: `inspect` of it costs a whole call and answers "not found" (exit 1). */
const MISSING_ID = 'f'.repeat(64);
/** The image the private containerd runs the pod and the container from (imported, never pulled). */
const BENCH_IMAGE = 'docker.io/library/isulats-bench-pause:1';

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
  sandbox_image = "${BENCH_IMAGE}"
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
  const child = spawn(CONTAINERD, ['--config', join(dir, 'config.toml')], { stdio: ['ignore', 'ignore', 'ignore'], detached: false });
  const endpoint = `unix://${sock}`;
  let pod;
  const stop = async () => {
    // The pod first: its shim and pause outlive containerd otherwise.
    if (pod) spawnSync(NODE, [BIN, '-r', endpoint, '-t', '60s', 'rmp', '-f', pod], { stdio: 'ignore' });
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
    if (r.status === 0) {
      try {
        const objects = podAndContainer(dir, sock, endpoint);
        pod = objects.pod;
        return { endpoint, stop, ...objects };
      } catch (err) {
        await stop();
        throw err;
      }
    }
    await sleep(250);
  }
  await stop();
  throw new Error('containerd did not come up');
}

/** An OCI image archive of one layer holding build/pause/pause, imported into containerd's k8s.io namespace. */
function importPauseImage(dir, sock) {
  const layout = join(dir, 'image');
  const blobs = join(layout, 'blobs/sha256');
  mkdirSync(blobs, { recursive: true });
  mkdirSync(join(dir, 'layer'));
  writeFileSync(join(dir, 'layer/pause'), readFileSync(join(ROOT, 'build/pause/pause')), { mode: 0o755 });
  const tar = (args) => {
    const r = spawnSync('tar', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
  };
  tar(['--owner=0', '--group=0', '-C', join(dir, 'layer'), '-cf', join(dir, 'layer.tar'), 'pause']);
  const blob = (bytes) => {
    const digest = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(blobs, digest), bytes);
    return { digest: `sha256:${digest}`, size: bytes.length };
  };
  const layer = blob(readFileSync(join(dir, 'layer.tar')));
  const config = blob(Buffer.from(JSON.stringify({
    architecture: 'amd64', os: 'linux', config: { Entrypoint: ['/pause'] }, rootfs: { type: 'layers', diff_ids: [layer.digest] },
  })));
  const manifest = blob(Buffer.from(JSON.stringify({
    schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...layer }],
  })));
  writeFileSync(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(join(layout, 'index.json'), JSON.stringify({
    schemaVersion: 2,
    manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest, annotations: { 'io.containerd.image.name': BENCH_IMAGE, 'org.opencontainers.image.ref.name': '1' } }],
  }));
  tar(['-C', layout, '-cf', join(dir, 'image.tar'), '.']);
  const r = spawnSync('ctr', ['--address', sock, '-n', 'k8s.io', 'images', 'import', '--no-unpack', join(dir, 'image.tar')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ctr images import failed: ${r.stderr}`);
}

/** A host-network pod and a running container in it, made through the full CLI. */
function podAndContainer(dir, sock, endpoint) {
  importPauseImage(dir, sock);
  const podConfig = join(dir, 'pod.json');
  const ctrConfig = join(dir, 'ctr.json');
  writeFileSync(podConfig, JSON.stringify({
    metadata: { name: 'bench-web-7d9c8b6f5-x2k4q', namespace: 'bench', uid: '5f1d8c3e-2b7a-4c1e-9d3f-000000000001', attempt: 0 },
    log_directory: join(dir, 'logs'),
    labels: { app: 'web' },
    linux: { security_context: { namespace_options: { network: 2 } } },
  }));
  writeFileSync(ctrConfig, JSON.stringify({ metadata: { name: 'web' }, image: { image: BENCH_IMAGE }, command: ['/pause'], log_path: 'web.log', labels: { tier: 'front' } }));
  const cli = (...args) => {
    const r = spawnSync(NODE, [BIN, '-r', endpoint, '-t', '60s', ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`isulats ${args[0]} failed: ${r.stderr}`);
    return r.stdout.trim();
  };
  const pod = cli('runp', podConfig);
  try {
    const container = cli('create', pod, ctrConfig, podConfig);
    cli('start', container);
    return { pod, container };
  } catch (err) {
    spawnSync(NODE, [BIN, '-r', endpoint, '-t', '60s', 'rmp', '-f', pod], { stdio: 'ignore' });
    throw err;
  }
}

/** One interleaved pass: RUNS rounds of every command through rusage.py; per command the medians. */
function measure(commands) {
  const lines = [];
  for (let i = 0; i < RUNS + 2; i++) for (const c of commands) lines.push(JSON.stringify(c.argv));
  const r = spawnSync('python3', [join(ROOT, 'bench/cli/rusage.py')], { input: `${lines.join('\n')}\n`, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`rusage.py failed: ${r.stderr}`);
  const all = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  return commands.map((c, k) => {
    // The first two rounds warm caches (page cache, V8 code cache) and are left out.
    const runs = all.filter((_, i) => i % commands.length === k).slice(2);
    const bad = runs.find((x) => x.code !== (c.code ?? 0));
    if (bad) throw new Error(`${c.name} exited ${bad.code}`);
    return { cpu: median(runs.map((x) => x.cpu)), rss: median(runs.map((x) => x.rss)), wall: median(runs.map((x) => x.wall)) };
  });
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Busy loops at the default nice level, one per CPU asked for: a loaded node. */
function busyLoops(n) {
  const kids = Array.from({ length: n }, () => spawn(NODE, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  return () => kids.forEach((k) => k.kill('SIGKILL'));
}

function load() {
  return loadavg().map((x) => x.toFixed(2)).join(' ');
}

function report(title, commands, results, loadBefore) {
  const floor = results[0];
  console.log(`\n${title}; load average ${loadBefore} before the pass, ${load()} after`);
  console.log('| command | CPU ms | × node CPU | peak RSS MiB | × node RSS | wall ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  commands.forEach((c, i) => {
    const r = results[i];
    console.log(`| ${c.name} | ${r.cpu.toFixed(1)} | ${(r.cpu / floor.cpu).toFixed(2)} | ${(r.rss / 1024).toFixed(1)} | ${(r.rss / floor.rss).toFixed(2)} | ${r.wall.toFixed(0)} |`);
  });
}

async function main() {
  if (!existsSync(join(ROOT, 'dist/isulats.cjs'))) spawnSync(NODE, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const sea = process.env.BENCH_SEA === '1' ? buildSea() : undefined;
  const crictl = crictlBinary();
  let endpoint = process.env.ISULATS_BENCH_ENDPOINT;
  let stop = async () => undefined;
  let pod = process.env.ISULATS_BENCH_POD;
  let container = process.env.ISULATS_BENCH_CONTAINER;
  if (!endpoint) ({ endpoint, stop, pod, container } = await startContainerd());
  if (!pod || !container) throw new Error('ISULATS_BENCH_ENDPOINT needs ISULATS_BENCH_POD and ISULATS_BENCH_CONTAINER');
  const stopBusy = [];
  try {
    const verbs = [
      { name: 'version', args: ['version'] }, { name: 'pods', args: ['pods'] }, { name: 'ps', args: ['ps'] },
      { name: 'inspect', args: ['inspect', container] }, { name: 'inspectp', args: ['inspectp', pod] },
      { name: 'inspect (not found)', args: ['inspect', MISSING_ID], code: 1 },
    ];
    const commands = [{ name: '`node -e 0`', argv: [NODE, '-e', '0'] }];
    for (const v of verbs) {
      commands.push({ name: `isulats ${v.name}`, argv: [NODE, BIN, '-r', endpoint, ...v.args], code: v.code });
      if (sea) commands.push({ name: `one-file ${v.name}`, argv: [sea.exe, '-r', endpoint, ...v.args], code: v.code });
      if (crictl) commands.push({ name: `crictl ${v.name}`, argv: [crictl, '-r', endpoint, ...v.args], code: v.code });
    }
    console.log(`CLI start-up, ${RUNS} interleaved rounds, endpoint ${endpoint}${crictl ? `, crictl ${crictl}` : ', no crictl (run scripts/build-critest.sh)'}; ${cpus().length} CPUs`);
    console.log('inspect: a running container; inspectp: its pod; inspect (not found): an ID the runtime does not have (exit 1).');
    let before = load();
    report('idle', commands, measure(commands), before);
    const busy = Number(process.env.BENCH_BUSY ?? 0);
    if (busy > 0) {
      stopBusy.push(busyLoops(busy));
      await sleep(500);
      before = load();
      report(`loaded: ${busy} busy-loop processes beside`, commands, measure(commands), before);
    }
    if (sea) console.log(`\nsingle executable: ${(statSync(sea.exe).size / 1024 / 1024).toFixed(1)} MiB; npm package (tarball): ${packSize()}`);
  } finally {
    stopBusy.forEach((f) => f());
    await stop();
    if (sea) rmSync(sea.dir, { recursive: true, force: true });
  }
}

/** crictl 1.34 as scripts/build-critest.sh builds it, else one on PATH. */
function crictlBinary() {
  const dir = process.env.ISULATS_CRITEST_DIR ?? '/var/cache/isulats/critest';
  const tarball = join(ROOT, '../shared/cri-tools/cri-tools-1.34.0-critest.tar.gz');
  if (existsSync(tarball)) {
    const built = join(dir, `crictl-${createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 16)}`);
    if (existsSync(built)) return built;
  }
  const any = existsSync(dir) ? readdirSync(dir).find((f) => f.startsWith('crictl-')) : undefined;
  return any ? join(dir, any) : which('crictl');
}

/** The single executable, built into a temp dir (its files go under that dir too). */
function buildSea() {
  const dir = mkdtempSync(join(tmpdir(), 'ist-bsea-'));
  const exe = join(dir, 'isulats');
  const r = spawnSync(NODE, ['scripts/build-sea.mjs', '--out', exe], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build-sea failed: ${r.stderr}`);
  mkdirSync(join(dir, 'run'), { mode: 0o700 });
  process.env.XDG_RUNTIME_DIR = join(dir, 'run'); // inherited by every timed call
  // Peak RSS counts the executable's mapped file pages. A file just written sits in the page cache
  // in large folios (kernel 6.x), each mapped whole on first touch: the new executable showed
  // 16 MiB more than the same file once read back from disk. Drop its pages, so that it is
  // measured as an installed executable runs (read from disk, as /usr/bin/node is).
  const drop = spawnSync('python3', ['-c', 'import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)', exe]);
  if (drop.status !== 0) throw new Error(`dropping the executable's cached pages failed: ${drop.stderr}`);
  return { dir, exe };
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
