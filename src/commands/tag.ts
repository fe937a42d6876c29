import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';

export default defineCommand({
  summary: 'Give an image another name (isula tag)',
  usage: 'tag SOURCE_IMAGE[:TAG] TARGET_IMAGE[:TAG]',
  args: {
    source: Args.string({ required: true, description: 'Existing image name, ID or ID prefix' }),
    target: Args.string({ required: true, description: 'New name' }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    await extraOf(backend, 'tagImage', 'tag')(ctx.args.source, ctx.args.target);
  },
});
