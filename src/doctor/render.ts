// The checklist as text (✓/✗/! with evidence, and the fix under a failure)
// or as one JSON document for CI.
import type { CheckResult } from './check-result.js';

const MARK = { ok: '✓', fail: '✗', warn: '!' } as const;

export function renderText(results: CheckResult[]): string {
  const lines: string[] = [];
  const oneLine = (s: string) => s.replace(/\s*\n\s*/g, '; ').trim();
  for (const r of results) {
    lines.push(`${MARK[r.status]} ${r.title}: ${oneLine(r.evidence)}`);
    if (r.fix && r.status !== 'ok') lines.push(`    fix: ${r.fix}`);
  }
  const failed = results.filter((r) => r.status === 'fail').length;
  const warned = results.filter((r) => r.status === 'warn').length;
  lines.push('', `${results.length} checks: ${failed} failed, ${warned} to look at`);
  return `${lines.join('\n')}\n`;
}

export function renderJson(results: CheckResult[]): string {
  return `${JSON.stringify({ ok: results.every((r) => r.status !== 'fail'), checks: results }, null, 2)}\n`;
}
