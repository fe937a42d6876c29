// Resource updates (CRI UpdateContainerResources, NRI container updates) reach a running container
// through `runc update`. A created container has no runc container yet (runc runs at
// StartContainer), so the update goes into its bundle's spec, where `runc create` will read it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineContext } from '../engine-context.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import type { LinuxResourcesUpdate } from '../oci/cgroups.js';
import type { ContainerRecord } from './container-record.js';

export async function applyResourceUpdate(ctx: EngineContext, record: ContainerRecord, update: LinuxResourcesUpdate): Promise<void> {
  const oci = ctx.runtimes.get(record.runtimeHandler ?? '');
  if (await oci.known(record.id)) return oci.update(record.id, record.cgroupsPath, update);
  const file = join(record.bundle, 'config.json');
  const spec = JSON.parse(await readFile(file, 'utf8')) as { linux?: { resources?: Record<string, unknown> } };
  spec.linux = { ...spec.linux, resources: mergeResources(spec.linux?.resources ?? {}, update) };
  // Durable, as the spec CreateContainer committed: a power loss leaves the old spec or the new one, never an empty file.
  await writeFileAtomic(file, JSON.stringify(spec));
}

/** The spec's resources with the update's fields set, controller by controller (as `runc update` does). */
export function mergeResources(resources: Record<string, unknown>, update: LinuxResourcesUpdate): Record<string, unknown> {
  const out: Record<string, unknown> = { ...resources };
  for (const [controller, fields] of Object.entries(update) as Array<[string, Record<string, unknown> | undefined]>) {
    if (!fields) continue;
    const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    out[controller] = { ...((out[controller] as Record<string, unknown> | undefined) ?? {}), ...set };
  }
  return out;
}
