import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { statSync } from 'node:fs';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { invalidArgument } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Make an image from a rootfs tarball or directory (isula import)',
  description:
    'A tarball is imported as the single layer of a new image, as isula import does. A directory is packed the same way, so a tiny image can be built offline from a local rootfs (the demo and the tests do).',
  usage: 'import [--cmd CMD]... [--entrypoint ARG]... [--env K=V]... FILE|DIR REFERENCE',
  args: {
    source: Args.string({ required: true, description: 'Rootfs tarball (plain, gzip or zstd) or directory' }),
    reference: Args.string({ required: true, description: 'Name of the new image, e.g. local/busybox:1' }),
  },
  flags: {
    cmd: Flags.string({ multiple: true, multipleNonGreedy: true, summary: 'Image config Cmd, one flag per argument' }),
    entrypoint: Flags.string({ multiple: true, multipleNonGreedy: true, summary: 'Image config Entrypoint, one flag per argument' }),
    env: Flags.string({ multiple: true, multipleNonGreedy: true, summary: 'Image config Env (K=V)' }),
    workdir: Flags.string({ summary: 'Image config WorkingDir' }),
    user: Flags.string({ summary: 'Image config User' }),
  },
  async run(ctx) {
    const { source, reference } = ctx.args;
    let isDir: boolean;
    try {
      isDir = statSync(source).isDirectory();
    } catch (err) {
      throw invalidArgument(`import: cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const config = { cmd: ctx.flags.cmd, entrypoint: ctx.flags.entrypoint, env: ctx.flags.env, workingDir: ctx.flags.workdir, user: ctx.flags.user };
    const backend = await ctx.backend();
    const id = isDir
      ? await extraOf(backend, 'buildImage', 'import')(source, reference, config)
      : await extraOf(backend, 'importImage', 'import')(source, reference);
    ctx.print(`${id}\n`);
  },
});
