// The floor of the lifecycle benchmarks: an OCI bundle that bare `runc run -d`
// starts, equivalent to a container's (the busybox rootfs, `sleep 3600`, no
// network namespace of its own, no terminal).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../../test/rig/proc.js';

export async function writeFloorBundle(bundle: string, rootfs: string): Promise<void> {
  await mkdir(bundle);
  await run('runc', ['spec', '--bundle', bundle]);
  const spec = JSON.parse(await readFile(join(bundle, 'config.json'), 'utf8'));
  spec.root = { path: rootfs, readonly: true };
  spec.process.args = ['sleep', '3600'];
  spec.process.terminal = false;
  spec.process.rlimits = [];
  spec.linux.namespaces = spec.linux.namespaces.filter((n: { type: string }) => n.type !== 'network');
  await writeFile(join(bundle, 'config.json'), JSON.stringify(spec));
}
