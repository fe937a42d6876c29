import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { protoOrdered, renderCrictl } from '../cli/status-output.js';

export default defineCommand({
  summary: 'Display runtime version information',
  flags: {
    output: Flags.option({ char: 'o', options: ['json', 'yaml', 'go-template'] as const, summary: 'Output format' })(),
    template: Flags.string({ summary: 'Go template for --output go-template' }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    const v = await backend.version({ version: 'v1' });
    if (ctx.flags.output) {
      ctx.print(await renderCrictl(await protoOrdered('VersionResponse', v), ctx.flags.output, ctx.flags.template));
      return;
    }
    // crictl prints with Go's fmt.Println("Key: ", value): two spaces.
    ctx.print(`Version:  ${v.version}\nRuntimeName:  ${v.runtimeName}\nRuntimeVersion:  ${v.runtimeVersion}\nRuntimeApiVersion:  ${v.runtimeApiVersion}\n`);
  },
});
