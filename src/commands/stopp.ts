import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { resolveOrAsTyped, resolvePodId } from '../cli/resolve-id.js';
import { isKind } from '../runtime/errors.js';

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
        const id = await resolveOrAsTyped(resolvePodId, backend, input);
        await backend.stopPodSandbox({ podSandboxId: id });
      } catch (err) {
        if (!isKind(err, 'not-found')) throw new Error(`stopping the pod sandbox "${input}": ${(err as Error).message}`, { cause: err });
        // Gone is stopped (CRI: StopPodSandbox is idempotent): containerd 1.7 and ours say so, 1.6 answers NotFound.
      }
      ctx.print(`Stopped sandbox ${input}\n`);
    }
  },
});
