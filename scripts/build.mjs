// Build: precompiled protocol descriptors, the native addon, then one ESM
// bundle with code splitting (each command and each heavy dependency in its
// own chunk, loaded only when used), so a CLI call parses little code.
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

// Build beside dist/ and swap, so a CLI call running meanwhile never sees half a build.
rmSync('dist.new', { recursive: true, force: true });
// Named entry points keep dist/ flat and stable: dist/main.js is what bin/isulats imports.
const entryPoints = { main: 'src/cli/main.ts' };
if (existsSync('src/nri/sdk/index.ts')) entryPoints['nri-sdk'] = 'src/nri/sdk/index.ts';
await build({
  entryPoints,
  outdir: 'dist.new',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  // oclif's dev-mode TypeScript support is never used from a bundle.
  external: ['typescript', '*.node'],
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
// Protocol descriptors are read at run time next to whichever chunk loads them.
for (const d of ['dist.new/descriptors', 'dist.new/chunks/descriptors']) cpSync('src/api/descriptors', d, { recursive: true });
rmSync('dist', { recursive: true, force: true });
renameSync('dist.new', 'dist');
