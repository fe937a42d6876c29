// A checkpoint whose process died (SIGKILL, a crash) between pausing the container and resuming it
// leaves the container frozen: its processes stop answering, its probes fail, and nothing else
// thaws it. The checkpoint's work dir names its checkpointer; once that process is gone, recovery
// resumes the container if it is still paused and removes the work dir (a partial dump, of no use).
import { readFile, rm } from 'node:fs/promises';
import { CHECKPOINT_WORK_DIR, CHECKPOINTER } from '../checkpoint/write-checkpoint.js';
import type { EngineContext } from '../engine-context.js';
import { joinPath } from '../store/path-join.js';
import { creatorAlive, type Creator } from './creator.js';

export async function resumeAbandonedCheckpoints(ctx: EngineContext): Promise<void> {
  for (const r of await ctx.containers.list()) {
    const workDir = joinPath(ctx.containers.objectDir(r.id), CHECKPOINT_WORK_DIR);
    if (!(await abandonedCheckpointer(workDir))) continue;
    // The container's lock: a checkpoint, a stop or a removal of it holds it.
    await ctx.containers.withLockIfPresent(r.id, async () => {
      if (!(await abandonedCheckpointer(workDir))) return; // another checkpoint ran meanwhile
      const handler = ctx.runtimes.find(r.runtimeHandler ?? '');
      const state = handler && (await handler.runtime.state(r.id).catch(() => undefined));
      if (handler && state?.status === 'paused') await handler.runtime.resume(r.id);
      await rm(workDir, { recursive: true, force: true });
    });
  }
}

/**
 * Whether the work dir names a checkpointer that is gone. None named (none ran, one is starting,
 * or one resumed before it died): nothing is frozen, and the next checkpoint starts afresh.
 */
async function abandonedCheckpointer(workDir: string): Promise<boolean> {
  const text = await readFile(joinPath(workDir, CHECKPOINTER), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  let creator: Creator;
  try {
    creator = JSON.parse(text) as Creator;
  } catch {
    return false; // torn at its write: the checkpointer died before it paused anything
  }
  return !(await creatorAlive(creator));
}
