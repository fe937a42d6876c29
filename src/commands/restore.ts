import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { resolve } from 'node:path';
import { defineCommand } from '../cli/spec.js';
import { resolvePodId } from '../cli/resolve-id.js';

export default defineCommand({
  summary: 'Restore a checkpointed container into a pod (CreateContainer from the archive, then StartContainer)',
  examples: ['isulats restore --name web-restored 7a3c /var/tmp/web.tar'],
  usage: 'restore [flags] POD-ID ARCHIVE',
  args: {
    pod: Args.string({ required: true, description: 'Pod ID (or a unique prefix)' }),
    archive: Args.string({ required: true, description: 'Checkpoint archive (from checkpoint, kubelet, CRI-O or containerd)' }),
  },
  flags: {
    name: Flags.string({ summary: "Name of the restored container (default: the checkpointed container's)" }),
    'no-start': Flags.boolean({ summary: 'Only create it: a later start restores the processes' }),
  },
  async run(ctx) {
    await ctx.config();
    ctx.globals.timeoutMs = Math.max(ctx.globals.timeoutMs, 600_000);
    const backend = await ctx.backend();
    const podSandboxId = await resolvePodId(backend, ctx.args.pod);
    // The image is the archive's absolute path: that is how CRI asks for a restore (as CRI-O's).
    const config = { metadata: { name: ctx.flags.name ?? '', attempt: 0 }, image: { image: resolve(ctx.args.archive) } };
    let containerId: string;
    try {
      ({ containerId } = await backend.createContainer({ podSandboxId, config }));
    } catch (err) {
      throw new Error(`restoring from ${ctx.args.archive}: ${(err as Error).message}`, { cause: err });
    }
    if (!ctx.flags['no-start']) {
      try {
        await backend.startContainer({ containerId });
      } catch (err) {
        throw new Error(`restoring from ${ctx.args.archive}: container ${containerId} was created, its restore failed: ${(err as Error).message}`, { cause: err });
      }
    }
    ctx.print(`${containerId}\n`);
  },
});
