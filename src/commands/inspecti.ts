import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { imageStatusTable } from '../cli/output/status-tables.js';
import { toPlain } from '../cli/output/format.js';
import type { ImageStatusResponse } from '../api/cri.js';
import { noSuchImage } from '../cli/inspect-errors.js';

export default defineCommand({
  summary: 'Return the status of one or more images',
  usage: 'inspecti IMAGE-ID [IMAGE-ID...]',
  strict: false,
  flags: {
    output: Flags.option({ char: 'o', options: ['json', 'yaml', 'go-template', 'table'] as const, summary: 'Output format, One of: json|yaml|go-template|table' })(),
    quiet: Flags.boolean({ char: 'q', summary: 'Do not show verbose information' }),
    template: Flags.string({ summary: 'The template string is only used when output is go-template; The Template format is golang template' }),
  },
  async run(ctx) {
    const ids = ctx.argv;
    if (ids.length === 0) throw new Error('image ID cannot be empty (usage: inspecti IMAGE-ID [IMAGE-ID...])');
    const verbose = !ctx.flags.quiet;
    const { inspectOutputFormat, renderStatusDoc, statusDocs, statusInfoDoc, goMapString, protoOrdered } = await import('../cli/status-output.js');
    const output = inspectOutputFormat(ctx.flags.output);
    const backend = await ctx.backend();
    const docs: Record<string, unknown>[] = [];
    for (const id of ids) {
      let r: ImageStatusResponse;
      try {
        r = await backend.imageStatus({ image: { image: id }, verbose });
      } catch (err) {
        throw new Error(`image status for "${id}" request: ${(err as Error).message}`);
      }
      if (!r.image) throw new Error(noSuchImage(id));
      if (output === 'table') {
        ctx.print(imageStatusTable(r) + (verbose ? `Info: ${goMapString(r.info)}\n` : ''));
        continue;
      }
      docs.push(statusInfoDoc(toPlain(await protoOrdered('Image', r.image)) as Record<string, unknown>, r.info));
    }
    // As crictl 1.34: several images are one array.
    if (docs.length && output !== 'table') ctx.print(await renderStatusDoc(statusDocs(docs), output, ctx.flags.template));
  },
});
