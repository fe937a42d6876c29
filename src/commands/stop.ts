import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { resolveContainerId, resolveOrAsTyped } from '../cli/resolve-id.js';
import { isKind } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Stop one or more running containers',
  usage: 'stop [flags] CONTAINER-ID [CONTAINER-ID...]',
  strict: false,
  flags: {
    timeout: Flags.integer({ char: 't', summary: 'Seconds to wait to kill the container after a graceful stop is requested', default: 0, min: 0 }),
  },
  async run(ctx) {
    const inputs: string[] = ctx.argv;
    if (inputs.length === 0) throw new UsageError('stop needs at least one CONTAINER-ID');
    const timeout: number = ctx.flags.timeout ?? 0;
    // The RPC may take the whole grace period: its deadline is the connection timeout plus it (as crictl's client).
    await ctx.config();
    ctx.globals.timeoutMs += timeout * 1000;
    const backend = await ctx.backend();
    for (const input of inputs) {
      try {
        await backend.stopContainer({ containerId: await resolveOrAsTyped(resolveContainerId, backend, input), timeout: String(timeout) });
      } catch (err) {
        if (!isKind(err, 'not-found')) throw new Error(`stopping the container "${input}": ${(err as Error).message}`, { cause: err });
        // Gone is stopped (CRI: StopContainer is idempotent): containerd 1.7 and ours say so, 1.6 answers NotFound.
      }
      ctx.print(`${input}\n`);
    }
  },
});
