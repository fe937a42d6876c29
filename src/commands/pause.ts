import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { resolveContainerId } from '../cli/resolve-id.js';

export default defineCommand({
  summary: 'Pause all processes in containers (isula pause)',
  usage: 'pause CONTAINER...',
  strict: false,
  args: { container: Args.string({ required: true, description: 'Container ID or unique prefix' }) },
  async run(ctx) {
    const backend = await ctx.backend();
    const op = extraOf(backend, 'pauseContainer', 'pause');
    for (const input of [ctx.args.container, ...ctx.argv]) {
      const id = await resolveContainerId(backend, input);
      await op(id);
      ctx.print(`${id}\n`);
    }
  },
});
