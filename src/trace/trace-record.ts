// One traced call as printed: a text line or a JSON line, and which calls
// are printed at all (--filter, --slow). Pure.
import type { CallSubjects } from './call-subjects.js';

export interface TraceRecord {
  /** When the call ended, ISO 8601. */
  time: string;
  method: string;
  api: string;
  subjects: CallSubjects;
  durationMs: number;
  /** gRPC status name: OK, NOT_FOUND, ... */
  status: string;
  error?: string;
  /** Response messages of a server-streaming call. */
  messages?: number;
}

export interface TraceSelection {
  filter?: RegExp;
  slowMs?: number;
}

export function selected(r: TraceRecord, sel: TraceSelection): boolean {
  if (sel.filter && !sel.filter.test(r.method)) return false;
  if (sel.slowMs !== undefined && r.durationMs < sel.slowMs) return false;
  return true;
}

const short = (id: string): string => (/^[0-9a-f]{64}$/.test(id) ? id.slice(0, 13) : id);

export function formatText(r: TraceRecord): string {
  const s = r.subjects;
  const parts: string[] = [];
  if (s.name) parts.push(`name=${s.name}`);
  if (s.pod) parts.push(`pod=${short(s.pod)}`);
  if (s.container) parts.push(`ctr=${short(s.container)}`);
  if (s.image) parts.push(`image=${s.image}`);
  if (s.count !== undefined) parts.push(`n=${s.count}`);
  if (r.messages !== undefined) parts.push(`msgs=${r.messages}`);
  const status = r.error ? `${r.status}: ${r.error.replace(/\s*\n\s*/g, '; ').trim()}` : r.status;
  const method = r.api === 'v1' ? r.method : `${r.method}(${r.api})`;
  return `${r.time} ${method} ${parts.join(' ') || '-'} ${r.durationMs.toFixed(1)}ms ${status}\n`;
}

export function formatJson(r: TraceRecord): string {
  return `${JSON.stringify(r)}\n`;
}
