// Reads a container's CRI-format log file as kubelet's log reader does (crictl
// logs uses that code): each line is `<RFC3339Nano> stdout|stderr F|P <msg>`;
// P marks a partial line that the next record continues, F ends a line.
// Options: --tail (logical lines), --since, --timestamps (kubelet's fixed
// 9-digit format, in the record's own zone), --limit-bytes (the timestamp
// prefix counts), --follow (polls the file, reopens it after rotation or
// truncation, stops when the container is no longer running).
// Memory stays bounded whatever the file: --tail finds where its lines start by
// reading backwards from the end in chunks (as kubelet's reader does), the rest
// is read forwards in chunks, and a record's message is written out piece by
// piece as it is read, so neither a file over 2 GiB nor a line of hundreds of
// MB is ever held whole.
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
  const parsed = parseRecordHead(line, true);
  if (!parsed) return undefined;
  const msg = line.subarray(parsed.body);
  return { ...parsed.head, content: parsed.head.partial ? Buffer.from(msg) : Buffer.concat([msg, Buffer.from('\n')]) };
}

/**
 * The head of a record from the first bytes of its line (`line` is the whole line when
 * `whole`): the head and where the message starts, or undefined when it is no CRI record or the
 * head is not within these bytes.
 */
export function parseRecordHead(line: Buffer, whole: boolean): { head: LogRecordHead; body: number } | undefined {
  const sp1 = line.indexOf(0x20);
  if (sp1 <= 0) return undefined;
  const timestamp = line.subarray(0, sp1).toString('latin1');
  const nanos = timestampNanos(timestamp);
  if (nanos === undefined) return undefined;
  const sp2 = line.indexOf(0x20, sp1 + 1);
  if (sp2 < 0) return undefined;
  const stream = line.subarray(sp1 + 1, sp2).toString('latin1');
  if (stream !== 'stdout' && stream !== 'stderr') return undefined;
  const sp3 = line.indexOf(0x20, sp2 + 1);
  if (sp3 < 0 && !whole) return undefined;
  const tag = line.subarray(sp2 + 1, sp3 < 0 ? line.length : sp3).toString('latin1').split(':')[0];
  if (tag !== 'F' && tag !== 'P') return undefined;
  return { head: { timestamp, nanos, stream, partial: tag === 'P' }, body: sp3 < 0 ? line.length : sp3 + 1 };
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

/** A record without its message: what decides where and how its message is written. */
export type LogRecordHead = Omit<LogRecord, 'content'>;

/**
 * Applies --since, --timestamps and --limit-bytes to records, in order. A record comes whole
 * (push) or as its head, its message in pieces, and its end (begin, data, end).
 */
export class LogRenderer {
  private remaining: number;
  private atLineStart: Record<LogStream, boolean> = { stdout: true, stderr: true };
  /** The record being written; undefined while none is, or when --since skips it. */
  private current?: LogRecordHead;
  done = false;

  constructor(
    private readonly opts: Pick<LogOptions, 'since' | 'timestamps' | 'limitBytes'>,
    private readonly sink: LogSink,
  ) {
    this.remaining = opts.limitBytes < 0 ? Infinity : opts.limitBytes;
  }

  /** Returns false once the byte limit is reached. */
  async push(rec: LogRecord): Promise<boolean> {
    const { content, ...head } = rec;
    // A full record's content ends with the newline end() writes.
    const message = rec.partial ? content : content.subarray(0, content.length - 1);
    return (await this.begin(head)) && (await this.data(message)) && this.end();
  }

  async begin(head: LogRecordHead): Promise<boolean> {
    if (this.done) return false;
    if (this.opts.since !== undefined && head.nanos < this.opts.since) {
      this.current = undefined;
      return true;
    }
    this.current = head;
    const prefix = this.opts.timestamps && this.atLineStart[head.stream] ? `${formatLogTimestamp(head.timestamp)} ` : '';
    this.atLineStart[head.stream] = !head.partial;
    return prefix ? this.write(head.stream, Buffer.from(prefix)) : true;
  }

  /** A piece of the current record's message. */
  async data(piece: Buffer): Promise<boolean> {
    if (this.done) return false;
    if (!this.current || piece.length === 0) return true;
    return this.write(this.current.stream, piece);
  }

  /** Ends the current record: a full one's newline. */
  async end(): Promise<boolean> {
    if (this.done) return false;
    const head = this.current;
    this.current = undefined;
    return head && !head.partial ? this.write(head.stream, NEWLINE) : true;
  }

  private async write(stream: LogStream, data: Buffer): Promise<boolean> {
    if (data.length >= this.remaining) {
      data = data.subarray(0, this.remaining);
      this.done = true;
    }
    this.remaining -= data.length;
    if (data.length) await this.sink.write(stream, data);
    if (this.remaining <= 0) this.done = true;
    return !this.done;
  }
}

const NEWLINE = Buffer.from('\n');

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

/** Bytes read at a time, forwards and backwards. */
const CHUNK = 1 << 20;
/** A record's head (timestamp, stream, tag) is within this many bytes of its line, or the line is no record. */
const HEAD_MAX = 256;
/** With --follow, an unterminated last line is held back until its newline while shorter than this; longer, it is written as it grows. */
const FOLLOW_HOLD_MAX = 64 * 1024;

/**
 * Cuts the bytes of a log into records as they come, in chunks of any size: each record's head is
 * parsed from its first bytes, and its message goes to the renderer piece by piece.
 */
export class RecordScanner {
  private headBytes: Buffer[] = [];
  private headLength = 0;
  private state: 'head' | 'body' | 'skip' = 'head';

  constructor(private readonly renderer: LogRenderer) {}

  /** Resets to a line's start (a rotated or truncated file). */
  reset(): void {
    this.headBytes = [];
    this.headLength = 0;
    this.state = 'head';
  }

  /** Returns false once the renderer wants no more. */
  async push(chunk: Buffer): Promise<boolean> {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(0x0a, pos);
      const segEnd = nl < 0 ? chunk.length : nl;
      if (!(await this.segment(chunk.subarray(pos, segEnd), nl >= 0))) return false;
      pos = nl < 0 ? chunk.length : nl + 1;
    }
    return true;
  }

  /** Bytes of the current line; `ends`: its newline follows them. */
  private async segment(bytes: Buffer, ends: boolean): Promise<boolean> {
    if (this.state === 'head') {
      // At most HEAD_MAX + 1 bytes are kept: past that the line cannot be a record.
      const take = bytes.subarray(0, HEAD_MAX + 1 - this.headLength);
      this.headBytes.push(take);
      this.headLength += take.length;
      const head = this.headBytes.length === 1 ? take : Buffer.concat(this.headBytes);
      const parsed = parseRecordHead(head, ends && take.length === bytes.length);
      if (parsed) {
        this.headBytes = [];
        this.headLength = 0;
        this.state = 'body';
        if (!(await this.renderer.begin(parsed.head))) return false;
        if (!(await this.renderer.data(head.subarray(parsed.body)))) return false;
        if (!(await this.renderer.data(bytes.subarray(take.length)))) return false;
      } else if (this.headLength > HEAD_MAX) {
        this.headBytes = [];
        this.headLength = 0;
        this.state = 'skip';
      }
    } else if (this.state === 'body') {
      if (!(await this.renderer.data(bytes))) return false;
    }
    if (!ends) return true;
    const wasBody = this.state === 'body';
    this.reset();
    return wasBody ? this.renderer.end() : true;
  }
}

/** Reads `path` and writes its records to `sink` as `opts` say, holding no more than a chunk of it. */
export async function readLogs(path: string, opts: LogOptions, sink: LogSink, follow?: FollowControl): Promise<void> {
  const renderer = new LogRenderer(opts, sink);
  const scanner = new RecordScanner(renderer);
  let fh: FileHandle = await open(path, 'r');
  try {
    const back = new BackwardReader(fh);
    // The lines complete when the file was opened: an unterminated last one is left to --follow.
    const { size } = await fh.stat();
    const end = (await back.newlineBefore(size)) + 1;
    const start = await tailStart(back, end, opts.tail);
    for (let offset = start; offset < end;) {
      const chunk = await readAt(fh, offset, Math.min(CHUNK, end - offset));
      if (chunk.length === 0) break;
      offset += chunk.length;
      if (!(await scanner.push(chunk))) return;
    }
    if (!opts.follow || !follow) return;

    const pollMs = follow.pollMs ?? 100;
    const statusEveryMs = follow.statusEveryMs ?? 1000;
    let offset = end;
    // Bytes of an unterminated line not yet given to the scanner (at most FOLLOW_HOLD_MAX).
    let held: Buffer = Buffer.alloc(0);
    let idleSince = Date.now();
    let inode = (await fh.stat()).ino;
    let finalDrain = false;
    // Bounded by the container's life (isRunning) and by the abort signal.
    while (!follow.signal?.aborted) {
      const chunk = await readFrom(fh, offset);
      if (chunk.length > 0) {
        offset += chunk.length;
        idleSince = Date.now();
        const lastNl = chunk.lastIndexOf(0x0a);
        if (lastNl >= 0) {
          if (held.length && !(await scanner.push(held))) return;
          held = Buffer.alloc(0);
          if (!(await scanner.push(chunk.subarray(0, lastNl + 1)))) return;
        }
        const rest = chunk.subarray(lastNl + 1);
        if (held.length + rest.length > FOLLOW_HOLD_MAX) {
          // A long line still being written: out as it grows.
          if (held.length && !(await scanner.push(held))) return;
          held = Buffer.alloc(0);
          if (!(await scanner.push(rest))) return;
        } else if (rest.length) held = Buffer.concat([held, rest]);
        continue;
      }
      if (finalDrain) return;
      const reopened = await rotated(path, inode, offset);
      if (reopened) {
        await fh.close();
        fh = await open(path, 'r');
        inode = (await fh.stat()).ino;
        offset = 0;
        held = Buffer.alloc(0);
        scanner.reset();
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

/**
 * Reads a file backwards in chunks, keeping one chunk: finds newlines and the first bytes of lines
 * from the end, as kubelet's tail does.
 */
class BackwardReader {
  private buf: Buffer = Buffer.alloc(0);
  private bufStart = 0;

  constructor(private readonly fh: FileHandle) {}

  /** The offset of the last newline before `pos`, or -1. */
  async newlineBefore(pos: number): Promise<number> {
    let p = pos - 1;
    while (p >= 0) {
      if (p < this.bufStart || p >= this.bufStart + this.buf.length) {
        const from = Math.max(0, p + 1 - CHUNK);
        this.buf = await readAt(this.fh, from, p + 1 - from);
        this.bufStart = from;
        if (this.buf.length === 0) return -1;
      }
      const i = this.buf.lastIndexOf(0x0a, p - this.bufStart);
      if (i >= 0) return this.bufStart + i;
      p = this.bufStart - 1;
    }
    return -1;
  }

  /** Up to `n` bytes from `pos`. */
  async bytesAt(pos: number, n: number): Promise<Buffer> {
    if (pos >= this.bufStart && pos + n <= this.bufStart + this.buf.length) return this.buf.subarray(pos - this.bufStart, pos - this.bufStart + n);
    return readAt(this.fh, pos, n);
  }
}

/**
 * Where the last `n` logical lines of [0, end) begin (a run of P records and the F that ends it is
 * one line; lines that are no record do not count), found from the end backwards.
 */
async function tailStart(back: BackwardReader, end: number, n: number): Promise<number> {
  if (n < 0) return 0;
  if (n === 0) return end;
  let lines = 0;
  // The record after the one being looked at: it begins a logical line when this one is full.
  let later: number | undefined;
  for (let lineEnd = end - 1; lineEnd >= 0;) {
    const lineStart = (await back.newlineBefore(lineEnd)) + 1;
    const length = lineEnd - lineStart;
    const parsed = parseRecordHead(await back.bytesAt(lineStart, Math.min(length, HEAD_MAX)), length <= HEAD_MAX);
    if (parsed) {
      if (later !== undefined && !parsed.head.partial && ++lines === n) return later;
      later = lineStart;
    }
    lineEnd = lineStart - 1;
  }
  return 0;
}

async function readAt(fh: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, offset + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
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
