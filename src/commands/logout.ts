import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';

export default defineCommand({
  summary: 'Forget the stored credentials of a registry',
  usage: 'logout SERVER',
  args: { server: Args.string({ required: true, description: 'Registry host' }) },
  async run(ctx) {
    const backend = await ctx.backend();
    const removed = await extraOf(backend, 'logout', 'logout')(ctx.args.server);
    ctx.print(removed ? `Removed login credentials for ${ctx.args.server}\n` : `Not logged in to ${ctx.args.server}\n`);
  },
});
