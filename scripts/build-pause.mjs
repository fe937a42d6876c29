#!/usr/bin/env node
// Builds assets/pause/pause.c into build/pause/pause (static, stripped), so the
// engine builds its default pause image from a shipped binary: no compiler on
// the node and no compile at the first pod. Skips when the output is newer than
// the source (pass --force to rebuild).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(repo, 'assets', 'pause', 'pause.c');
const output = join(repo, 'build', 'pause', 'pause');

const upToDate = existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs;
if (upToDate && !process.argv.includes('--force')) process.exit(0);
mkdirSync(dirname(output), { recursive: true });
const args = ['-static', '-O2', '-s', '-o', output, source];
const result = spawnSync(process.env.CC ?? 'gcc', args, { stdio: 'inherit' });
if (result.status !== 0) {
  console.error(`build-pause: ${process.env.CC ?? 'gcc'} ${args.join(' ')} failed`);
  process.exit(result.status ?? 1);
}
