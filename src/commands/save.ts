import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { invalidArgument } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Save images to a tarball (isula save)',
  usage: 'save -o FILE [--format docker-archive|oci-archive] IMAGE...',
  strict: false,
  args: { image: Args.string({ required: true, description: 'Image names or IDs' }) },
  flags: {
    output: Flags.string({ char: 'o', required: true, summary: 'Tarball to write' }),
    format: Flags.option({ options: ['docker-archive', 'oci-archive'] as const, default: 'docker-archive', summary: 'Archive format' })(),
  },
  async run(ctx) {
    const refs = [ctx.args.image, ...ctx.argv];
    if (refs.some((r) => !r)) throw invalidArgument('image names must not be empty');
    const backend = await ctx.backend();
    await extraOf(backend, 'saveImages', 'save')(refs, ctx.flags.output, ctx.flags.format);
  },
});
