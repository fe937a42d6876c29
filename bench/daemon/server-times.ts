// Where a List call's time went, from the daemon's debug log (call-log.ts: one JSON line per call,
// written when the answer is ready, with `ms` from the decoded request to then): each client call
// is split into the wait before the daemon took it up (the request in the socket, the event loop
// busy with something else, or no CPU), the daemon's own work, and the time from its answer to the
// client having it (encoding, the write, the client's decode). A log line is matched to the client
// call of its method whose send and answer enclose it.
import { readFile } from 'node:fs/promises';
import { LISTS, type ListCall, type ListCallTimes } from './node-scale.js';

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! : NaN;
};

export interface Split { p50: number; p99: number }
export type ServerTimes = Record<ListCall, { before: Split; inside: Split; after: Split; count: number }>;

export async function serverListTimes(logPath: string, calls: readonly ListCallTimes[]): Promise<ServerTimes> {
  const parts: Record<ListCall, { before: number[]; inside: number[]; after: number[] }> = {
    ListPodSandbox: { before: [], inside: [], after: [] }, ListContainers: { before: [], inside: [], after: [] }, ListContainerStats: { before: [], inside: [], after: [] },
  };
  const pending = [...calls].sort((a, b) => a.sent - b.sent);
  for (const line of (await readFile(logPath, 'utf8')).split('\n')) {
    if (!line.includes('"rpc":"List')) continue;
    let entry: { time?: string; rpc?: string; ms?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    const done = Date.parse(entry.time ?? '');
    if (!(LISTS as readonly string[]).includes(entry.rpc ?? '') || typeof entry.ms !== 'number' || Number.isNaN(done)) continue;
    // The log's clock has millisecond steps: allow one either side.
    const i = pending.findIndex((c) => c.method === entry.rpc && c.sent - 1 <= done - entry.ms! && done <= c.answered + 1);
    if (i < 0) continue;
    const c = pending.splice(i, 1)[0]!;
    const p = parts[c.method];
    p.before.push(Math.max(0, done - entry.ms - c.sent));
    p.inside.push(entry.ms);
    p.after.push(Math.max(0, c.answered - done));
  }
  const split = (xs: number[]): Split => ({ p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) });
  return Object.fromEntries(LISTS.map((m) => [m, { before: split(parts[m].before), inside: split(parts[m].inside), after: split(parts[m].after), count: parts[m].inside.length }])) as ServerTimes;
}
