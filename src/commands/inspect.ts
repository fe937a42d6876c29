import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { ago } from '../cli/output/units.js';
import { mapSection } from '../cli/filters.js';
import { resolveContainerId } from '../cli/resolve-id.js';
import { containerStatusDoc, goMapString, inspectOutputFormat, renderCrictl, statusInfoDoc } from '../cli/status-output.js';
import type * as cri from '../api/cri.js';

export default defineCommand({
  summary: 'Display the status of one or more containers',
  usage: 'inspect [flags] CONTAINER-ID [CONTAINER-ID...]',
  strict: false,
  flags: {
    output: Flags.string({ char: 'o', summary: 'Output format, One of: json|yaml|go-template|table' }),
    quiet: Flags.boolean({ char: 'q', summary: 'Do not show verbose information' }),
    template: Flags.string({ summary: 'The template string, used with --output go-template (Go template syntax)' }),
  },
  async run(ctx) {
    const ids: string[] = ctx.argv;
    if (ids.length === 0) throw new UsageError('inspect needs at least one CONTAINER-ID');
    const output = inspectOutputFormat(ctx.flags.output);
    const verbose = !ctx.flags.quiet;
    const backend = await ctx.backend();
    for (const input of ids) {
      try {
        const id = await resolveContainerId(backend, input);
        const r = await backend.containerStatus({ containerId: id, verbose });
        if (!r.status) throw new Error('the runtime returned no status');
        if (output === 'table') ctx.print(tableText(r, verbose));
        else ctx.print(await renderCrictl(statusInfoDoc(await containerStatusDoc(r.status), r.info), output, ctx.flags.template));
      } catch (err) {
        throw new Error(`getting the status of the container "${input}": ${(err as Error).message}`, { cause: err });
      }
    }
  },
});

function tableText(r: cri.ContainerStatusResponse, verbose: boolean): string {
  const st = r.status!;
  let s = `ID: ${st.id}\n`;
  if (st.metadata) {
    if (st.metadata.name) s += `Name: ${st.metadata.name}\n`;
    if (st.metadata.attempt) s += `Attempt: ${st.metadata.attempt}\n`;
  }
  s += `State: ${st.state}\n`;
  s += `Created: ${ago(st.createdAt)}\n`;
  if (st.state !== 'CONTAINER_CREATED') s += `Started: ${ago(st.startedAt)}\n`;
  if (st.state === 'CONTAINER_EXITED') {
    if (BigInt(st.finishedAt || '0') > 0n) s += `Finished: ${ago(st.finishedAt)}\n`;
    s += `Exit Code: ${st.exitCode}\n`;
  }
  s += mapSection('Labels', st.labels) + mapSection('Annotations', st.annotations);
  if (verbose) s += `Info: ${goMapString(r.info)}\n`;
  return s;
}
