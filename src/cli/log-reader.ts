// Reads a container's CRI-format log file as kubelet's log reader does (crictl
// logs uses that code): each line is `<RFC3339Nano> stdout|stderr F|P <msg>`;
// P marks a partial line that the next record continues, F ends a line.
// Options: --tail (logical lines), --since, --timestamps (kubelet's fixed
// 9-digit format, in the record's own zone), --limit-bytes (the timestamp
// prefix counts), --follow (polls the file, reopens it after rotation or
// truncation, stops when the container is no longer running).
import { open, stat, type FileHandle } from 'node:fs/promises';
import { parseDuration } from './duration.js';

export type LogStream = 'stdout' | 'stderr';

export interface LogRecord {
  /** The timestamp as written in the file. */
  timestamp: string;
  /** Nanoseconds since the epoch. */
  nanos: bigint;
  stream: LogStream;
  partial: boolean;
  /** The message; a full (F) record ends with "\n". */
  content: Buffer;
}

const TS_RE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/;

/** Parses one line (without its newline); undefined when it is not a CRI log record. */
export function parseCriLogLine(line: Buffer): LogRecord | undefined {
  const sp1 = line.indexOf(0x20);
  if (sp1 <= 0) return undefined;
  const timestamp = line.subarray(0, sp1).toString('latin1');
  const nanos = timestampNanos(timestamp);
  if (nanos === undefined) return undefined;
  const sp2 = line.indexOf(0x20, sp1 + 1);
  if (sp2 < 0) return undefined;
  const stream = line.subarray(sp1 + 1, sp2).toString('latin1');
  if (stream !== 'stdout' && stream !== 'stderr') return undefined;
  // The tag field may carry more tags after ':'; only the first (F or P) matters.
  let sp3 = line.indexOf(0x20, sp2 + 1);
  const tagEnd = sp3 < 0 ? line.length : sp3;
  const tag = line.subarray(sp2 + 1, tagEnd).toString('latin1').split(':')[0];
  if (tag !== 'F' && tag !== 'P') return undefined;
  if (sp3 < 0) sp3 = line.length - 1;
  const msg = line.subarray(sp3 + 1);
  const partial = tag === 'P';
  return { timestamp, nanos, stream, partial, content: partial ? Buffer.from(msg) : Buffer.concat([msg, Buffer.from('\n')]) };
}

export function timestampNanos(ts: string): bigint | undefined {
  const m = TS_RE.exec(ts);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** kubelet's output format "2006-01-02T15:04:05.000000000Z07:00", in the record's own zone. */
export function formatLogTimestamp(ts: string): string {
  const m = TS_RE.exec(ts);
  if (!m) return ts;
  return `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}${m[3]}`;
}

/**
 * --since as crictl takes it (docker's GetTimestamp): a Go duration before now
 * ("10s", "1h30m"), an RFC 3339 time (zone optional: local), a date, or Unix
 * seconds ("1700000000.5"). Returns nanoseconds since the epoch.
 */
export function parseSince(value: string, nowMs = Date.now()): bigint {
  const v = value.trim();
  if (/^\d+(\.\d{1,9})?$/.test(v)) {
    const [s, frac = ''] = v.split('.');
    return BigInt(s) * 1_000_000_000n + BigInt(frac.padEnd(9, '0'));
  }
  if (/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(v)) return BigInt(Math.round(nowMs - parseDuration(v))) * 1_000_000n;
  const exact = timestampNanos(v);
  if (exact !== undefined) return exact;
  const local = /^(\d{4}-\d\d-\d\d)(?:T(\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?))?$/.exec(v);
  if (local) {
    const [date, time = '00:00:00'] = [local[1], local[2]];
    const [hms, frac = ''] = time.split('.');
    const ms = new Date(`${date}T${hms.length === 5 ? `${hms}:00` : hms}`).getTime();
    if (!Number.isNaN(ms)) return BigInt(ms) * 1_000_000n + BigInt(frac.padEnd(9, '0'));
  }
  throw new Error(`invalid --since value "${value}": use a duration (10s, 5m), an RFC 3339 time or Unix seconds`);
}

export interface LogOptions {
  /** Logical lines from the end; negative = all. */
  tail: number;
  /** Skip records older than this (nanoseconds). */
  since?: bigint;
  timestamps: boolean;
  /** Negative = no limit. */
  limitBytes: number;
  follow: boolean;
}

export interface LogSink {
  write(stream: LogStream, data: Buffer): Promise<void> | void;
}

/** Applies --since, --timestamps and --limit-bytes to records, in order. */
export class LogRenderer {
  private remaining: number;
  private atLineStart: Record<LogStream, boolean> = { stdout: true, stderr: true };
  done = false;

  constructor(
    private readonly opts: Pick<LogOptions, 'since' | 'timestamps' | 'limitBytes'>,
    private readonly sink: LogSink,
  ) {
    this.remaining = opts.limitBytes < 0 ? Infinity : opts.limitBytes;
  }

  /** Returns false once the byte limit is reached. */
  async push(rec: LogRecord): Promise<boolean> {
    if (this.done) return false;
    if (this.opts.since !== undefined && rec.nanos < this.opts.since) return true;
    let data = rec.content;
    if (this.opts.timestamps && this.atLineStart[rec.stream]) data = Buffer.concat([Buffer.from(`${formatLogTimestamp(rec.timestamp)} `), data]);
    this.atLineStart[rec.stream] = !rec.partial;
    if (data.length >= this.remaining) {
      data = data.subarray(0, this.remaining);
      this.done = true;
    }
    this.remaining -= data.length;
    if (data.length) await this.sink.write(rec.stream, data);
    if (this.remaining <= 0) this.done = true;
    return !this.done;
  }
}

/** Splits a buffer into complete lines; the unterminated rest is returned for the next read. */
export function splitLines(buf: Buffer): { lines: Buffer[]; rest: Buffer } {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = buf.indexOf(0x0a, start); nl >= 0; nl = buf.indexOf(0x0a, start)) {
    lines.push(buf.subarray(start, nl));
    start = nl + 1;
  }
  return { lines, rest: buf.subarray(start) };
}

/** The records that make up the last `n` logical lines (a run of P records ends with its F). */
export function tailRecords(records: LogRecord[], n: number): LogRecord[] {
  if (n < 0) return records;
  if (n === 0) return [];
  let lines = 0;
  for (let i = records.length - 1; i >= 0; i--) {
    // A logical line begins after the previous full record (or at the start).
    if (i === 0 || !records[i - 1].partial) {
      lines++;
      if (lines === n) return records.slice(i);
    }
  }
  return records;
}

export interface FollowControl {
  /** Asked when the file has been idle for a while: false ends --follow. */
  isRunning(): Promise<boolean>;
  signal?: AbortSignal;
  pollMs?: number;
  /** How long the file must be idle before isRunning is asked. */
  statusEveryMs?: number;
}

/** Reads `path` and writes its records to `sink` as `opts` say. */
export async function readLogs(path: string, opts: LogOptions, sink: LogSink, follow?: FollowControl): Promise<void> {
  const renderer = new LogRenderer(opts, sink);
  let fh: FileHandle = await open(path, 'r');
  try {
    const whole = await fh.readFile();
    const { lines, rest } = splitLines(whole);
    let offset = whole.length - rest.length;
    const records = lines.map(parseCriLogLine).filter((r): r is LogRecord => r !== undefined);
    for (const rec of tailRecords(records, opts.tail)) if (!(await renderer.push(rec))) return;
    if (!opts.follow || !follow) return;

    const pollMs = follow.pollMs ?? 100;
    const statusEveryMs = follow.statusEveryMs ?? 1000;
    let pending: Buffer = Buffer.alloc(0);
    let idleSince = Date.now();
    let inode = (await fh.stat()).ino;
    let finalDrain = false;
    // Bounded by the container's life (isRunning) and by the abort signal.
    while (!follow.signal?.aborted) {
      const chunk = await readFrom(fh, offset);
      if (chunk.length > 0) {
        offset += chunk.length;
        idleSince = Date.now();
        const split = splitLines(Buffer.concat([pending, chunk]));
        pending = Buffer.from(split.rest);
        for (const line of split.lines) {
          const rec = parseCriLogLine(line);
          if (rec && !(await renderer.push(rec))) return;
        }
        continue;
      }
      if (finalDrain) return;
      const reopened = await rotated(path, inode, offset);
      if (reopened) {
        await fh.close();
        fh = await open(path, 'r');
        inode = (await fh.stat()).ino;
        offset = 0;
        pending = Buffer.alloc(0);
        continue;
      }
      if (Date.now() - idleSince >= statusEveryMs) {
        idleSince = Date.now();
        // One more read after the container stopped picks up its last lines.
        if (!(await follow.isRunning())) finalDrain = true;
        continue;
      }
      await sleep(pollMs, follow.signal);
    }
  } finally {
    await fh.close();
  }
}

async function readFrom(fh: FileHandle, offset: number): Promise<Buffer> {
  const { size } = await fh.stat();
  if (size <= offset) return Buffer.alloc(0);
  const buf = Buffer.alloc(Math.min(size - offset, 1 << 20));
  const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
  return buf.subarray(0, bytesRead);
}

/** True when the path now names another file (rotation) or the file shrank (truncation). */
async function rotated(path: string, inode: number, offset: number): Promise<boolean> {
  try {
    const st = await stat(path);
    return st.ino !== inode || st.size < offset;
  } catch {
    return false;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * crictl's --previous: the log of attempt N-1 lives next to the current one,
 * named "<attempt-1>.log" (kubelet's <dir>/<restartCount>.log layout).
 */
export function previousLogPath(logPath: string, attempt: number): string {
  const slash = logPath.lastIndexOf('/');
  const dot = logPath.lastIndexOf('.');
  const ext = dot > slash ? logPath.slice(dot) : '';
  return `${logPath.slice(0, slash + 1)}${attempt - 1}${ext}`;
}
