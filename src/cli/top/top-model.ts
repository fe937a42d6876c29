// What `top` shows, from two readings: containers grouped by pod, CPU % from
// the growth of cumulative CPU time between readings (as crictl stats
// computes it), memory as the working set, totals per pod and for the node,
// filtered and sorted. Pure.
import type { NodeSample } from './node-sample.js';

export const SORT_KEYS = ['cpu', 'mem', 'name'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface ContainerRow {
  id: string;
  name: string;
  /** undefined until two readings exist. */
  cpuPercent?: number;
  memBytes: number;
}

export interface PodRow {
  id: string;
  name: string;
  namespace: string;
  cpuPercent?: number;
  memBytes: number;
  containers: ContainerRow[];
}

export interface TopView {
  pods: PodRow[];
  cpuPercent?: number;
  memBytes: number;
  containerCount: number;
}

export interface ViewOptions {
  sort: SortKey;
  namespace?: string;
  /** Pod labels that must all match. */
  labels?: Record<string, string>;
}

export function buildView(prev: NodeSample | undefined, cur: NodeSample, opts: ViewOptions): TopView {
  const before = new Map((prev?.containers ?? []).map((c) => [c.id, c]));
  const pods = cur.pods.filter((p) => (!opts.namespace || p.namespace === opts.namespace) && labelsMatch(p.labels, opts.labels));
  const rows: PodRow[] = pods.map((p) => {
    const containers = cur.containers
      .filter((c) => c.podId === p.id)
      .map((c) => ({ id: c.id, name: c.name, memBytes: c.memBytes, cpuPercent: cpuPercent(before.get(c.id)?.cpu, c.cpu) }));
    return { id: p.id, name: p.name, namespace: p.namespace, containers: sortRows(containers, opts.sort), ...totals(containers) };
  });
  const all = rows.flatMap((p) => p.containers);
  return { pods: sortRows(rows, opts.sort), ...totals(all), containerCount: all.length };
}

export function cpuPercent(old: { usageNs: bigint; atNs: bigint } | undefined, cur: { usageNs: bigint; atNs: bigint } | undefined): number | undefined {
  if (!old || !cur) return undefined;
  const elapsed = cur.atNs - old.atNs;
  if (elapsed <= 0n) return undefined;
  // A restarted container's counter starts again: no meaningful delta this round.
  const used = cur.usageNs - old.usageNs;
  if (used < 0n) return undefined;
  return (Number(used) / Number(elapsed)) * 100;
}

function totals(rows: ContainerRow[]): { cpuPercent?: number; memBytes: number } {
  const cpus = rows.map((r) => r.cpuPercent).filter((v): v is number => v !== undefined);
  return { cpuPercent: cpus.length ? cpus.reduce((a, b) => a + b, 0) : undefined, memBytes: rows.reduce((a, r) => a + r.memBytes, 0) };
}

function sortRows<T extends { name: string; id: string; cpuPercent?: number; memBytes: number }>(rows: T[], key: SortKey): T[] {
  const byName = (a: T, b: T) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  const by: Record<SortKey, (a: T, b: T) => number> = {
    cpu: (a, b) => (b.cpuPercent ?? -1) - (a.cpuPercent ?? -1) || byName(a, b),
    mem: (a, b) => b.memBytes - a.memBytes || byName(a, b),
    name: byName,
  };
  return [...rows].sort(by[key]);
}

function labelsMatch(have: Record<string, string>, want: Record<string, string> | undefined): boolean {
  return Object.entries(want ?? {}).every(([k, v]) => have[k] === v);
}

/** Container IDs in the order they are shown (what the arrow keys walk). */
export function containerOrder(view: TopView): string[] {
  return view.pods.flatMap((p) => p.containers.map((c) => c.id));
}
