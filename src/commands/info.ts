import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { toPlain } from '../cli/output/format.js';
import type { StatusResponse } from '../api/cri.js';

export default defineCommand({
  summary: 'Display information of the container runtime',
  flags: {
    output: Flags.option({ char: 'o', options: ['json', 'yaml', 'go-template'] as const, summary: 'Output format, One of: json|yaml|go-template', default: 'json' })(),
    quiet: Flags.boolean({ char: 'q', summary: 'Do not show verbose information' }),
    template: Flags.string({ summary: 'The template string is only used when output is go-template; The Template format is golang template' }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    let r: StatusResponse;
    try {
      r = await backend.status({ verbose: !ctx.flags.quiet });
    } catch (err) {
      throw new Error(`getting status of runtime: ${(err as Error).message}`);
    }
    const { renderStatusDoc, statusInfoDoc, protoOrdered } = await import('../cli/status-output.js');
    const extra: Record<string, unknown> = {};
    // An isulats daemon also tells its own config and conditions (a foreign runtime: nothing more).
    if (backend.kind === 'remote' && !ctx.flags.quiet) {
      const { adminInfo } = await import('../client/admin-client.js');
      const daemon = await adminInfo(backend.target, ctx.globals.timeoutMs).catch(() => undefined);
      if (daemon) extra.daemon = daemon;
    }
    const doc = statusInfoDoc(toPlain(await protoOrdered('RuntimeStatus', r.status)) as Record<string, unknown>, r.info, extra);
    ctx.print(await renderStatusDoc(doc, ctx.flags.output, ctx.flags.template));
  },
});
