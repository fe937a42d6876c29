import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { goTimeString, mapSection } from '../cli/filters.js';
import { resolvePodId } from '../cli/resolve-id.js';
import { goMapString, inspectOutputFormat, podStatusDoc, renderCrictl, statusInfoDoc } from '../cli/status-output.js';
import type * as cri from '../api/cri.js';

export default defineCommand({
  summary: 'Display the status of one or more pods',
  usage: 'inspectp [flags] POD-ID [POD-ID...]',
  strict: false,
  flags: {
    output: Flags.string({ char: 'o', summary: 'Output format, One of: json|yaml|go-template|table' }),
    quiet: Flags.boolean({ char: 'q', summary: 'Do not show verbose information' }),
    template: Flags.string({ summary: 'The template string, used with --output go-template (Go template syntax)' }),
  },
  async run(ctx) {
    const ids: string[] = ctx.argv;
    if (ids.length === 0) throw new UsageError('inspectp needs at least one POD-ID');
    const output = inspectOutputFormat(ctx.flags.output);
    const verbose = !ctx.flags.quiet;
    const backend = await ctx.backend();
    for (const input of ids) {
      try {
        const id = await resolvePodId(backend, input);
        const r = await backend.podSandboxStatus({ podSandboxId: id, verbose });
        if (!r.status) throw new Error('the runtime returned no status');
        if (output === 'table') ctx.print(tableText(r, verbose));
        else ctx.print(await renderCrictl(statusInfoDoc(await podStatusDoc(r.status), r.info), output, ctx.flags.template));
      } catch (err) {
        throw new Error(`getting the pod sandbox status for "${input}": ${(err as Error).message}`, { cause: err });
      }
    }
  },
});

function tableText(r: cri.PodSandboxStatusResponse, verbose: boolean): string {
  const st = r.status!;
  let s = `ID: ${st.id}\n`;
  const m = st.metadata;
  if (m) {
    if (m.name) s += `Name: ${m.name}\n`;
    if (m.uid) s += `UID: ${m.uid}\n`;
    if (m.namespace) s += `Namespace: ${m.namespace}\n`;
    s += `Attempt: ${m.attempt}\n`;
  }
  s += `Status: ${st.state}\n`;
  s += `Created: ${goTimeString(st.createdAt || '0')}\n`;
  if (st.network) {
    s += `IP Addresses: ${st.network.ip}\n`;
    for (const ip of st.network.additionalIps ?? []) s += `Additional IP: ${ip.ip}\n`;
  }
  s += mapSection('Labels', st.labels) + mapSection('Annotations', st.annotations);
  if (verbose) s += `Info: ${goMapString(r.info)}\n`;
  return s;
}
