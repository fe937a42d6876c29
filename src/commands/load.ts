import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';

export default defineCommand({
  summary: 'Load images from a docker-archive or OCI-layout tarball (isula load)',
  usage: 'load -i FILE',
  flags: {
    input: Flags.string({ char: 'i', required: true, summary: 'Tarball to read (docker save or OCI layout)' }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    const loaded = await extraOf(backend, 'loadImages', 'load')(ctx.flags.input);
    for (const img of loaded) {
      if (img.tags.length === 0) ctx.print(`Loaded image ID: ${img.id}\n`);
      for (const t of img.tags) ctx.print(`Loaded image: ${t}\n`);
    }
  },
});
