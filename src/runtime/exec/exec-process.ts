// The process an exec runs: the container's own process (user, env, cwd, capabilities, rlimits,
// no_new_privileges, AppArmor/SELinux labels) with the caller's command and terminal.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OciProcess } from '../oci/oci-runtime.js';

/**
 * Read synchronously: one small file, cheaper than a thread-pool round trip per step (open,
 * stat, read, close), which costs milliseconds when the pool is busy, on every exec's path.
 */
export function execProcessOf(bundle: string, cmd: string[], tty: boolean): OciProcess {
  const spec = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')) as { process: OciProcess };
  return { ...spec.process, args: cmd, terminal: tty };
}
