// Hands back the heap memory a burst of work left behind. glibc keeps what
// the daemon freed (V8's parser and compiler zones at start-up, nghttp2 and
// zlib buffers of a pull, a pod burst's bookkeeping) mapped, fragmented
// between live chunks, so RSS stays at the burst's peak: about 4 MB at idle
// after start-up and one round of calls. malloc_trim(0) returns the whole free
// pages; it costs about a millisecond, so it runs at most once a period, only
// after the daemon did something since the last trim (CPU time moved) and not
// while a burst is still going (that period used more than a quarter of a core).

export interface IdleTrimOptions {
  /** Returns memory to the kernel (the native addon's malloc_trim). */
  trim: () => unknown;
  /** CPU time this process has used, in ms. */
  cpuMs?: () => number;
  /** How often to look (default 10 s). */
  periodMs?: number;
  /** Told when a look failed (e.g. /proc unreadable while the process is out of descriptors); the next period tries again. */
  onError?: (err: unknown) => void;
}

export class IdleTrimmer {
  private readonly trim: () => unknown;
  private readonly cpuMs: () => number;
  private readonly busyMs: number;
  private lastCpu: number;
  // Start-up itself is the first burst.
  private dirty = true;

  constructor(opts: IdleTrimOptions) {
    this.trim = opts.trim;
    this.cpuMs = opts.cpuMs ?? processCpuMs;
    this.busyMs = (opts.periodMs ?? IDLE_TRIM_PERIOD_MS) / 4;
    this.lastCpu = this.cpuMs();
  }

  /** One period's look; answers whether it trimmed. */
  tick(): boolean {
    const now = this.cpuMs();
    const used = now - this.lastCpu;
    this.lastCpu = now;
    if (used >= ACTIVE_MS) this.dirty = true;
    if (!this.dirty || used >= this.busyMs) return false;
    this.trim();
    this.dirty = false;
    // The trim's own CPU time is not activity.
    this.lastCpu = this.cpuMs();
    return true;
  }
}

export const IDLE_TRIM_PERIOD_MS = 10_000;
/** CPU time in a period that counts as work (an idle daemon's timers use far less). */
const ACTIVE_MS = 2;

/** This process's resident memory in KiB (one read of /proc/self/stat, not a heap walk). */
export function residentKb(): number {
  return Math.round(process.memoryUsage.rss() / 1024);
}

function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Runs an IdleTrimmer every period on an unref'd timer; returns its stop. */
export function startIdleTrim(opts: IdleTrimOptions): () => void {
  const trimmer = new IdleTrimmer(opts);
  // A timer's throw would reach the process as an uncaught exception: a failed look is only reported.
  const timer = setInterval(() => {
    try {
      trimmer.tick();
    } catch (err) {
      opts.onError?.(err);
    }
  }, opts.periodMs ?? IDLE_TRIM_PERIOD_MS);
  timer.unref();
  return () => clearInterval(timer);
}
