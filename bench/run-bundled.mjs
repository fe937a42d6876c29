// Shared by the bench runners whose TypeScript reuses test/rig: builds dist/ (the daemon runs
// bin/isulats), bundles the entry with esbuild beside itself (two levels below the repo root, like
// the test/rig modules it bundles, so their import.meta paths still resolve), runs it with the
// given arguments and removes the bundle. Returns the exit code.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function runBundled(entry, args) {
  if (spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, stdio: 'inherit' }).status !== 0) return 1;
  const out = join(repo, dirname(entry), `.bench-${process.pid}.mjs`);
  try {
    await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error', packages: 'external', absWorkingDir: repo, entryPoints: [join(repo, entry)], outfile: out });
    return spawnSync(process.execPath, [out, ...args], { stdio: 'inherit', cwd: repo }).status ?? 1;
  } finally {
    rmSync(out, { force: true });
  }
}
