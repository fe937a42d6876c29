import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { resolveContainerId } from '../cli/resolve-id.js';

export default defineCommand({
  summary: 'Block until containers exit, then print their exit codes (isula wait)',
  usage: 'wait CONTAINER...',
  strict: false,
  args: { container: Args.string({ required: true, description: 'Container ID or unique prefix' }) },
  async run(ctx) {
    const backend = await ctx.backend();
    const wait = extraOf(backend, 'waitContainer', 'wait');
    const abort = new AbortController();
    process.once('SIGINT', () => abort.abort());
    for (const input of [ctx.args.container, ...ctx.argv]) {
      const id = await resolveContainerId(backend, input);
      ctx.print(`${await wait(id, abort.signal)}\n`);
    }
  },
});
