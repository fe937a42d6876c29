import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { containerIdMatcher } from '../cli/resolve-id.js';
import { aggregateErrors } from '../cli/filters.js';
import type { CommandContext } from '../cli/context.js';
import type { CriBackend } from '../client/backend.js';

export default defineCommand({
  summary: 'Remove one or more containers',
  usage: 'rm [flags] CONTAINER-ID [CONTAINER-ID...]',
  strict: false,
  flags: {
    force: Flags.boolean({ char: 'f', summary: 'Force removal of the container, disregarding if running' }),
    all: Flags.boolean({ char: 'a', summary: 'Remove all containers' }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    let inputs: string[] = ctx.argv;
    if (ctx.flags.all) inputs = (await backend.listContainers({})).containers.map((c) => c.id);
    if (inputs.length === 0) {
      if (ctx.flags.all) return;
      throw new UsageError('rm needs at least one CONTAINER-ID, or --all');
    }
    const match = await containerIdMatcher(backend, inputs);
    // As crictl: every container is tried; the failures are reported together, in one line, at the end.
    const errors: Error[] = [];
    for (const input of inputs) {
      try {
        await removeOne(ctx, backend, match, input);
      } catch (err) {
        errors.push(err as Error);
      }
    }
    const agg = aggregateErrors(errors);
    if (agg) throw agg;
  },
});

async function removeOne(ctx: CommandContext, backend: CriBackend, match: (input: string) => string, input: string): Promise<void> {
  let id: string;
  let state: string | undefined;
  try {
    id = match(input);
    state = (await backend.containerStatus({ containerId: id })).status?.state;
  } catch (err) {
    throw new Error(`getting container status "${input}": ${(err as Error).message}`);
  }
  if (state === 'CONTAINER_RUNNING') {
    if (!ctx.flags.force) throw new Error(`container "${input}" is running, please stop it first`);
    try {
      await backend.stopContainer({ containerId: id, timeout: '0' });
    } catch (err) {
      throw new Error(`stopping the container "${input}": ${(err as Error).message}`);
    }
    ctx.print(`${input}\n`);
  }
  try {
    await backend.removeContainer({ containerId: id });
  } catch (err) {
    throw new Error(`removing container "${input}": ${(err as Error).message}`);
  }
  ctx.print(`${input}\n`);
}
