// Leftovers of atomic writes cut short by a crash (store/atomic-file.ts writes
// `.<name>.tmp-<pid>-<hex>` and renames it over `<name>`): a temp file whose
// writer is dead, or that is older than any write lasts (its PID may have been
// reused), is removed. A pod or container dir without meta.json (a crash
// inside the first record write, or inside a removal) is removed under the
// object's lock: create and remove hold that lock while the dir exists without
// a record, so a dir found so under it belongs to nobody.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineContext } from '../engine-context.js';
import type { StateStore, StoredObject } from '../store/state-store.js';
import { ID_PATTERN } from '../store/state-store.js';
import { mountedPaths } from '../snapshot/overlay-snapshotter.js';
import { creatorAlive } from './creator.js';

const TEMP_FILE = /^\..+\.tmp-(\d+)-[0-9a-f]+$/;
/** No atomic write takes this long: an older temp file is stale whoever holds its PID now. */
export const TEMP_FILE_MAX_AGE_MS = 10 * 60_000;

export async function removeStaleTempFiles(ctx: EngineContext, now = Date.now()): Promise<void> {
  const root = ctx.options.root;
  for (const dir of [root, join(root, 'images'), ctx.paths.cniCacheDir, join(root, 'names', 'sandboxes'), join(root, 'names', 'containers')]) await sweep(dir, now);
  const stores: Array<[StateStore<StoredObject> | undefined, string]> = [
    [ctx.sandboxes, join(root, 'sandboxes')],
    [ctx.containers, join(root, 'containers')],
    [undefined, join(root, 'containers-rw')],
  ];
  for (const [store, dir] of stores) {
    for (const id of await readdir(dir).catch(() => [] as string[])) {
      if (!ID_PATTERN.test(id)) continue;
      const left = await sweep(join(dir, id), now);
      if (store && !left.includes('meta.json')) await removeRecordlessDir(store, id);
    }
  }
}

/** Removes the stale temp files in `dir`; returns the names left. */
async function sweep(dir: string, now: number): Promise<string[]> {
  const left: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const writer = TEMP_FILE.exec(name)?.[1];
    if (writer && (await stale(join(dir, name), Number(writer), now))) await rm(join(dir, name), { force: true });
    else left.push(name);
  }
  return left;
}

async function stale(path: string, writerPid: number, now: number): Promise<boolean> {
  if (!(await creatorAlive({ pid: writerPid }))) return true;
  const info = await stat(path).catch(() => undefined);
  return !!info && now - info.mtimeMs > TEMP_FILE_MAX_AGE_MS;
}

async function removeRecordlessDir(store: StateStore<StoredObject>, id: string): Promise<void> {
  await store.withLock(id, async () => {
    if (await store.get(id)) return;
    const dir = store.objectDir(id);
    // Never remove through a mount (a pod's shm): that would empty it, and rmdir would fail anyway.
    for (const m of await mountedPaths()) if (m.startsWith(`${dir}/`)) return;
    await store.remove(id);
  });
}
