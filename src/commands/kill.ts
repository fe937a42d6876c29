import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { resolveContainerId } from '../cli/resolve-id.js';

export default defineCommand({
  summary: 'Send a signal to running containers (isula kill)',
  usage: 'kill [-s SIGNAL] CONTAINER...',
  strict: false,
  args: { container: Args.string({ required: true, description: 'Container ID or unique prefix' }) },
  flags: { signal: Flags.string({ char: 's', default: 'SIGKILL', summary: 'Signal name or number (default SIGKILL)' }) },
  async run(ctx) {
    const backend = await ctx.backend();
    const kill = extraOf(backend, 'killContainer', 'kill');
    for (const input of [ctx.args.container, ...ctx.argv]) {
      const id = await resolveContainerId(backend, input);
      await kill(id, ctx.flags.signal);
      ctx.print(`${id}\n`);
    }
  },
});
