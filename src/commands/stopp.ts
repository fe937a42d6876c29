import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { resolvePodId } from '../cli/resolve-id.js';

export default defineCommand({
  summary: 'Stop one or more running pods',
  usage: 'stopp POD-ID [POD-ID...]',
  strict: false,
  async run(ctx) {
    const inputs: string[] = ctx.argv;
    if (inputs.length === 0) throw new UsageError('stopp needs at least one POD-ID');
    const backend = await ctx.backend();
    // As crictl: stop in order, the first failure ends the command.
    for (const input of inputs) {
      try {
        const id = await resolvePodId(backend, input);
        await backend.stopPodSandbox({ podSandboxId: id });
      } catch (err) {
        throw new Error(`stopping the pod sandbox "${input}": ${(err as Error).message}`, { cause: err });
      }
      ctx.print(`Stopped sandbox ${input}\n`);
    }
  },
});
