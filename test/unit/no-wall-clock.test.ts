// No test asserts a wall-clock time: on a loaded CI machine any bound on elapsed milliseconds is
// eventually crossed, and a lower bound proves little. Tests assert the behaviour the figure stood
// for (the timeout's error, processes that overlapped, the order of events, fake timers); figures
// belong in bench/. This scan of test/**/*.ts keeps it so: it flags an expect(...) compared with
// toBeLessThan/toBeGreaterThan(OrEqual) whose subject is `Date.now()`, `performance.now()`,
// `hrtime`, a variable or property the same file sets from one of those, or a name such as
// `took`, `elapsed…` or `…Ms` (a comparison with 0, "a figure was measured", is allowed).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SELF = 'test/unit/no-wall-clock.test.ts';

const CLOCK = /\b(?:Date\.now|performance\.now)\(\)|\bhrtime\b/;
const TIMING_NAME = /^(?:took|elapsed\w*|duration\w*|\w*Ms)$/;
// expect(<subject>[, message]).[not.]toBe(Less|Greater)Than[OrEqual](<bound>), with up to two levels of parentheses inside.
const ARG = String.raw`(?:[^()]|\((?:[^()]|\([^()]*\))*\))*`;
const TIMED_EXPECT = new RegExp(String.raw`expect\((${ARG})\)\s*\.(?:not\.)?toBe(?:Less|Greater)Than(?:OrEqual)?\((${ARG})\)`, 'g');

/** The names a file assigns from a clock reading: `const took = Date.now() - t0`, `{ ms: Date.now() - started }`. */
function clockNames(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(/(?:\b(?:const|let|var)\s+|[{,]\s*|\.)(\w+)\s*[:=]\s*([^;,\n}]*)/g)) {
    if (/(?:Date\.now|performance\.now)\(\)\s*-|hrtime[\w.]*\([^)]*\)\s*-/.test(m[2]!)) names.add(m[1]!);
  }
  return names;
}

/** The lines (1-based) of `source` holding an expect over elapsed wall-clock time. */
export function wallClockAssertions(source: string): number[] {
  const names = clockNames(source);
  const lines: number[] = [];
  for (const m of source.matchAll(TIMED_EXPECT)) {
    const subject = m[1]!.split(',')[0]!.trim();
    if (/^0(?:n|\.0*)?$/.test(m[2]!.trim())) continue;
    const last = /(\w+)!?\s*$/.exec(subject)?.[1] ?? '';
    if (CLOCK.test(subject) || names.has(last) || TIMING_NAME.test(last)) lines.push(source.slice(0, m.index).split('\n').length);
  }
  return lines;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

describe('no test asserts a wall-clock time', () => {
  it('finds such assertions in the forms they take', () => {
    const flagged = (s: string) => wallClockAssertions(s).length;
    expect(flagged('expect(Date.now() - started).toBeLessThan(5000);')).toBe(1);
    expect(flagged('expect(performance.now() - t0, "slow").toBeLessThanOrEqual(200);')).toBe(1);
    expect(flagged('expect(Number(process.hrtime.bigint() - t) / 1e6).not.toBeGreaterThan(9);')).toBe(1);
    // The source under scan is assembled, so that this file holds no such assertion as text itself.
    const tookAssertion = ['expect', '(took).toBeLessThan(3_000);'].join('');
    expect(flagged(`const took = Date.now() - started;\nexpect(r.code).toBe(1);\n${tookAssertion}`)).toEqual(1);
    expect(wallClockAssertions(`const took = Date.now() - started;\n${tookAssertion}`)).toEqual([2]);
    expect(flagged('results[name] = { code: r.code, ms: Date.now() - started };\nexpect(results.isulats!.ms).toBeGreaterThanOrEqual(2_000);')).toBe(1);
    expect(flagged('expect(burst.unary.maxMs, figures).toBeLessThan(2000);')).toBe(1);
    expect(flagged('expect(\n  elapsed,\n).toBeGreaterThanOrEqual(1000);')).toBe(1);
    // Not timing: counts, sizes, ordering, a figure that was measured at all.
    expect(flagged('expect(p.calls).toBeLessThan(5);')).toBe(0);
    expect(flagged('expect(answered.indexOf("layer")).toBeLessThan(answered.indexOf("config"));')).toBe(0);
    expect(flagged('expect(out.wallMs).toBeGreaterThan(0);')).toBe(0);
    expect(flagged('expect(BigInt(s.startedAt)).toBeGreaterThan(0n);')).toBe(0);
    expect(flagged('while (Date.now() - started < 10_000) await sleep(20);')).toBe(0);
  });

  it('holds for every file under test/ (figures go to bench/)', () => {
    const found: string[] = [];
    for (const file of testFiles(join(ROOT, 'test'))) {
      const rel = relative(ROOT, file);
      if (rel === SELF) continue;
      for (const line of wallClockAssertions(readFileSync(file, 'utf8'))) found.push(`${rel}:${line}`);
    }
    expect(found).toEqual([]);
  });
});
