import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { table } from '../cli/output/tabwriter.js';
import { CONTAINERS_HEADER, containerRow, PODS_HEADER, podRow } from '../cli/output/list-tables.js';
import { ago } from '../cli/output/units.js';
import {
  containerStateFilter,
  containerStateText,
  mapSection,
  matchesRegex,
  newestFirst,
  parseLabels,
  podNameFromLabels,
  podNamespaceFromLabels,
  truncateId,
  truncateImage,
} from '../cli/filters.js';
import { filterId } from '../cli/resolve-id.js';
import { listOutputFormat, protoOrdered, renderCrictl } from '../cli/status-output.js';
import type { CriBackend } from '../client/backend.js';
import type * as cri from '../api/cri.js';

export default defineCommand({
  summary: 'List containers',
  examples: [
    'isulats ps -a --pod 7a3c',
    "isulats ps --name '^web' -q",
  ],
  flags: {
    verbose: Flags.boolean({ char: 'v', summary: 'Show verbose information for containers' }),
    id: Flags.string({ summary: 'Filter by container id' }),
    name: Flags.string({ summary: 'Filter by container name regular expression pattern' }),
    pod: Flags.string({ char: 'p', summary: 'Filter by pod id' }),
    image: Flags.string({ summary: 'Filter by container image' }),
    state: Flags.string({ char: 's', summary: 'Filter by container state (created, running, exited, unknown)' }),
    label: Flags.string({ summary: 'Filter by key=value label', multiple: true, multipleNonGreedy: true }),
    quiet: Flags.boolean({ char: 'q', summary: 'Only display container IDs' }),
    output: Flags.string({ char: 'o', summary: 'Output format, One of: json|yaml|go-template|table', default: 'table' }),
    template: Flags.string({ summary: 'The template string, used with --output go-template (Go template syntax)' }),
    all: Flags.boolean({ char: 'a', summary: 'Show all containers' }),
    latest: Flags.boolean({ char: 'l', summary: 'Show the most recently created container (includes all states)' }),
    last: Flags.integer({ char: 'n', summary: 'Show last n recently created containers (includes all states). Set 0 for unlimited.' }),
    'no-trunc': Flags.boolean({ summary: 'Show output without truncating the ID' }),
    'resolve-image-path': Flags.boolean({ char: 'r', summary: 'Show image path instead of image id' }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const output = listOutputFormat(f.output);
    const filter: cri.ContainerFilterIn = { labelSelector: parseLabels(f.label) };
    if (!f.all && !f.state) filter.state = { state: 'CONTAINER_RUNNING' };
    if (f.state) filter.state = { state: containerStateFilter(f.state) };
    // --latest / --last look at every state.
    if (f.latest || (f.last ?? 0) > 0) delete filter.state;
    const backend = await ctx.backend();
    if (f.id) filter.id = filterId((await backend.listContainers({})).containers.map((c) => c.id), f.id, 'container');
    if (f.pod) filter.podSandboxId = filterId((await backend.listPodSandbox({})).items.map((p) => p.id), f.pod, 'sandbox');
    const { containers } = await backend.listContainers({ filter });
    let list = newestFirst(
      containers.filter((c) => matchesRegex(f.name, c.metadata?.name ?? '')),
      { latest: f.latest, last: f.last },
    );
    if (f.image) list = await filterByImage(backend, list, f.image);
    if (output !== 'table') {
      ctx.print(await renderCrictl(await protoOrdered('ListContainersResponse', { containers: list }), output, f.template));
      return;
    }
    if (f.quiet) {
      ctx.print(list.map((c) => `${c.id}\n`).join(''));
      return;
    }
    if (f.verbose) {
      ctx.print(list.map(verboseText).join(''));
      return;
    }
    const rows: string[][] = [];
    for (const c of list) {
      let image = c.image?.image ?? '';
      if (!f['no-trunc']) image = truncateImage(image);
      if (f['resolve-image-path']) image = await repoImage(backend, image);
      rows.push(containerRow(c, f['no-trunc'], image));
    }
    ctx.print(table(CONTAINERS_HEADER, rows));
  },
});

/** crictl's --image: same image ID as the named image; an image the runtime does not know matches nothing. */
async function filterByImage(backend: CriBackend, list: cri.Container[], image: string): Promise<cri.Container[]> {
  const cache = new Map<string, Promise<string | undefined>>();
  const idOf = (ref: string) => {
    let p = cache.get(ref);
    if (!p) {
      p = backend.imageStatus({ image: { image: ref } }).then((r) => r.image?.id || undefined);
      cache.set(ref, p);
    }
    return p;
  };
  const wanted = await idOf(image);
  if (!wanted) return [];
  const out: cri.Container[] = [];
  for (const c of list) if ((await idOf(c.image?.image ?? '')) === wanted) out.push(c);
  return out;
}

async function repoImage(backend: CriBackend, image: string): Promise<string> {
  const r = await backend.imageStatus({ image: { image } });
  return r.image?.repoTags?.[0] ?? image;
}

function verboseText(c: cri.Container): string {
  let s = `ID: ${c.id}\nPodID: ${c.podSandboxId}\nNamespace: ${podNamespaceFromLabels(c.labels)}\n`;
  if (c.metadata) {
    if (c.metadata.name) s += `Name: ${c.metadata.name}\n`;
    s += `Attempt: ${c.metadata.attempt}\n`;
  }
  s += `State: ${containerStateText(c.state)}\n`;
  if (c.image) s += `Image: ${c.image.image}\n`;
  s += `Created: ${ago(c.createdAt)}\n`;
  s += mapSection('Labels', c.labels) + mapSection('Annotations', c.annotations);
  return `${s}\n`;
}
