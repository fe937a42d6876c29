import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { isKind } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Stream the events of containers',
  aliases: ['event'],
  flags: {
    output: Flags.string({ char: 'o', default: 'json', summary: 'Output format, One of: json|yaml|go-template' }),
    template: Flags.string({ summary: 'The template string is only used when output is go-template; The Template format is golang template' }),
  },
  async run(ctx) {
    const format: string = ctx.flags.output;
    const template: string | undefined = ctx.flags.template;
    if (format === 'json' || format === 'yaml') {
      if (template) throw new Error(`template can't be used with "${format}" format`);
    } else if (format === 'go-template') {
      const { parseTemplate } = await import('../cli/output/go-template.js');
      try {
        parseTemplate(template ?? '');
      } catch (err) {
        throw new Error(`failed to parse go-template: ${(err as Error).message}`);
      }
    } else {
      throw new Error(`don't support "${format}" format`);
    }
    const { renderCrictl, protoOrdered } = await import('../cli/status-output.js');
    const backend = await ctx.backend();
    const abort = new AbortController();
    const onSigint = () => abort.abort();
    process.once('SIGINT', onSigint);
    try {
      for await (const event of backend.getContainerEvents({}, abort.signal)) {
        try {
          ctx.print(await renderCrictl(await protoOrdered('ContainerEventResponse', event), format as 'json' | 'yaml' | 'go-template', template));
        } catch (err) {
          ctx.print(`failed to format container event with the error: ${(err as Error).message}\n`);
        }
      }
    } catch (err) {
      if (abort.signal.aborted) return;
      if (isKind(err, 'unimplemented') && !/not supported by this runtime/.test((err as Error).message)) {
        throw new Error(`getting container events: container events are not supported by this runtime (${(err as Error).message})`);
      }
      throw new Error(`getting container events: ${(err as Error).message}`);
    } finally {
      process.off('SIGINT', onSigint);
    }
  },
});
