import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { resolveContainerId } from '../cli/resolve-id.js';

export default defineCommand({
  summary: 'Stop and start containers again (isula restart)',
  usage: 'restart [-t SECONDS] CONTAINER...',
  strict: false,
  args: { container: Args.string({ required: true, description: 'Container ID or unique prefix' }) },
  flags: { time: Flags.integer({ char: 't', default: 10, min: 0, summary: 'Seconds to wait for a graceful stop before SIGKILL' }) },
  async run(ctx) {
    const backend = await ctx.backend();
    const restart = extraOf(backend, 'restartContainer', 'restart');
    for (const input of [ctx.args.container, ...ctx.argv]) {
      const id = await resolveContainerId(backend, input);
      await restart(id, ctx.flags.time);
      ctx.print(`${id}\n`);
    }
  },
});
