import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { resolveContainerId } from '../cli/resolve-id.js';

export default defineCommand({
  summary: 'Start one or more created containers',
  usage: 'start CONTAINER-ID [CONTAINER-ID...]',
  strict: false,
  async run(ctx) {
    const inputs: string[] = ctx.argv;
    if (inputs.length === 0) throw new UsageError('start needs at least one CONTAINER-ID');
    const backend = await ctx.backend();
    for (const input of inputs) {
      try {
        await backend.startContainer({ containerId: await resolveContainerId(backend, input) });
      } catch (err) {
        throw new Error(`starting the container "${input}": ${(err as Error).message}`, { cause: err });
      }
      ctx.print(`${input}\n`);
    }
  },
});
