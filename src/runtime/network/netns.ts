// Network namespaces bind-mounted at a path under the state dir. Node cannot
// unshare or mount namespaces itself, so creation uses util-linux's
// `unshare --net=<file>` (it creates the namespace and bind-mounts it on the
// file, like `ip netns add`) and runs `ip link set lo up` inside it: one process
// rather than unshare + nsenter (a pod start runs several; each one costs).
// Release is umount (native addon, MNT_DETACH)
// plus unlink, and is idempotent.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MNT, umount2 } from '../native.js';
import type { ProcessRunner } from '../oci/process-runner.js';
import { internal } from '../errors.js';
import { mountedPaths } from '../snapshot/overlay-snapshotter.js';

export async function createNetns(runner: ProcessRunner, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, '', { flag: 'wx', mode: 0o444 });
  try {
    await runner.check({ cmd: 'unshare', args: [`--net=${path}`, 'ip', 'link', 'set', 'lo', 'up'], timeoutMs: 30_000 });
  } catch (error) {
    await removeNetns(path).catch(() => undefined);
    throw internal(`creating network namespace ${path} failed: ${(error as Error).message}`, error);
  }
}

export async function removeNetns(path: string): Promise<void> {
  // A path may be stacked with more than one mount after a crash mid-create; bounded.
  for (let i = 0; i < 4 && (await mountedPaths()).has(path); i++) {
    try {
      umount2(path, MNT.DETACH);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && code !== 'ENOENT') throw error;
      break;
    }
  }
  await rm(path, { force: true });
}

export async function netnsMounted(path: string): Promise<boolean> {
  return (await mountedPaths()).has(path);
}
