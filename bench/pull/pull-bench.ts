// Pull benchmark: one multi-layer image (BENCH_MB in all, default 300) pushed to
// a local docker-registry, pulled by isulats (fresh root, child process) and by
// containerd (`ctr images pull`, which unpacks into the overlayfs snapshotter),
// side by side, each BENCH_RUNS times. Prints wall times and isulats' peak RSS,
// plus a second isulats run with the same total in 4x larger layers to show
// memory stays flat as layers grow. Run with: node bench/pull/run.mjs
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { writeFileSync } from 'node:fs';
import { stopPid } from '../../test/rig/proc.js';
import { waitFor } from '../../test/rig/wait.js';
import { startRegistry } from '../../test/rig/registry.js';
import { makeTempDir, removeTempDir } from '../../test/rig/temp-dir.js';
import { layer, pushImage, type BuiltLayer } from '../../test/integration/image-fixtures.js';

const totalMb = Number(process.env.BENCH_MB ?? 300);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const entry = process.env.BENCH_PULL_ENTRY!;
const repoRoot = process.env.BENCH_REPO!;

/** A layer of `mb` MB in files of 1 MB: half random (incompressible), half text, as real layers mix. */
async function bigLayer(mb: number, seed: number): Promise<BuiltLayer> {
  const files = [];
  const text = Buffer.from(`line ${seed} of a config file that compresses well\n`.repeat(25_000)).subarray(0, 1 << 20);
  for (let i = 0; i < mb; i++) files.push({ name: `data/${seed}/f${i}`, type: 'file' as const, data: i % 2 ? randomBytes(1 << 20) : text });
  const built = await layer(files, false);
  const blob = gzipSync(built.blob, { level: 1 });
  return { ...built, blob, digest: sha256Digest(blob), mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip' };
}

function timeChild(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ ms: number; out: string }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${cmd} exited ${code}`));
      else resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, out });
    });
  });
}

/** containerd without its CRI plugin: content store + overlayfs snapshotter is all `ctr pull` needs. */
async function startPlainContainerd(dir: string): Promise<{ socket: string; pid: number }> {
  const socket = join(dir, 'c.sock');
  const config = join(dir, 'containerd.toml');
  writeFileSync(config, `version = 2\nroot = "${dir}/ctd-root"\nstate = "${dir}/ctd-state"\ndisabled_plugins = ["io.containerd.grpc.v1.cri"]\n[grpc]\n  address = "${socket}"\n`);
  const child = spawn('containerd', ['--config', config], { stdio: 'ignore' });
  child.unref();
  await waitFor(async () => {
    execFileSync('ctr', ['--address', socket, 'version'], { stdio: 'ignore', timeout: 2000 });
    return true;
  }, { timeoutMs: 20_000, what: 'containerd' });
  return { socket, pid: child.pid! };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = await makeTempDir('ist-bench-');
  const registry = await startRegistry();
  let containerd: { socket: string; pid: number } | undefined;
  try {
    containerd = await startPlainContainerd(dir);
    process.stderr.write(`building ${totalMb} MB image...\n`);
    const layerMb = Math.max(1, Math.floor(totalMb / 8));
    const small = await Promise.all(Array.from({ length: 8 }, (_, i) => bigLayer(layerMb, i)));
    await pushImage({ url: registry.url }, 'bench/eight', 'v1', small);
    const big = await Promise.all(Array.from({ length: 2 }, (_, i) => bigLayer(layerMb * 4, 100 + i)));
    await pushImage({ url: registry.url }, 'bench/two', 'v1', big);
    const compressed = small.reduce((s, l) => s + l.blob.length, 0);

    const env = { ...process.env, ISULATS_NATIVE: join(repoRoot, 'build/Release/isulats.node') };
    const ours: number[] = [];
    const rss: number[] = [];
    const theirs: number[] = [];
    for (let r = 0; r < runs; r++) {
      const root = join(dir, `isulats-${r}`);
      const a = await timeChild(process.execPath, [entry, root, `${registry.host}/bench/eight:v1`], env);
      ours.push(a.ms);
      rss.push(Number(a.out.trim().split(' ')[1]));
      execFileSync('rm', ['-rf', root]);
      const ctr = ['--address', containerd.socket, '--namespace', `bench${r}`];
      const b = await timeChild('ctr', [...ctr, 'images', 'pull', '--plain-http', `${registry.host}/bench/eight:v1`]);
      theirs.push(b.ms);
      execFileSync('ctr', [...ctr, 'images', 'rm', '--sync', `${registry.host}/bench/eight:v1`], { stdio: 'ignore' });
      execFileSync('ctr', [...ctr, 'content', 'prune', 'references'], { stdio: 'ignore' });
    }
    const bigRun = await timeChild(process.execPath, [entry, join(dir, 'isulats-big'), `${registry.host}/bench/two:v1`], env);
    const bigRss = Number(bigRun.out.trim().split(' ')[1]);

    const mb = (n: number) => (n / 1e6).toFixed(0);
    console.log(`image: 8 layers x ${layerMb} MB (uncompressed), ${mb(compressed)} MB compressed, ${runs} runs`);
    console.log(`isulats pull     median ${median(ours).toFixed(0)} ms  (runs: ${ours.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`containerd pull  median ${median(theirs).toFixed(0)} ms  (runs: ${theirs.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`ratio isulats/containerd: ${(median(ours) / median(theirs)).toFixed(2)} (target <= 1.20)`);
    console.log(`isulats peak RSS: ${mb(median(rss) * 1024)} MB with ${layerMb} MB layers, ${mb(bigRss * 1024)} MB with ${layerMb * 4} MB layers`);
  } finally {
    if (containerd) await stopPid(containerd.pid, 10_000);
    execFileSync('sh', ['-c', `grep ' ${dir}/' /proc/self/mountinfo | cut -d' ' -f5 | xargs -r -n1 umount -l`]);
    await registry.stop();
    await removeTempDir(dir);
  }
}

await main();
