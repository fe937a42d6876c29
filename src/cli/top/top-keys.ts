// Turns what a raw-mode terminal sends into `top`'s actions. One read may
// hold several keys (typing ahead, pasting); arrows arrive as CSI or SS3
// sequences depending on the terminal's cursor-key mode.
export type TopKey = 'quit' | 'up' | 'down' | 'enter' | 'sort' | 'other';

const SEQUENCES: Array<[string, TopKey]> = [
  ['\x1b[A', 'up'],
  ['\x1bOA', 'up'],
  ['\x1b[B', 'down'],
  ['\x1bOB', 'down'],
];

export function decodeKeys(data: string): TopKey[] {
  const keys: TopKey[] = [];
  for (let i = 0; i < data.length; ) {
    const seq = SEQUENCES.find(([s]) => data.startsWith(s, i));
    if (seq) {
      keys.push(seq[1]);
      i += seq[0].length;
      continue;
    }
    const ch = data[i]!;
    // Other escape sequences (other keys, focus events) are one key, skipped whole.
    if (ch === '\x1b' && (data[i + 1] === '[' || data[i + 1] === 'O')) {
      let j = i + 2;
      while (j < data.length && !/[A-Za-z~]/.test(data[j]!)) j++;
      keys.push('other');
      i = j + 1;
      continue;
    }
    keys.push(keyOf(ch));
    i++;
  }
  return keys;
}

function keyOf(ch: string): TopKey {
  if (ch === 'q' || ch === 'Q' || ch === '\x03') return 'quit';
  if (ch === '\r' || ch === '\n') return 'enter';
  if (ch === 'k') return 'up';
  if (ch === 'j') return 'down';
  if (ch === 's') return 'sort';
  return 'other';
}

/** The selection after a move: stays on the same container while it exists, else the first. */
export function moveSelection(order: string[], selected: string | undefined, key: 'up' | 'down'): string | undefined {
  if (order.length === 0) return undefined;
  const i = selected === undefined ? -1 : order.indexOf(selected);
  if (i < 0) return order[0];
  return order[key === 'up' ? Math.max(0, i - 1) : Math.min(order.length - 1, i + 1)];
}
