// A script the rig's daemon launcher can run (it runs binPath with node) that execve(2)s node with
// the given flags on bin/isulats.cjs: the daemon under Node flags of the bench's choosing (its own
// re-exec is turned off by ISULATS_DAEMON_REEXEC=0 in the daemon's environment).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../test/rig/cli.js';

export function writeFlagsWrapper(path: string, flags: string[]): string {
  const argv = JSON.stringify([process.execPath, ...flags, join(REPO_ROOT, 'bin/isulats.cjs')]);
  writeFileSync(path, [
    `const native = require(process.env.ISULATS_NATIVE);`,
    `const env = Object.entries(process.env).map(([k, v]) => k + '=' + v);`,
    `native.execve(${JSON.stringify(process.execPath)}, [...${argv}, ...process.argv.slice(2)], env);`,
    '',
  ].join('\n'));
  return path;
}
