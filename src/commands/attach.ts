import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { ExitCodeError } from '../cli/errors.js';
import { resolveContainerId } from '../cli/resolve-id.js';
import { runStreamSession } from '../cli/stream-session.js';

export default defineCommand({
  summary: 'Attach to a running container',
  usage: 'attach [flags] CONTAINER-ID',
  args: {
    container: Args.string({ required: true, description: 'Container ID (or a unique prefix)' }),
  },
  flags: {
    tty: Flags.boolean({ char: 't', summary: 'Allocate a pseudo-TTY' }),
    stdin: Flags.boolean({ char: 'i', summary: 'Keep STDIN open' }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    const tty = Boolean(ctx.flags.tty);
    try {
      const containerId = await resolveContainerId(backend, ctx.args.container);
      return await runStreamSession(
        backend,
        'attach',
        { containerId, tty, stdin: Boolean(ctx.flags.stdin), stdout: true, stderr: !tty },
        { stdin: ctx.stdin, stdout: ctx.stdout, stderr: ctx.stderr, debug: ctx.debug },
      );
    } catch (err) {
      if (err instanceof ExitCodeError) return err.code;
      throw new Error(`attaching running container failed: ${(err as Error).message}`, { cause: err });
    }
  },
});
