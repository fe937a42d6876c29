import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';

export default defineCommand({
  summary: 'List metric descriptors. Returns information about the metrics available through the CRI.',
  flags: {
    output: Flags.option({ char: 'o', options: ['json', 'yaml'] as const, summary: 'Output format, One of: json|yaml' })(),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    let descriptors;
    try {
      descriptors = (await backend.listMetricDescriptors({})).descriptors;
    } catch (err) {
      throw new Error(`list metric descriptors: ${(err as Error).message}`);
    }
    const { renderCrictl, protoOrdered } = await import('../cli/status-output.js');
    ctx.print(await renderCrictl(await protoOrdered('ListMetricDescriptorsResponse', { descriptors }), ctx.flags.output ?? 'json'));
  },
});
