import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { displayLoop } from './stats.js';

export default defineCommand({
  summary: "List pod metrics. Metrics are unstructured key/value pairs gathered by CRI meant to replace cAdvisor's /metrics/cadvisor endpoint.",
  flags: {
    output: Flags.option({ char: 'o', options: ['json', 'yaml'] as const, summary: 'Output format, One of: json|yaml' })(),
    watch: Flags.boolean({ char: 'w', summary: 'Watch pod metrics' }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    const { renderCrictl, protoOrdered } = await import('../cli/status-output.js');
    const once = async (): Promise<string> => {
      let podMetrics;
      try {
        podMetrics = (await backend.listPodSandboxMetrics({})).podMetrics;
      } catch (err) {
        throw new Error(`list pod sandbox metrics: ${(err as Error).message}`);
      }
      podMetrics.sort((a, b) => a.podSandboxId.localeCompare(b.podSandboxId));
      return renderCrictl(await protoOrdered('ListPodSandboxMetricsResponse', { podMetrics }), ctx.flags.output ?? 'json');
    };
    await displayLoop(ctx, once, ctx.flags.watch, false);
  },
});
