import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  formatLogTimestamp,
  LogRenderer,
  parseCriLogLine,
  parseSince,
  previousLogPath,
  readLogs,
  RecordScanner,
  tailRecords,
  type LogRecord,
  type LogStream,
} from '../../src/cli/log-reader.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'isu-log-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function collector() {
  const out: Record<LogStream, string> = { stdout: '', stderr: '' };
  return { out, sink: { write: (s: LogStream, d: Buffer) => void (out[s] += d.toString()) } };
}

const rec = (line: string) => parseCriLogLine(Buffer.from(line)) as LogRecord;

describe('parseCriLogLine', () => {
  it('parses a full stdout line and adds its newline', () => {
    const r = rec('2024-01-02T03:04:05.123456789Z stdout F hello world');
    expect(r.stream).toBe('stdout');
    expect(r.partial).toBe(false);
    expect(r.content.toString()).toBe('hello world\n');
    expect(r.nanos).toBe(1704164645123456789n);
  });

  it('parses a partial stderr line without a newline, and an empty message', () => {
    expect(rec('2024-01-02T03:04:05Z stderr P abc').content.toString()).toBe('abc');
    expect(rec('2024-01-02T03:04:05Z stdout F').content.toString()).toBe('\n');
  });

  it('understands zone offsets', () => {
    expect(rec('2024-01-02T04:04:05.5+01:00 stdout F x').nanos).toBe(1704164645500000000n);
  });

  it.each(['garbage', '2024-01-02T03:04:05Z stdin F x', '2024-01-02T03:04:05Z stdout X x', 'notatime stdout F x'])('rejects %s', (l) => {
    expect(parseCriLogLine(Buffer.from(l))).toBeUndefined();
  });
});

describe('formatLogTimestamp', () => {
  it('pads the fraction to 9 digits and keeps the zone', () => {
    expect(formatLogTimestamp('2024-01-02T03:04:05.5Z')).toBe('2024-01-02T03:04:05.500000000Z');
    expect(formatLogTimestamp('2024-01-02T03:04:05+02:00')).toBe('2024-01-02T03:04:05.000000000+02:00');
  });
});

describe('parseSince', () => {
  const now = Date.UTC(2024, 0, 2, 3, 4, 5);
  it('takes durations relative to now', () => {
    expect(parseSince('10s', now)).toBe(BigInt(now - 10_000) * 1_000_000n);
    expect(parseSince('1m30s', now)).toBe(BigInt(now - 90_000) * 1_000_000n);
  });

  it('takes RFC 3339 times and Unix seconds', () => {
    expect(parseSince('2024-01-02T03:04:05Z')).toBe(1704164645000000000n);
    expect(parseSince('1704164645.25')).toBe(1704164645250000000n);
  });

  it('refuses anything else', () => {
    expect(() => parseSince('yesterday')).toThrow(/invalid --since/);
  });
});

describe('tailRecords', () => {
  const recs = [
    rec('2024-01-02T03:04:01Z stdout F one'),
    rec('2024-01-02T03:04:02Z stdout P tw'),
    rec('2024-01-02T03:04:03Z stdout F o'),
    rec('2024-01-02T03:04:04Z stdout F three'),
  ];

  it('counts a partial run and its end as one line', () => {
    expect(tailRecords(recs, 2).map((r) => r.content.toString())).toEqual(['tw', 'o\n', 'three\n']);
    expect(tailRecords(recs, 1)).toHaveLength(1);
    expect(tailRecords(recs, 0)).toHaveLength(0);
    expect(tailRecords(recs, -1)).toHaveLength(4);
    expect(tailRecords(recs, 10)).toHaveLength(4);
  });
});

describe('LogRenderer', () => {
  it('joins partial lines and prefixes a timestamp once per logical line', async () => {
    const { out, sink } = collector();
    const r = new LogRenderer({ timestamps: true, limitBytes: -1 }, sink);
    await r.push(rec('2024-01-02T03:04:05.1Z stdout P ab'));
    await r.push(rec('2024-01-02T03:04:05.2Z stdout F cd'));
    await r.push(rec('2024-01-02T03:04:05.3Z stderr F err'));
    expect(out.stdout).toBe('2024-01-02T03:04:05.100000000Z abcd\n');
    expect(out.stderr).toBe('2024-01-02T03:04:05.300000000Z err\n');
  });

  it('skips records before --since', async () => {
    const { out, sink } = collector();
    const r = new LogRenderer({ timestamps: false, limitBytes: -1, since: 1704164645000000000n }, sink);
    await r.push(rec('2024-01-02T03:04:04Z stdout F old'));
    await r.push(rec('2024-01-02T03:04:05Z stdout F new'));
    expect(out.stdout).toBe('new\n');
  });

  it('stops at --limit-bytes, cutting the last record', async () => {
    const { out, sink } = collector();
    const r = new LogRenderer({ timestamps: false, limitBytes: 6 }, sink);
    expect(await r.push(rec('2024-01-02T03:04:05Z stdout F abcd'))).toBe(true);
    expect(await r.push(rec('2024-01-02T03:04:05Z stderr F efgh'))).toBe(false);
    expect(await r.push(rec('2024-01-02T03:04:05Z stdout F more'))).toBe(false);
    expect(out.stdout).toBe('abcd\n');
    expect(out.stderr).toBe('e');
  });
});

describe('readLogs', () => {
  const lines = ['2024-01-02T03:04:01Z stdout F one', 'bad line', '2024-01-02T03:04:02Z stderr F two', '2024-01-02T03:04:03Z stdout F three', ''].join('\n');

  it('splits streams, skips malformed lines and honours --tail', async () => {
    const p = join(dir, 'a.log');
    writeFileSync(p, lines);
    const all = collector();
    await readLogs(p, { tail: -1, timestamps: false, limitBytes: -1, follow: false }, all.sink);
    expect(all.out).toEqual({ stdout: 'one\nthree\n', stderr: 'two\n' });
    const tail = collector();
    await readLogs(p, { tail: 2, timestamps: false, limitBytes: -1, follow: false }, tail.sink);
    expect(tail.out).toEqual({ stdout: 'three\n', stderr: 'two\n' });
  });

  it('follows appended lines and a rotated file, and stops when the container is gone', async () => {
    const p = join(dir, 'f.log');
    writeFileSync(p, '2024-01-02T03:04:01Z stdout F first\n');
    const { out, sink } = collector();
    let running = true;
    const done = readLogs(p, { tail: -1, timestamps: false, limitBytes: -1, follow: true }, sink, {
      isRunning: async () => running,
      pollMs: 10,
      statusEveryMs: 50,
    });
    await new Promise((r) => setTimeout(r, 60));
    appendFileSync(p, '2024-01-02T03:04:02Z stdout P sec\n');
    await new Promise((r) => setTimeout(r, 60));
    appendFileSync(p, '2024-01-02T03:04:02Z stdout F ond\n');
    await new Promise((r) => setTimeout(r, 60));
    renameSync(p, `${p}.1`);
    writeFileSync(p, '2024-01-02T03:04:03Z stdout F after rotation\n');
    await new Promise((r) => setTimeout(r, 100));
    running = false;
    await done;
    expect(out.stdout).toBe('first\nsecond\nafter rotation\n');
  });

  it('ends --follow when aborted', async () => {
    const p = join(dir, 'g.log');
    writeFileSync(p, '');
    const ac = new AbortController();
    const { sink } = collector();
    const done = readLogs(p, { tail: -1, timestamps: false, limitBytes: -1, follow: true }, sink, { isRunning: async () => true, signal: ac.signal, pollMs: 10 });
    setTimeout(() => ac.abort(), 30);
    await expect(done).resolves.toBeUndefined();
  });
});

describe('previousLogPath', () => {
  it('names the previous attempt as crictl does', () => {
    expect(previousLogPath('/var/log/pods/ns_pod_uid/box/2.log', 2)).toBe('/var/log/pods/ns_pod_uid/box/1.log');
    expect(previousLogPath('/tmp/logs/box.log', 1)).toBe('/tmp/logs/0.log');
  });
});

describe('readLogs with a line written in two pieces', () => {
  it('waits for the newline before printing the record', async () => {
    const p = join(dir, 'h.log');
    writeFileSync(p, '');
    const { out, sink } = collector();
    let running = true;
    const done = readLogs(p, { tail: -1, timestamps: false, limitBytes: -1, follow: true }, sink, { isRunning: async () => running, pollMs: 10, statusEveryMs: 40 });
    appendFileSync(p, '2024-01-02T03:04:01Z stdout F ha');
    await new Promise((r) => setTimeout(r, 50));
    expect(out.stdout).toBe('');
    appendFileSync(p, 'lf\n');
    await new Promise((r) => setTimeout(r, 50));
    running = false;
    await done;
    expect(out.stdout).toBe('half\n');
  });
});

describe('RecordScanner', () => {
  const log = [
    '2024-01-02T03:04:01Z stdout F one',
    'not a record at all, and longer than any head could be: ' + 'z'.repeat(300),
    '2024-01-02T03:04:02Z stderr P tw',
    '2024-01-02T03:04:02Z stderr F o',
    '2024-01-02T03:04:03Z stdout F',
    '2024-01-02T03:04:04+01:00 stdout F four with  spaces ',
    '',
  ].join('\n');

  it('gives the same records whatever the chunks it is fed', async () => {
    const whole = collector();
    await new RecordScanner(new LogRenderer({ timestamps: true, limitBytes: -1 }, whole.sink)).push(Buffer.from(log));
    expect(whole.out).toEqual({
      stdout: '2024-01-02T03:04:01.000000000Z one\n2024-01-02T03:04:03.000000000Z \n2024-01-02T03:04:04.000000000+01:00 four with  spaces \n',
      stderr: '2024-01-02T03:04:02.000000000Z two\n',
    });
    for (const size of [1, 2, 7, 33]) {
      const piecewise = collector();
      const scanner = new RecordScanner(new LogRenderer({ timestamps: true, limitBytes: -1 }, piecewise.sink));
      const bytes = Buffer.from(log);
      for (let i = 0; i < bytes.length; i += size) await scanner.push(bytes.subarray(i, i + size));
      expect(piecewise.out).toEqual(whole.out);
    }
  });
});

describe('readLogs on lines longer than its chunks', () => {
  it('finds the last lines from the end and writes a long line in pieces', async () => {
    const p = join(dir, 'long.log');
    const long = 'y'.repeat(3 * 1024 * 1024 + 17);
    writeFileSync(p, [
      `2024-01-02T03:04:01Z stdout F ${long}`,
      `2024-01-02T03:04:02Z stdout P ${long}`,
      `2024-01-02T03:04:03Z stdout F end`,
      '2024-01-02T03:04:04Z stderr F last',
      '2024-01-02T03:04:05Z stdout F unterminated',
    ].join('\n'));
    const pieces: number[] = [];
    const out: Record<LogStream, string> = { stdout: '', stderr: '' };
    const sink = { write: (s: LogStream, d: Buffer) => { pieces.push(d.length); out[s] += d.toString(); } };
    await readLogs(p, { tail: 2, timestamps: false, limitBytes: -1, follow: false }, sink);
    // The P run and its F are one line; the unterminated last line is not complete yet.
    expect(out).toEqual({ stdout: `${long}end\n`, stderr: 'last\n' });
    expect(Math.max(...pieces)).toBeLessThanOrEqual(1024 * 1024);
    const one = collector();
    await readLogs(p, { tail: 1, timestamps: false, limitBytes: -1, follow: false }, one.sink);
    expect(one.out).toEqual({ stdout: '', stderr: 'last\n' });
    const all = collector();
    await readLogs(p, { tail: -1, timestamps: false, limitBytes: -1, follow: false }, all.sink);
    expect(all.out).toEqual({ stdout: `${long}\n${long}end\n`, stderr: 'last\n' });
  });
});
