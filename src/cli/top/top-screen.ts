// Lays out `top`'s full-terminal screen and its plain table, as text. Pure:
// the view, the terminal size and the selection in, lines out. The selected
// container's row starts with '>' (and is shown in reverse video), so it is
// visible without colour too.
import { bytesSize } from '../output/units.js';
import { table } from '../output/tabwriter.js';
import type { SortKey, TopView } from './top-model.js';

export interface ScreenOptions {
  width: number;
  height: number;
  /** Selected container ID. */
  selected?: string;
  sort: SortKey;
  intervalMs: number;
  /** CPU bars are full at cores × 100 %, memory bars at the node's memory. */
  cores: number;
  memTotalBytes: number;
  /** What is being watched (the runtime endpoint). */
  target: string;
}

const REVERSE = '\x1b[7m';
const RESET = '\x1b[0m';
/** Lines above the rows: title, keys, column header. */
const HEAD_LINES = 3;

export function renderScreen(view: TopView, o: ScreenOptions): string[] {
  const width = Math.max(o.width, 40);
  const barWidth = Math.max(5, Math.min(20, Math.floor((width - 56) / 4)));
  // mark, name, CPU %, bar, MEM, bar, ID: seven cells and six separating spaces.
  const nameWidth = Math.max(12, width - (1 + 7 + (barWidth + 2) + 10 + (barWidth + 2) + 13 + 6));
  const row = (mark: string, name: string, cpu: number | undefined, mem: number, id: string) =>
    [
      mark,
      fit(name, nameWidth),
      (cpu === undefined ? '-' : cpu.toFixed(1)).padStart(7),
      bar(cpu === undefined ? 0 : cpu / (o.cores * 100), barWidth),
      bytesSize(mem).padStart(10),
      bar(mem / o.memTotalBytes, barWidth),
      id.slice(0, 13),
    ].join(' ');
  const title =
    `isulats top - ${o.target} - ${view.pods.length} pods, ${view.containerCount} containers - ` +
    `CPU ${view.cpuPercent === undefined ? '-' : `${view.cpuPercent.toFixed(1)}%`} MEM ${bytesSize(view.memBytes)} - every ${o.intervalMs / 1000}s - sort: ${o.sort}`;
  const keys = 'q quit  up/down move  Enter inspect  s sort (cpu, mem, name)';
  const header = [' ', fit('POD / CONTAINER', nameWidth), 'CPU %'.padStart(7), fit('', barWidth + 2), 'MEM'.padStart(10), fit('', barWidth + 2), 'ID'].join(' ');
  const body: string[] = [];
  let selectedLine = -1;
  for (const pod of view.pods) {
    body.push(row(' ', `${pod.namespace}/${pod.name}`, pod.cpuPercent, pod.memBytes, pod.id));
    for (const c of pod.containers) {
      const isSelected = c.id === o.selected;
      if (isSelected) selectedLine = body.length;
      body.push(row(isSelected ? '>' : ' ', `  ${c.name}`, c.cpuPercent, c.memBytes, c.id));
    }
  }
  if (body.length === 0) body.push('  (no running containers match)');
  const room = Math.max(1, o.height - HEAD_LINES);
  const start = scrollStart(selectedLine, body.length, room);
  const visible = body.slice(start, start + room).map((line, i) => {
    const clipped = fit(line, width);
    return start + i === selectedLine ? `${REVERSE}${clipped}${RESET}` : clipped;
  });
  return [fit(title, width), fit(keys, width), fit(header, width), ...visible];
}

/** The first body line to show so that `selected` stays in view (kept near the top third when scrolling). */
export function scrollStart(selected: number, total: number, room: number): number {
  if (total <= room || selected < 0) return 0;
  return Math.max(0, Math.min(selected - Math.floor(room / 3), total - room));
}

/** `[|||||     ]`: `fraction` of `width` cells filled (clamped to 0..1). */
export function bar(fraction: number, width: number): string {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const filled = Math.round(f * width);
  return `[${'|'.repeat(filled)}${' '.repeat(width - filled)}]`;
}

/** Pads or cuts to exactly `width` columns (an ellipsis marks a cut). */
export function fit(text: string, width: number): string {
  if (text.length <= width) return text.padEnd(width);
  return width <= 1 ? text.slice(0, width) : `${text.slice(0, width - 1)}~`;
}

/** The plain form for a non-terminal stdout: one table per refresh, totals last. */
export function renderPlain(view: TopView): string {
  const cpu = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(2));
  const rows: string[][] = [];
  for (const pod of view.pods) {
    for (const c of pod.containers) rows.push([pod.namespace, pod.name, c.name, c.id.slice(0, 13), cpu(c.cpuPercent), bytesSize(c.memBytes)]);
    rows.push([pod.namespace, pod.name, '(pod total)', pod.id.slice(0, 13), cpu(pod.cpuPercent), bytesSize(pod.memBytes)]);
  }
  rows.push(['', '', '(node total)', '', cpu(view.cpuPercent), bytesSize(view.memBytes)]);
  return table(['NAMESPACE', 'POD', 'CONTAINER', 'ID', 'CPU %', 'MEM'], rows);
}

/** The inspect page: the text, cut to the screen, with how to go back. */
export function renderInspectPage(text: string, width: number, height: number): string[] {
  const lines = text.replace(/\n$/, '').split('\n');
  const room = Math.max(1, height - 1);
  const shown = lines.slice(0, room).map((l) => fit(l, width));
  const more = lines.length > room ? ` (${lines.length - room} more lines)` : '';
  return [...shown, fit(`-- press any key to return${more} --`, width)];
}
