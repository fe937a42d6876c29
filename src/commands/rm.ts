import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { containerIdMatcher } from '../cli/resolve-id.js';

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
    // As crictl: each failure is reported as it happens, every container is tried, then one final error.
    let failed = false;
    const report = (msg: string) => {
      failed = true;
      ctx.stderr.write(`isulats: ${msg}\n`);
    };
    for (const input of inputs) {
      let id: string;
      let state: string | undefined;
      try {
        id = match(input);
        state = (await backend.containerStatus({ containerId: id })).status?.state;
      } catch (err) {
        report((err as Error).message);
        continue;
      }
      if (state === 'CONTAINER_RUNNING') {
        if (!ctx.flags.force) {
          report(`container "${input}" is running, please stop it first`);
          continue;
        }
        try {
          await backend.stopContainer({ containerId: id, timeout: '0' });
          ctx.print(`${input}\n`);
        } catch (err) {
          report(`stopping the container "${input}" failed: ${(err as Error).message}`);
          continue;
        }
      }
      try {
        await backend.removeContainer({ containerId: id });
        ctx.print(`${input}\n`);
      } catch (err) {
        report(`removing container "${input}" failed: ${(err as Error).message}`);
      }
    }
    if (failed) throw new Error('unable to remove container(s)');
  },
});
