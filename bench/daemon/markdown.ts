// Markdown output of the benchmarks: tables ready for the README, numbers formatted alike.

export const fmt = (x: number | undefined, digits = 0): string => (x !== undefined && Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
export const mib = (kb: number | undefined): string => fmt(kb === undefined ? undefined : kb / 1024, 1);

export function mdTable(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}
