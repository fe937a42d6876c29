// A node --cpu-prof profile summed by function (name, file, line): self time, as a markdown table.
import { readFile } from 'node:fs/promises';
import { fmt, mdTable } from './markdown.js';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

export async function topSelfTime(path: string, top: number): Promise<string> {
  const p = JSON.parse(await readFile(path, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  // Idle is the event loop waiting: the share is of the time the daemon was busy.
  const idle = self.get('(idle) :0') ?? 0;
  self.delete('(idle) :0');
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return mdTable(['function', 'self ms', 'share'], rows.map(([k, ms]) => [`\`${k}\``, fmt(ms), `${fmt((100 * ms) / total, 1)} %`])) +
    `\n\n(busy ${fmt(total)} ms, idle ${fmt(idle)} ms, over ${fmt((p.endTime - p.startTime) / 1000)} ms of wall time)\n`;
}
