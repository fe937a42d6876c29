import { describe, expect, it } from 'vitest';
import { formatTable, table } from '../../src/cli/output/tabwriter.js';
import { humanSize, humanDuration, formatG, ago } from '../../src/cli/output/units.js';
import { parseDuration } from '../../src/cli/duration.js';
import { renderJson } from '../../src/cli/output/format.js';

describe('tabwriter (crictl: minwidth 20, padding 3)', () => {
  it('pads every column to at least 20 and leaves the last cell alone', () => {
    expect(table(['POD ID', 'CREATED', 'STATE'], [['abc', '2 hours ago', 'Ready']])).toBe(
      'POD ID              CREATED             STATE\n' + 'abc                 2 hours ago         Ready\n',
    );
  });

  it('widens a column to its widest cell plus 3', () => {
    const out = formatTable(['a\tb', 'a-very-long-cell-value-xx\tc']);
    expect(out).toBe('a                           b\n' + 'a-very-long-cell-value-xx   c\n');
  });

  it('aligns column blocks separately when a line has fewer cells', () => {
    const out = formatTable(['x\ty\tz', 'plain line', 'x\tz']);
    expect(out.split('\n')[1]).toBe('plain line');
  });
});

describe('units', () => {
  it.each([
    [0, '0B'],
    [745, '745B'],
    [5620, '5.62kB'],
    [1234567, '1.23MB'],
    [1_000_000, '1MB'],
    [999_999, '1e+03kB'],
  ])('humanSize(%d) = %s', (n, s) => expect(humanSize(n)).toBe(s));

  it('formats %g like Go', () => {
    expect(formatG(4.5, 3)).toBe('4.5');
    expect(formatG(123.456, 3)).toBe('123');
  });

  it.each([
    [500, 'Less than a second'],
    [1000, '1 second'],
    [59_000, '59 seconds'],
    [60_000, 'About a minute'],
    [5 * 60_000, '5 minutes'],
    [3_600_000, 'About an hour'],
    [5 * 3_600_000, '5 hours'],
    [3 * 86_400_000, '3 days'],
  ])('humanDuration(%d) = %s', (ms, s) => expect(humanDuration(ms)).toBe(s));

  it('says how long ago a nanosecond timestamp was', () => {
    const now = Date.now();
    expect(ago(String(BigInt(now - 120_000) * 1_000_000n), now)).toBe('2 minutes ago');
  });
});

describe('parseDuration', () => {
  it.each([
    ['2s', 2000],
    ['500ms', 500],
    ['1m30s', 90_000],
    ['3', 3000],
    ['1.5s', 1500],
  ])('%s = %d ms', (t, ms) => expect(parseDuration(t)).toBe(ms));

  it.each(['', 'abc', '2x', '5s junk'])('rejects %j', (t) => expect(() => parseDuration(t)).toThrow(/invalid duration/));
});

describe('renderJson', () => {
  it('prints buffers as base64 and keeps int64 strings', () => {
    expect(JSON.parse(renderJson({ a: Buffer.from('hi'), t: '1700000000000000000', u: undefined }))).toEqual({ a: 'aGk=', t: '1700000000000000000' });
  });
});
