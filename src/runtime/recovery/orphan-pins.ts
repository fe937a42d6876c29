// IPC, UTS and user namespace pins (and userns share dirs) whose pod has no record: a process died after
// removing the record, or before its undo ran. (Network namespace pins also
// need a CNI DEL; Engine.removeLeftovers releases those.)
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineContext } from '../engine-context.js';
import { releasePins } from '../network/netns.js';
import { ID_PATTERN } from '../store/state-store.js';
import { removeUsernsShare, usernsSharePods } from '../sandbox/userns-share.js';

export async function releaseOrphanPins(ctx: EngineContext, known: (id: string) => Promise<boolean>): Promise<void> {
  for (const dir of [ctx.paths.ipcnsDir, ctx.paths.utsnsDir, ctx.paths.usernsDir]) {
    const orphans: string[] = [];
    for (const id of await readdir(dir).catch(() => [] as string[])) {
      if (ID_PATTERN.test(id) && !(await known(id))) orphans.push(join(dir, id));
    }
    if (orphans.length) await releasePins(orphans);
  }
  // The share dirs of pods with a user namespace (shm mount, pod files, rootfs mountpoints).
  for (const id of usernsSharePods(ctx.paths)) {
    if (ID_PATTERN.test(id) && !(await known(id))) await removeUsernsShare(ctx.paths, id);
  }
}
