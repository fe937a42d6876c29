// Build: precompiled protocol descriptors, the native addon, the pause binary
// (build/pause/pause, the default pause image's one file), then the CLI as
// one CommonJS bundle (dist/isulats.cjs) that bin/isulats loads through a V8
// code cache, and the NRI plugin SDK as an ES module (dist/nri-sdk.js, the
// package's isulats/nri entry, with its declarations in dist/types).
//
// Why one CommonJS file: start-up is dominated by compiling JavaScript. Node 20
// has no compile cache for ES modules, but vm.Script takes V8 cached data, so
// bin/isulats compiles the bundle from a cache written by an earlier call
// (~25% off every CLI call). Heavy parts (grpc-js, protobufjs, the engine) still
// run only when a command needs them: esbuild wraps each module lazily.
import { build } from 'esbuild';
import { cpSync, existsSync, rmSync, renameSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

function step(script) {
  if (!existsSync(script)) return;
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

step('scripts/gen-proto.mjs');
step('scripts/build-native.mjs');
step('scripts/build-pause.mjs');

// Build beside dist/ and swap, so a CLI call running meanwhile never sees half a build.
rmSync('dist.new', { recursive: true, force: true });
const common = {
  outdir: 'dist.new',
  bundle: true,
  platform: 'node',
  target: 'node20',
  // ISULATS_BUILD_MINIFY=0 keeps names, for CPU profiles of the daemon.
  minify: process.env.ISULATS_BUILD_MINIFY !== '0',
  sourcemap: false,
  // oclif's dev-mode TypeScript support is never used from a bundle.
  external: ['typescript', '*.node'],
  logLevel: 'warning',
};
await build({
  ...common,
  // The daemon after its re-exec (src/daemon/main.ts) has a bundle of its own, without the CLI.
  entryPoints: { isulats: 'src/cli/main.ts', 'isulats-daemon': 'src/daemon/main.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // A source map beside each bundle, not referenced from it (nothing loads it at run time): for
  // reading a minified stack trace, and for tests that map V8 coverage to the modules that ran.
  sourcemap: 'external',
  sourcesContent: false,
  // Every import() becomes a require(): the bundle runs in a vm.Script, which has no ES module loader.
  supported: { 'dynamic-import': false },
  // Modules find their files (descriptors, assets, the addon) from their own URL.
  define: { 'import.meta.url': '__isulatsUrl' },
  banner: { js: "const __isulatsUrl=require('node:url').pathToFileURL(__filename).href;" },
});
// The fast path of `version`, `pods` and `ps` (src/fast/fast-cli.ts): a few kB that bin/isulats
// loads before the full bundle; it must import nothing heavy (checked by test/unit/fast-path-bundle.test.ts).
await build({
  ...common,
  entryPoints: { 'isulats-fast': 'src/fast/fast-cli.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  metafile: false,
});
if (existsSync('src/nri/sdk/index.ts')) {
  await build({
    ...common,
    entryPoints: { 'nri-sdk': 'src/nri/sdk/index.ts' },
    format: 'esm',
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  });
}
// The SDK's type declarations (the package's isulats/nri entry), for TypeScript plugins compiled against an install.
if (existsSync('tsconfig.sdk.json')) {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.sdk.json'], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}
// Protocol descriptors are read at run time next to the bundle.
cpSync('src/api/descriptors', 'dist.new/descriptors', { recursive: true });
rmSync('dist', { recursive: true, force: true });
renameSync('dist.new', 'dist');
