// Go's text/tabwriter, as crictl uses it (minwidth 20, tabwidth 1, padding 3,
// pad ' ', no flags), so tables line up byte for byte with crictl's. A cell is
// text terminated by a tab; the last cell of a line is not part of a column.
// A column block is a run of consecutive lines that all have a cell in that
// column; each block is as wide as its widest cell plus padding, at least minwidth.
export interface TabwriterOptions {
  minwidth: number;
  padding: number;
}

export const CRICTL_TABLE: TabwriterOptions = { minwidth: 20, padding: 3 };

export function formatTable(lines: string[], opts: TabwriterOptions = CRICTL_TABLE): string {
  const rows = lines.map((l) => {
    const parts = l.split('\t');
    return { cells: parts.slice(0, -1), tail: parts[parts.length - 1] };
  });
  const widths: number[][] = rows.map((r) => new Array(r.cells.length).fill(0));
  layout(rows, widths, 0, 0, rows.length, opts);
  return rows
    .map((r, i) => r.cells.map((c, j) => c + ' '.repeat(Math.max(0, widths[i][j] - textWidth(c)))).join('') + r.tail)
    .map((l) => l + '\n')
    .join('');
}

function layout(rows: { cells: string[] }[], widths: number[][], col: number, start: number, end: number, opts: TabwriterOptions): void {
  let i = start;
  while (i < end) {
    if (rows[i].cells.length <= col) {
      i++;
      continue;
    }
    let j = i;
    let width = opts.minwidth;
    while (j < end && rows[j].cells.length > col) {
      width = Math.max(width, textWidth(rows[j].cells[col]) + opts.padding);
      j++;
    }
    for (let k = i; k < j; k++) widths[k][col] = width;
    layout(rows, widths, col + 1, i, j, opts);
    i = j;
  }
}

function textWidth(s: string): number {
  return [...s].length;
}

/** Builds a crictl-style table: header and rows joined with tabs. */
export function table(header: string[], rows: string[][]): string {
  return formatTable([header, ...rows].map((r) => r.join('\t')));
}
