#!/usr/bin/env node
// Builds native/isulats.c into build/Release/isulats.node with gcc against
// Node's installed headers (no node-gyp, no Python): one C file, one command.
// Skips the compile when the output is newer than the source (pass --force to rebuild).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(repo, 'native', 'isulats.c');
const output = join(repo, 'build', 'Release', 'isulats.node');
const headers = process.env.NODE_INCLUDE_DIR ?? '/usr/include/node';

const upToDate = existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs;
if (upToDate && !process.argv.includes('--force')) process.exit(0);
if (!existsSync(join(headers, 'node_api.h'))) {
  console.error(`build-native: ${headers}/node_api.h not found (install Node's headers or set NODE_INCLUDE_DIR)`);
  process.exit(1);
}
mkdirSync(dirname(output), { recursive: true });
const args = ['-shared', '-fPIC', '-O2', '-Wall', '-pthread', '-DNODE_GYP_MODULE_NAME=isulats', `-I${headers}`, '-o', output, source];
const result = spawnSync(process.env.CC ?? 'gcc', args, { stdio: 'inherit' });
if (result.status !== 0) {
  console.error(`build-native: ${process.env.CC ?? 'gcc'} ${args.join(' ')} failed`);
  process.exit(result.status ?? 1);
}
