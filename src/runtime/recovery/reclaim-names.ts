// Name reservations whose owner has no record. Every flow writes its record
// (marked creating) before it reserves the name, and releases the name right
// after removing the record, so a reservation without a record is a leftover
// of a killed process (a removal cut between the two steps): it is dropped at
// once instead of blocking a retry for the registry's grace period.
import { randomBytes } from 'node:crypto';
import { link, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineContext } from '../engine-context.js';

export async function reclaimOrphanNames(ctx: EngineContext): Promise<void> {
  const root = ctx.options.root;
  await reclaimIn(join(root, 'names', 'sandboxes'), join(root, 'sandboxes'), async (id) => !!(await ctx.sandboxes.get(id)));
  await reclaimIn(join(root, 'names', 'containers'), join(root, 'containers'), async (id) => !!(await ctx.containers.get(id)));
}

/** `recordsDir` holds one dir per record: one readdir answers for most names without reading records. */
async function reclaimIn(dir: string, recordsDir: string, exists: (id: string) => Promise<boolean>): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  if (entries.length === 0) return;
  const ids = new Set(await readdir(recordsDir).catch(() => [] as string[]));
  for (const entry of entries) {
    if (entry.startsWith('.') || entry.includes('.reclaim-')) continue;
    const path = join(dir, entry);
    const owner = (await readFile(path, 'utf8').catch(() => undefined))?.trim();
    // Empty: an O_EXCL create whose write never came (older reservations): it names no owner.
    if (owner === undefined || (owner && (ids.has(owner) || (await exists(owner))))) continue;
    // Take the file out of the way atomically, then check it is still the stale owner's: the name
    // may have been released and reserved again in between; such a reservation is put back.
    const aside = `${path}.reclaim-${randomBytes(4).toString('hex')}`;
    if (!(await rename(path, aside).then(() => true, () => false))) continue;
    const taken = (await readFile(aside, 'utf8').catch(() => '')).trim();
    if (taken !== owner || (taken && (await exists(taken)))) await link(aside, path).catch(() => undefined);
    await rm(aside, { force: true });
  }
}
