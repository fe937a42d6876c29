#!/usr/bin/env node
// Builds the engine's static helpers (static, stripped), so nodes need no
// compiler and the first pod compiles nothing:
//   assets/pause/pause.c -> build/pause/pause  (the default pause image's one file)
//   assets/pinns/pinns.c -> build/pinns/pinns  (makes and pins a pod's namespaces)
//   assets/crun-hybrid/crun-hybrid.c -> build/crun-hybrid/crun-hybrid
//                           (a crun runtime handler's path on a hybrid cgroup v1 host)
//   assets/ttyexec/ttyexec.c -> build/ttyexec/ttyexec  (the parent of a TTY exec's process)
//   assets/execsync/execsync.c -> build/execsync/execsync  (runs an ExecSync's process in place of runc exec)
// Skips a binary newer than its source (pass --force to rebuild).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

for (const name of ['pause', 'pinns', 'crun-hybrid', 'ttyexec', 'execsync']) {
  const source = join(repo, 'assets', name, `${name}.c`);
  const output = join(repo, 'build', name, name);
  const upToDate = existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs;
  if (upToDate && !process.argv.includes('--force')) continue;
  mkdirSync(dirname(output), { recursive: true });
  const args = ['-static', '-O2', '-Wall', '-s', '-o', output, source];
  const result = spawnSync(process.env.CC ?? 'gcc', args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build-pause: ${process.env.CC ?? 'gcc'} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}
