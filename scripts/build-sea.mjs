// Builds the single executable: one file that is the whole of isulats (CLI, embedded engine,
// daemon, native addon, helper binaries, protocol descriptors) for a node that has runc, conmon
// and the CNI plugins but no Node.js. Node's single executable application support: the main
// script is src/sea/main.ts (the CLI's fast path, a few tens of kB, with V8's code cache), the
// full CLI (src/sea/full.ts) one CommonJS bundle carried as an asset with a code cache made here,
// the rest as assets; a blob made by `node --experimental-sea-config`, injected with postject
// into a copy of this node binary.
// Needs `npm run build` first (the addon and the helpers). Usage:
//   node scripts/build-sea.mjs [--out dist/sea/isulats]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SHIPPED_HELPERS } from './lib/shipped-helpers.mjs';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? 'dist/sea/isulats');
const work = resolve('.tmp/sea');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const helpers = SHIPPED_HELPERS;
const missing = helpers.filter((f) => !existsSync(f));
if (missing.length > 0 || !existsSync('dist/descriptors')) {
  process.stderr.write(`build-sea: missing ${[...missing, 'dist/descriptors'].filter((f) => !existsSync(f)).join(', ')}: run npm run build first\n`);
  process.exit(1);
}

rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'assets'), { recursive: true });

const bundle = { outdir: work, outExtension: { '.js': '.cjs' }, bundle: true, platform: 'node', target: 'node20', format: 'cjs', minify: true, logLevel: 'warning' };
// The main script: the fast path only (built-in modules only, which the single executable's own require loads).
await build({ ...bundle, entryPoints: { 'isulats-sea': 'src/sea/main.ts' } });
await build({
  ...bundle,
  entryPoints: { 'isulats-sea-full': 'src/sea/full.ts' },
  external: ['typescript', '*.node'],
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__isulatsUrl' },
  // The bundle's own requires (the addon, package.json for oclif) need a real require, made
  // from the executable's path. `var` may redeclare the parameter.
  banner: { js: "var require=require('node:module').createRequire(__filename);const __isulatsUrl=require('node:url').pathToFileURL(__filename).href;" },
});
// V8's code cache of the full CLI, made by this node binary (the executable is a copy of it, so V8
// takes it); src/sea/main.ts compiles the bundle with it. As `useCodeCache` for the main script.
const fullBundle = join(work, 'isulats-sea-full.cjs');
const fullCache = join(work, 'isulats-sea-full.cjs.v8cache');
const cacheScript = "const fs=require('fs'),vm=require('vm'),{Module}=require('module');" +
  'fs.writeFileSync(process.argv[2],new vm.Script(Module.wrap(fs.readFileSync(process.argv[1],"utf8"))).createCachedData())';
run(process.execPath, ['-e', cacheScript, fullBundle, fullCache]);

// Asset key = its path under the install root the executable recreates; value = [source, mode].
const assets = new Map();
for (const f of helpers) assets.set(f, [f, 0o755]);
for (const d of readdirSync('dist/descriptors')) assets.set(`dist/descriptors/${d}`, [join('dist/descriptors', d), 0o644]);
const minimalPackage = join(work, 'assets', 'package.json');
writeFileSync(minimalPackage, `${JSON.stringify({ name: pkg.name, version: pkg.version, type: 'module' }, null, 2)}\n`);
assets.set('package.json', [minimalPackage, 0o644]);

const hash = createHash('sha256');
const files = {};
for (const key of [...assets.keys()].sort()) {
  const [source, mode] = assets.get(key);
  hash.update(`${key}\0${mode}\0`).update(readFileSync(source));
  files[key] = mode;
}
hash.update(readFileSync(join(work, 'isulats-sea.cjs'))).update(readFileSync(fullBundle)); // a new CLI build gets a fresh dir too
const manifestFile = join(work, 'assets', 'sea-manifest.json');
writeFileSync(manifestFile, JSON.stringify({ hash: hash.digest('hex'), files }));

const seaConfig = {
  main: join(work, 'isulats-sea.cjs'),
  output: join(work, 'sea.blob'),
  disableExperimentalSEAWarning: true,
  // V8's code cache of the script, made at build time: start-up compiles nothing it covers.
  useCodeCache: true,
  assets: {
    'sea-manifest.json': manifestFile,
    // Read in memory by src/sea/main.ts, never unpacked (not in the manifest).
    'isulats-sea-full.cjs': fullBundle,
    'isulats-sea-full.cjs.v8cache': fullCache,
    ...Object.fromEntries([...assets].map(([k, [source]]) => [k, resolve(source)])),
  },
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`${r.stderr}build-sea: ${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})\n`);
    process.exit(1);
  }
}
run(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')]);
mkdirSync(dirname(out), { recursive: true });
const partial = `${out}.new`;
copyFileSync(process.execPath, partial);
chmodSync(partial, 0o755);
run(process.execPath, ['node_modules/postject/dist/cli.js', partial, 'NODE_SEA_BLOB', join(work, 'sea.blob'),
  '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2']);
// One rename: a running copy of the old file keeps its inode, and `out` is never missing.
renameSync(partial, out);
rmSync(work, { recursive: true, force: true });
process.stdout.write(`built ${out} (${(statSync(out).size / 1024 / 1024).toFixed(1)} MiB)\n`);
