// Containers whose record and runc disagree after a SIGKILL in StartContainer between `runc
// start` and the record write (the record still says CREATED). runc is the
// truth: a started container is recorded RUNNING (its exit, if any, is then
// read from conmon's exit file as usual); one runc no longer knows, with its
// monitor gone, is recorded EXITED so it is neither lost nor started twice.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineContext } from '../engine-context.js';
import { nowNs } from '../container/cri-values.js';
import type { ContainerRecord } from '../container/container-record.js';
import { containerStatusOf } from '../container/container-status.js';
import { monitorAlive } from '../container/exit-wait.js';

export async function reconcileCreatedContainers(ctx: EngineContext): Promise<void> {
  for (const r of await ctx.containers.list()) {
    if (r.state !== 'CONTAINER_CREATED' || r.creating) continue;
    // Checked on the file system, so that no CLI call spawns `runc state` per created container:
    // runc has no container before StartContainer runs (the usual created container), and keeps
    // exec.fifo until `runc start` (a StartContainer killed between conmon and `runc start`, which
    // the next StartContainer finishes).
    // A record whose handler left the configuration is left alone (its calls report the handler).
    const handler = ctx.runtimes.find(r.runtimeHandler ?? '');
    if (!handler || !(await handler.runtime.known(r.id)) || (await exists(join(handler.root, r.id, 'exec.fifo')))) continue;
    // Under the record's lock: StartContainer holds it from `runc start` to its record write.
    await ctx.containers.withLock(r.id, async () => {
      const current = await ctx.containers.get(r.id);
      if (!current || current.state !== 'CONTAINER_CREATED' || current.creating) return;
      const state = await handler.runtime.state(r.id).catch(() => undefined);
      if (state?.status === 'created') return;
      if (state) {
        const running: ContainerRecord = { ...current, state: 'CONTAINER_RUNNING', startedAt: nowNs() };
        await ctx.containers.putLocked(running);
        await ctx.events.append({ containerId: r.id, podSandboxId: r.sandboxId, type: 'CONTAINER_STARTED_EVENT', createdAt: nowNs(), status: containerStatusOf(running) });
        return;
      }
      // Its conmon, not just its PID: a reused PID (or a zombie) is no monitor.
      if (await monitorAlive(current.bundle)) return;
      const lost: ContainerRecord = { ...current, state: 'CONTAINER_EXITED', finishedAt: nowNs(), exitCode: 255, reason: 'Error', message: 'container lost: runc no longer knows it and its monitor is gone' };
      await ctx.containers.putLocked(lost);
      await ctx.events.append({ containerId: r.id, podSandboxId: r.sandboxId, type: 'CONTAINER_STOPPED_EVENT', createdAt: nowNs(), status: containerStatusOf(lost) });
    });
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
