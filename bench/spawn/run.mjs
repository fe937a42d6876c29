#!/usr/bin/env node
// Runs bench/spawn/main-thread-cost.ts under the daemon's Node flags, for this checkout and, with
// --base DIR, for another checkout (its src/ and its addon), interleaved round by round, and prints
// the medians per mode. Needs no root; run it under the bench lock.
//   node bench/spawn/run.mjs [--rounds 5] [--base /work/wt-x-base] [--n 1000] [--concurrency 50] [--modes ...] [--env-vars 40]
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = 'bench/spawn/main-thread-cost.ts';
const args = process.argv.slice(2);
const take = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const [, value] = args.splice(i, 2);
  return value;
};
const rounds = Number(take('--rounds', '5'));
const base = take('--base', '');

/** The bench bundled against `root`'s src/ (the entry itself always from this checkout). */
async function bundle(root, label) {
  const native = spawnSync(process.execPath, ['scripts/build-native.mjs'], { cwd: root, stdio: 'inherit' });
  if (native.status !== 0) throw new Error(`building ${root}'s addon failed`);
  const out = join(repo, 'bench', 'spawn', `.bench-${label}-${process.pid}.mjs`);
  const srcOf = {
    name: 'src-of',
    setup(b) {
      b.onResolve({ filter: /\/src\// }, (a) => ({ path: resolve(a.resolveDir, a.path).replace(join(repo, 'src'), join(root, 'src')).replace(/\.js$/, '.ts') }));
    },
  };
  await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', packages: 'external', absWorkingDir: repo, entryPoints: [join(repo, entry)], outfile: out, plugins: root === repo ? [] : [srcOf] });
  return { label, out, env: { ...process.env, ...DAEMON_ENV, ISULATS_NATIVE: join(root, 'build', 'Release', 'isulats.node') } };
}

/** The daemon's Node flags and environment (src/daemon/process-tuning.ts), so the figures are the daemon's. */
async function daemonSettings() {
  const out = join(repo, 'bench', 'spawn', `.tuning-${process.pid}.mjs`);
  try {
    await build({ bundle: true, platform: 'node', format: 'esm', logLevel: 'error', packages: 'external', absWorkingDir: repo, entryPoints: ['src/daemon/process-tuning.ts'], outfile: out });
    return await import(out);
  } finally {
    rmSync(out, { force: true });
  }
}

const { DAEMON_NODE_FLAGS, DAEMON_ENV } = await daemonSettings();
const variants = [await bundle(repo, 'this')];
if (base) variants.push(await bundle(resolve(base), 'base'));
const results = new Map();
try {
  for (let r = 0; r < rounds; r++) {
    for (const v of r % 2 ? [...variants].reverse() : variants) {
      const run = spawnSync(process.execPath, [...DAEMON_NODE_FLAGS, v.out, ...args], { env: v.env, cwd: repo, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`${v.label} failed: ${run.stderr}`);
      for (const line of run.stdout.trim().split('\n')) {
        const f = JSON.parse(line);
        const key = `${f.mode}\t${v.label}`;
        if (!results.has(key)) results.set(key, []);
        results.get(key).push(f);
      }
    }
  }
} finally {
  for (const v of variants) rmSync(v.out, { force: true });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const first = [...results.values()][0][0];
console.log(`main-thread cost per child: /bin/true, n=${first.n} per round, ${first.concurrency} in flight, ${first.envVars} env vars, ${rounds} rounds, medians`);
console.log('| mode | build | main-thread CPU µs | event-loop active µs | sync part µs | blocked / preempted per child | burst wall ms |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [key, fs] of results) {
  const [mode, label] = key.split('\t');
  const m = (k) => median(fs.map((f) => f[k])).toFixed(k === 'wallMs' ? 0 : 1);
  console.log(`| ${mode} | ${label} | ${m('mainCpuUs')} | ${m('eluActiveUs')} | ${m('syncUs')} | ${median(fs.map((f) => f.blocked)).toFixed(2)} / ${median(fs.map((f) => f.preempted)).toFixed(2)} | ${m('wallMs')} |`);
}
