import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { UsageError, ExitCodeError } from '../cli/errors.js';
import { resolveContainerId } from '../cli/resolve-id.js';
import { runStreamSession } from '../cli/stream-session.js';
import { isKind } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Run a command in a running container',
  examples: [
    'isulats exec -s 1f2e ls -l /',
    'isulats exec -it 1f2e sh',
    'echo hi | isulats exec -i 1f2e cat',
  ],
  usage: 'exec [flags] CONTAINER-ID COMMAND [ARG...]',
  strict: false,
  passThroughAfterArgs: 1,
  args: {
    container: Args.string({ required: true, description: 'Container ID (or a unique prefix)' }),
  },
  flags: {
    sync: Flags.boolean({ char: 's', summary: 'Run the command synchronously' }),
    timeout: Flags.integer({ summary: 'Timeout in seconds (with --sync)', default: 0, min: 0 }),
    tty: Flags.boolean({ char: 't', summary: 'Allocate a pseudo-TTY' }),
    interactive: Flags.boolean({ char: 'i', summary: 'Keep STDIN open' }),
  },
  async run(ctx) {
    const cmd: string[] = ctx.argv;
    if (cmd.length === 0) throw new UsageError('exec needs a COMMAND to run');
    const backend = await ctx.backend();
    const containerId = await resolveContainerId(backend, ctx.args.container);
    if (ctx.flags.sync) {
      let r;
      try {
        r = await backend.execSync({ containerId, cmd, timeout: String(ctx.flags.timeout ?? 0) });
      } catch (err) {
        // The runtime's DeadlineExceeded is the command's --timeout running out, not the socket's.
        const timeout = Number(ctx.flags.timeout ?? 0);
        const why = timeout > 0 && isKind(err, 'deadline-exceeded') ? `the command timed out after ${timeout}s (${(err as Error).message})` : (err as Error).message;
        throw new Error(`execing command in container synchronously: ${why}`, { cause: err });
      }
      // crictl prints both outputs with Println on success; on failure the remote stderr goes to stderr.
      ctx.print(`${r.stdout.toString()}\n`);
      if (r.exitCode === 0) {
        ctx.print(`${r.stderr.toString()}\n`);
        return 0;
      }
      ctx.stderr.write(r.stderr);
      return r.exitCode;
    }
    const tty = Boolean(ctx.flags.tty);
    try {
      return await runStreamSession(
        backend,
        'exec',
        { containerId, cmd, tty, stdin: Boolean(ctx.flags.interactive), stdout: true, stderr: !tty },
        { stdin: ctx.stdin, stdout: ctx.stdout, stderr: ctx.stderr, debug: ctx.debug },
      );
    } catch (err) {
      if (err instanceof ExitCodeError) return err.code;
      throw new Error(`execing command in container: ${(err as Error).message}`, { cause: err });
    }
  },
});
