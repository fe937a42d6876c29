import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { resolve } from 'node:path';
import { defineCommand } from '../cli/spec.js';
import { resolveContainerId } from '../cli/resolve-id.js';

export default defineCommand({
  summary: 'Checkpoint a running container with CRIU into an archive (it keeps running)',
  examples: ['isulats checkpoint --export /var/tmp/web.tar 4f2e'],
  usage: 'checkpoint [flags] CONTAINER-ID',
  args: {
    container: Args.string({ required: true, description: 'Container ID (or a unique prefix, or name)' }),
  },
  flags: {
    export: Flags.string({ char: 'e', summary: 'Archive to write (default: checkpoint-<id>-<time>.tar in the current directory)' }),
  },
  async run(ctx) {
    // CRIU dumps every page of the container's memory: minutes for a large one.
    await ctx.config();
    ctx.globals.timeoutMs = Math.max(ctx.globals.timeoutMs, 600_000);
    const backend = await ctx.backend();
    const containerId = await resolveContainerId(backend, ctx.args.container);
    // The runtime writes the file: it needs an absolute path (the daemon's cwd is not ours).
    const location = resolve(ctx.flags.export ?? `checkpoint-${containerId.slice(0, 12)}-${new Date().toISOString().replace(/[:.]/g, '-')}.tar`);
    try {
      await backend.checkpointContainer({ containerId, location, timeout: '0' });
    } catch (err) {
      throw new Error(`checkpointing the container "${ctx.args.container}": ${(err as Error).message}`, { cause: err });
    }
    ctx.print(`${location}\n`);
  },
});
