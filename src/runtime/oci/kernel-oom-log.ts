// Whether the kernel's log says the OOM killer killed a process of a container: the record that
// survives the container's cgroup. Under the systemd cgroup driver the container's scope is a
// transient unit that systemd stops and removes as soon as it is empty, so by the time conmon
// reads the scope's memory.events (after the init's exit) the file is often gone, and conmon
// 2.1.6 also drops its memory.events watch at the first change that is not an OOM (the `max`
// event that precedes one). The kernel prints every OOM kill to its ring buffer:
//   `Memory cgroup out of memory: Killed process <pid> (<comm>) ...`   (always)
//   `oom-kill:constraint=...,oom_memcg=<cg>,task_memcg=<cg>,task=<comm>,pid=<pid>,uid=<uid>`
//   (rate-limited with the rest of the report: at most 10 in 5 s).
// /dev/kmsg hands them out one record per read, with a microsecond timestamp on the kernel's
// monotonic clock.
import { closeSync, constants, openSync, readSync } from 'node:fs';

export interface KmsgRecord {
  /** Microseconds since boot (the kernel's local clock: CLOCK_MONOTONIC's base). */
  tsUs: number;
  message: string;
}

/** What identifies the container's OOM kill in the log. */
export interface OomKillQuery {
  /** The container's id: its cgroup path (scope or dir name) carries it. */
  containerId: string;
  /** The init's pid, as this pid namespace (the host's) sees it. */
  pid: number;
  /** The window the container ran in, on the kmsg clock (microseconds since boot). */
  fromUs: number;
  toUs: number;
}

/** `<prio>,<seq>,<ts_usec>,<flags>[,...];<message>` (continuation lines after a newline are dropped). */
export function parseKmsgRecord(raw: string): KmsgRecord | undefined {
  const semi = raw.indexOf(';');
  if (semi < 0) return undefined;
  const head = raw.slice(0, semi).split(',');
  const tsUs = Number(head[2]);
  if (head.length < 3 || !Number.isFinite(tsUs)) return undefined;
  const end = raw.indexOf('\n', semi);
  return { tsUs, message: raw.slice(semi + 1, end < 0 ? undefined : end) };
}

const KILLED = /(?:^|: )Killed process (\d+) \(/;

/** One OOM kill the log reports: the victim's pid (always printed) or its cgroup (the summary line). */
export interface OomKill {
  tsUs: number;
  pid?: number;
  /** `task_memcg`: the cgroup that held the victim (whichever ancestor's limit was hit). */
  cgroup?: string;
}

/** The OOM kill a record reports, if it reports one. */
export function oomKillOf(record: KmsgRecord): OomKill | undefined {
  const m = KILLED.exec(record.message);
  if (m) return { tsUs: record.tsUs, pid: Number(m[1]) };
  if (!record.message.startsWith('oom-kill:')) return undefined;
  const field = record.message.slice('oom-kill:'.length).split(',').find((f) => f.startsWith('task_memcg='));
  return field ? { tsUs: record.tsUs, cgroup: field.slice('task_memcg='.length) } : undefined;
}

/** Whether a kill is of the queried container's process: its init's pid, or its cgroup. */
export function isKillOf(kill: OomKill, q: OomKillQuery): boolean {
  if (kill.tsUs < q.fromUs || kill.tsUs > q.toUs) return false;
  if (kill.pid !== undefined) return kill.pid === q.pid;
  // `/kubepods.slice/…/isulats-<id>.scope` or `/isulats/<id>`: the last component names the id.
  const last = kill.cgroup!.slice(kill.cgroup!.lastIndexOf('/') + 1);
  return q.containerId.length > 0 && last.includes(q.containerId);
}

/** Whether one record reports an OOM kill of a process of the queried container. */
export function isOomKillOf(record: KmsgRecord, q: OomKillQuery): boolean {
  const kill = oomKillOf(record);
  return kill !== undefined && isKillOf(kill, q);
}

/** Kills remembered between scans (the newest; a scan only reads what the kernel logged since). */
const KEEP_KILLS = 4096;
/** Upper bound on records read in one scan (the ring buffer holds a few thousand). */
const MAX_RECORDS = 200_000;

/**
 * The kernel's ring buffer, read incrementally: one /dev/kmsg descriptor kept open (each read is
 * one record, non-blocking, EAGAIN at the end), so a query reads only the records logged since the
 * last one, and the OOM kills among them are kept. A log that cannot be opened (no CAP_SYSLOG, a
 * container without it) answers false: the caller then reports what conmon saw.
 */
export class KernelOomLog {
  private fd?: number;
  private failed = false;
  private kills: OomKill[] = [];

  constructor(private readonly device = '/dev/kmsg') {}

  shows(q: OomKillQuery): boolean {
    this.scan();
    return this.kills.some((k) => isKillOf(k, q));
  }

  private scan(): void {
    if (this.failed) return;
    if (this.fd === undefined) {
      try {
        this.fd = openSync(this.device, constants.O_RDONLY | constants.O_NONBLOCK);
      } catch {
        this.failed = true;
        return;
      }
    }
    const buf = Buffer.alloc(16 * 1024);
    for (let i = 0; i < MAX_RECORDS; i++) {
      let n: number;
      try {
        n = readSync(this.fd, buf, 0, buf.length, null);
      } catch (error) {
        // EPIPE: records were overwritten under us; the next read goes on from the oldest left.
        if ((error as NodeJS.ErrnoException).code === 'EPIPE') continue;
        break; // EAGAIN: nothing newer
      }
      if (n <= 0) break;
      const record = parseKmsgRecord(buf.toString('utf8', 0, n));
      const kill = record && oomKillOf(record);
      if (kill) this.kills.push(kill);
    }
    if (this.kills.length > KEEP_KILLS) this.kills = this.kills.slice(-KEEP_KILLS);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

let shared: KernelOomLog | undefined;

/** Whether the kernel's log shows the container's OOM kill (one reader per process). */
export function kernelLogShowsOomKill(q: OomKillQuery): boolean {
  shared ??= new KernelOomLog();
  return shared.shows(q);
}

/** The kmsg clock's reading (µs since boot) at wall-clock time `wallMs`, from this process's monotonic clock. */
export function kmsgTimeAt(wallMs: number, nowWallMs = Date.now(), nowMonoNs = process.hrtime.bigint()): number {
  return Number(nowMonoNs / 1000n) - (nowWallMs - wallMs) * 1000;
}
