import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import type { PodSandboxStats } from '../api/cri.js';
import { table } from '../cli/output/tabwriter.js';
import { humanSize } from '../cli/output/units.js';
import { cpuPercent, displayLoop, parseLabels, sleep, sortStats } from './stats.js';

export default defineCommand({
  summary: "List pod statistics. Stats represent a structured API that will fulfill the Kubelet's /stats/summary endpoint.",
  usage: 'statsp [ID]',
  flags: {
    id: Flags.string({ summary: 'Filter by pod id' }),
    label: Flags.string({ multiple: true, multipleNonGreedy: true, summary: 'Filter by key=value label' }),
    output: Flags.option({ char: 'o', options: ['json', 'yaml', 'table'] as const, summary: 'Output format, One of: json|yaml|table' })(),
    seconds: Flags.integer({ char: 's', default: 1, min: 0, summary: 'Sample duration for CPU usage in seconds' }),
    watch: Flags.boolean({ char: 'w', summary: 'Watch pod resources' }),
  },
  args: {
    id: Args.string({ description: 'Pod ID (or prefix)', required: false }),
  },
  async run(ctx) {
    let labels: Record<string, string>;
    try {
      labels = parseLabels(ctx.flags.label ?? []);
    } catch (err) {
      throw new Error(`parse pod labels: ${(err as Error).message}`);
    }
    const backend = await ctx.backend();
    const rawId: string | undefined = ctx.flags.id || ctx.args.id;
    const { resolvePodId } = await import('../cli/resolve-id.js');
    const id = rawId ? await resolvePodId(backend, rawId) : '';
    const list = async () => {
      try {
        return sortStats((await backend.listPodSandboxStats({ filter: { id, labelSelector: labels } })).stats);
      } catch (err) {
        throw new Error(`list pod sandbox stats: ${(err as Error).message}`);
      }
    };
    const output = ctx.flags.output ?? 'table';
    const once = async (): Promise<string> => {
      const first = await list();
      if (output === 'json' || output === 'yaml') {
        const { renderCrictl, protoOrdered } = await import('../cli/status-output.js');
        return renderCrictl(await protoOrdered('ListPodSandboxStatsResponse', { stats: first }), output);
      }
      await sleep(ctx.flags.seconds * 1000);
      return table(['POD', 'POD ID', 'CPU %', 'MEM'], podStatsRows(first, await list()));
    };
    try {
      await displayLoop(ctx, once, ctx.flags.watch, output === 'table');
    } catch (err) {
      throw new Error(`get pod stats: ${(err as Error).message}`);
    }
  },
});

/** Pods in both samples with CPU or memory data: name, 13-char ID, CPU %, working set. */
export function podStatsRows(first: PodSandboxStats[], second: PodSandboxStats[]): string[][] {
  const old = new Map(first.map((s) => [s.attributes?.id ?? '', s]));
  const rows: string[][] = [];
  for (const s of second) {
    const id = s.attributes?.id ?? '';
    if (s.linux && s.windows) throw new Error(`pod "${id.slice(0, 13)}" has both linux and windows stats which is not supported`);
    const cur = s.linux ?? s.windows;
    const cpu = BigInt(cur?.cpu?.usageCoreNanoSeconds?.value || '0');
    const mem = BigInt(cur?.memory?.workingSetBytes?.value || '0');
    if (cpu === 0n && mem === 0n) continue;
    const prev = old.get(id);
    if (!prev) continue;
    const prevCpu = s.linux ? prev.linux?.cpu : prev.windows?.cpu;
    rows.push([s.attributes?.metadata?.name ?? '', id.slice(0, 13), cpuPercent(cur?.cpu, prevCpu).toFixed(2), humanSize(Number(mem), 4)]);
  }
  return rows;
}
