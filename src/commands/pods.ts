import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { table } from '../cli/output/tabwriter.js';
import { CONTAINERS_HEADER, containerRow, PODS_HEADER, podRow } from '../cli/output/list-tables.js';
import { ago } from '../cli/output/units.js';
import { goTimeString, mapSection, matchesRegex, newestFirst, parseLabels, podStateFilter, podStateText, truncateId } from '../cli/filters.js';
import { filterId } from '../cli/resolve-id.js';
import { listOutputFormat, protoOrdered, renderCrictl } from '../cli/status-output.js';
import type * as cri from '../api/cri.js';

export default defineCommand({
  summary: 'List pods',
  examples: [
    "isulats pods --namespace '^kube-' --state ready",
    'isulats pods -o json --label app=web',
  ],
  flags: {
    id: Flags.string({ summary: 'Filter by pod id' }),
    name: Flags.string({ summary: 'Filter by pod name regular expression pattern' }),
    namespace: Flags.string({ summary: 'Filter by pod namespace regular expression pattern' }),
    state: Flags.string({ char: 's', summary: 'Filter by pod state (ready, notready)' }),
    label: Flags.string({ summary: 'Filter by key=value label', multiple: true, multipleNonGreedy: true }),
    verbose: Flags.boolean({ char: 'v', summary: 'Show verbose info for pods' }),
    quiet: Flags.boolean({ char: 'q', summary: 'List only pod IDs' }),
    output: Flags.string({ char: 'o', summary: 'Output format, One of: json|yaml|go-template|table', default: 'table' }),
    template: Flags.string({ summary: 'The template string, used with --output go-template (Go template syntax)' }),
    latest: Flags.boolean({ char: 'l', summary: 'Show the most recently created pod' }),
    last: Flags.integer({ char: 'n', summary: 'Show last n recently created pods. Set 0 for unlimited' }),
    'no-trunc': Flags.boolean({ summary: 'Show output without truncating the ID' }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const output = listOutputFormat(f.output);
    const filter: cri.PodSandboxFilterIn = { labelSelector: parseLabels(f.label) };
    if (f.state) filter.state = { state: podStateFilter(f.state) };
    const backend = await ctx.backend();
    if (f.id) filter.id = filterId((await backend.listPodSandbox({})).items.map((p) => p.id), f.id, 'sandbox');
    const { items } = await backend.listPodSandbox({ filter });
    const pods = newestFirst(
      items.filter((p) => p.metadata && matchesRegex(f.name, p.metadata.name) && matchesRegex(f.namespace, p.metadata.namespace)),
      { latest: f.latest, last: f.last },
    );
    if (output !== 'table') {
      ctx.print(await renderCrictl(await protoOrdered('ListPodSandboxResponse', { items: pods }), output, f.template));
      return;
    }
    if (f.quiet) {
      ctx.print(pods.map((p) => `${p.id}\n`).join(''));
      return;
    }
    if (f.verbose) {
      ctx.print(pods.map(verboseText).join(''));
      return;
    }
ctx.print(table(PODS_HEADER, pods.map((p) => podRow(p, f['no-trunc']))));
  },
});

function runtimeHandler(p: cri.PodSandbox): string {
  return p.runtimeHandler || '(default)';
}

function verboseText(p: cri.PodSandbox): string {
  let s = `ID: ${p.id}\n`;
  const m = p.metadata;
  if (m) {
    if (m.name) s += `Name: ${m.name}\n`;
    if (m.uid) s += `UID: ${m.uid}\n`;
    if (m.namespace) s += `Namespace: ${m.namespace}\n`;
    if (m.attempt) s += `Attempt: ${m.attempt}\n`;
  }
  s += `Status: ${podStateText(p.state)}\n`;
  s += `Created: ${goTimeString(p.createdAt || '0')}\n`;
  s += mapSection('Labels', p.labels) + mapSection('Annotations', p.annotations);
  s += `Runtime: ${runtimeHandler(p)}\n\n`;
  return s;
}
