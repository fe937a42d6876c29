import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { podIdMatcher } from '../cli/resolve-id.js';
import { aggregateErrors } from '../cli/filters.js';

export default defineCommand({
  summary: 'Remove one or more pods',
  usage: 'rmp [flags] POD-ID [POD-ID...]',
  strict: false,
  flags: {
    force: Flags.boolean({ char: 'f', summary: 'Force removal of the pod sandbox, disregarding if running' }),
    all: Flags.boolean({ char: 'a', summary: 'Remove all pods' }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    let inputs: string[] = ctx.argv;
    if (ctx.flags.all) inputs = (await backend.listPodSandbox({})).items.map((p) => p.id);
    if (inputs.length === 0) {
      if (ctx.flags.all) return;
      throw new UsageError('rmp needs at least one POD-ID, or --all');
    }
    const match = await podIdMatcher(backend, inputs);
    // As crictl: every pod is tried; the failures are reported together at the end.
    const errors: Error[] = [];
    for (const input of inputs) {
      try {
        let id: string;
        let state: string | undefined;
        try {
          id = match(input);
          state = (await backend.podSandboxStatus({ podSandboxId: id })).status?.state;
        } catch (err) {
          throw new Error(`getting sandbox status of pod "${input}": ${(err as Error).message}`);
        }
        if (state === 'SANDBOX_READY') {
          if (!ctx.flags.force) throw new Error(`pod sandbox "${input}" is running, please stop it first`);
          try {
            await backend.stopPodSandbox({ podSandboxId: id });
          } catch (err) {
            throw new Error(`stopping the pod sandbox "${input}" failed: ${(err as Error).message}`);
          }
          ctx.print(`Stopped sandbox ${input}\n`);
        }
        try {
          await backend.removePodSandbox({ podSandboxId: id });
        } catch (err) {
          throw new Error(`removing the pod sandbox "${input}": ${(err as Error).message}`);
        }
        ctx.print(`Removed sandbox ${input}\n`);
      } catch (err) {
        errors.push(err as Error);
      }
    }
    const agg = aggregateErrors(errors);
    if (agg) throw agg;
  },
});
