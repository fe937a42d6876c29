import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { teardownContainerdDir, type ContainerdOwnerData } from './containerd.js';
import { readDaemonOwner, teardownDaemonDir } from './isulats-daemon.js';
import { ownerAlive, readOwner } from './owner.js';
import { stopRegistryDir, type RegistryOwnerData } from './registry.js';

/**
 * Tears down rig registries, containerds and isulats daemons left by runs that died (killed vitest, timeout), found
 * by their owner records under /tmp. Rigs whose owner still runs, e.g. another run in parallel,
 * and dirs without a record are left alone. Returns how many were reaped.
 */
export async function reapStaleRigs(): Promise<number> {
  let reaped = 0;
  for (const name of await readdir('/tmp').catch(() => [] as string[])) {
    const dir = join('/tmp', name);
    try {
      if (name.startsWith('ist-ctd-')) {
        const owner = await readOwner<ContainerdOwnerData>(dir);
        if (!owner || (await ownerAlive(owner))) continue;
        await teardownContainerdDir(dir, owner.data);
        reaped++;
      } else if (name.startsWith('ist-d-')) {
        const owner = await readDaemonOwner(dir);
        if (!owner || (await ownerAlive(owner))) continue;
        await teardownDaemonDir(dir, owner.data);
        reaped++;
      } else if (name.startsWith('ist-reg-')) {
        const owner = await readOwner<RegistryOwnerData>(dir);
        if (!owner || (await ownerAlive(owner))) continue;
        await stopRegistryDir(dir, owner.data.registryPid);
        reaped++;
      }
    } catch (error) {
      process.stderr.write(`[rig] could not reap ${dir}: ${(error as Error).message}\n`);
    }
  }
  return reaped;
}
