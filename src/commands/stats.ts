import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import type { CommandContext } from '../cli/context.js';
import type { ContainerStats, CpuUsage } from '../api/cri.js';
import { table } from '../cli/output/tabwriter.js';
import { humanSize } from '../cli/output/units.js';
import { timerDelay } from '../util/timer-delay.js';

export default defineCommand({
  summary: 'List container(s) resource usage statistics',
  usage: 'stats [ID]',
  flags: {
    all: Flags.boolean({ char: 'a', summary: 'Show all containers (default shows just running)' }),
    id: Flags.string({ summary: 'Filter by container id' }),
    pod: Flags.string({ char: 'p', summary: 'Filter by pod id' }),
    label: Flags.string({ multiple: true, multipleNonGreedy: true, summary: 'Filter by key=value label' }),
    output: Flags.option({ char: 'o', options: ['json', 'yaml', 'table'] as const, summary: 'Output format, One of: json|yaml|table' })(),
    seconds: Flags.integer({ char: 's', default: 1, min: 0, summary: 'Sample duration for CPU usage in seconds' }),
    watch: Flags.boolean({ char: 'w', summary: 'Watch pod resources' }),
  },
  args: {
    id: Args.string({ description: 'Container ID (or prefix)', required: false }),
  },
  async run(ctx) {
    const labels = parseLabels(ctx.flags.label ?? []);
    const backend = await ctx.backend();
    const { resolveContainerId, resolvePodId } = await import('../cli/resolve-id.js');
    const rawId: string | undefined = ctx.flags.id || ctx.args.id;
    const id = rawId ? await resolveContainerId(backend, rawId) : '';
    const podSandboxId = ctx.flags.pod ? await resolvePodId(backend, ctx.flags.pod) : '';
    const filter = { id, podSandboxId, labelSelector: labels };
    const list = async () => sortStats((await backend.listContainerStats({ filter })).stats);
    const output = ctx.flags.output ?? 'table';
    const once = async (): Promise<string> => {
      const first = await list();
      if (output === 'json' || output === 'yaml') {
        const { renderCrictl, protoOrdered } = await import('../cli/status-output.js');
        return renderCrictl(await protoOrdered('ListContainerStatsResponse', { stats: first }), output);
      }
      await sleep(ctx.flags.seconds * 1000);
      const second = await list();
      return table(['CONTAINER', 'NAME', 'CPU %', 'MEM', 'DISK', 'INODES', 'SWAP'], containerStatsRows(first, second, ctx.flags.all));
    };
    try {
      await displayLoop(ctx, once, ctx.flags.watch, output === 'table');
    } catch (err) {
      throw new Error(`get container stats: ${(err as Error).message}`);
    }
  },
});

/** crictl's parseLabelStringSlice: each label is exactly key=value. */
export function parseLabels(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of list) {
    const pair = s.split('=');
    if (pair.length !== 2) throw new Error(`incorrectly specified label: ${s}`);
    out[pair[0]] = pair[1];
  }
  return out;
}

export function sortStats<T extends { attributes: { id: string } | null }>(stats: T[]): T[] {
  return [...stats].sort((a, b) => cmp(a.attributes?.id ?? '', b.attributes?.id ?? ''));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const u64 = (v: { value: string } | null | undefined): bigint => BigInt(v?.value || '0');

/** CPU % between two samples: used core-nanoseconds over elapsed nanoseconds, as crictl computes it. */
type CpuSample = Pick<CpuUsage, 'timestamp' | 'usageCoreNanoSeconds'>;

export function cpuPercent(cur: CpuSample | null | undefined, old: CpuSample | null | undefined): number {
  const cpu = u64(cur?.usageCoreNanoSeconds);
  if (cpu === 0n) return 0;
  const duration = BigInt(cur?.timestamp || '0') - BigInt(old?.timestamp || '0');
  if (duration === 0n) throw new Error('cpu stat is not updated during sample');
  return (Number(cpu - u64(old?.usageCoreNanoSeconds)) / Number(duration)) * 100;
}

/** The stats table rows: containers in both samples; without --all only those using CPU or memory. */
export function containerStatsRows(first: ContainerStats[], second: ContainerStats[], all: boolean): string[][] {
  const old = new Map(first.map((s) => [s.attributes?.id ?? '', s]));
  const rows: string[][] = [];
  for (const s of second) {
    const id = s.attributes?.id ?? '';
    const cpu = u64(s.cpu?.usageCoreNanoSeconds);
    const mem = u64(s.memory?.workingSetBytes);
    if (!all && cpu === 0n && mem === 0n) continue;
    const prev = old.get(id);
    if (!prev) continue;
    rows.push([
      id.slice(0, 13),
      s.attributes?.metadata?.name ?? '',
      cpuPercent(s.cpu, prev.cpu).toFixed(2),
      humanSize(Number(mem), 4),
      humanSize(Number(u64(s.writableLayer?.usedBytes)), 4),
      u64(s.writableLayer?.inodesUsed).toString(),
      humanSize(Number(u64(s.swap?.swapUsageBytes)), 4),
    ]);
  }
  return rows;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, timerDelay(ms)));
}

/**
 * Prints one rendering, or with --watch re-renders every 500 ms (after each
 * sample) until Ctrl-C, which ends the command with status 0 as in crictl.
 * Tables clear the screen first on a terminal or in watch mode.
 */
export async function displayLoop(ctx: CommandContext, render: () => Promise<string>, watch: boolean, isTable: boolean): Promise<void> {
  const clear = isTable && (watch || Boolean(ctx.stdout.isTTY)) ? '\x1b[2J\x1b[H' : '';
  if (!watch) {
    ctx.print(clear + (await render()));
    return;
  }
  let stop = false;
  let wake: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const onSigint = () => {
    stop = true;
    wake();
  };
  process.once('SIGINT', onSigint);
  try {
    while (!stop) {
      const text = await Promise.race([render(), stopped.then(() => undefined)]);
      if (stop || text === undefined) break;
      ctx.print(clear + text);
      await Promise.race([sleep(500), stopped]);
    }
  } finally {
    process.off('SIGINT', onSigint);
  }
}
