// The daemon's Prometheus metrics: what it is asked (CRI calls by method and
// gRPC code, with latency histograms, under go-grpc-prometheus's names, which
// containerd's dashboards read), what it holds (pods and containers by state,
// read at scrape time), what it moves (image pulls and their bytes, streaming
// sessions), NRI plugin health, and the process itself (RSS, CPU, descriptors,
// event-loop delay). Loaded only when `metrics-address` is set.
import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Counter, exposition, Gauge, Histogram, Summary, type Family } from './exposition.js';

/** prometheus.DefBuckets, as go-grpc-prometheus and containerd use: seconds. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** gRPC status codes by number, as go-grpc-prometheus spells them in `grpc_code`. */
const CODE_NAMES = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied',
  'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated',
];

export function grpcCodeName(code: number): string {
  return CODE_NAMES[code] ?? String(code);
}

export type SessionKind = 'exec' | 'attach' | 'portforward';

/** What the metrics read from the engine at scrape time; each part absent when the backend lacks it. */
export interface MetricsSource {
  containers?(): Promise<Array<{ state?: string | null }>>;
  pods?(): Promise<Array<{ state?: string | null }>>;
  pulledBytes?(): number;
  nriPlugins?(): number;
  nriFailures?(): Array<{ plugin: string; errors: number; timeouts: number }>;
}

const CONTAINER_STATES: Record<string, string> = {
  CONTAINER_CREATED: 'created', CONTAINER_RUNNING: 'running', CONTAINER_EXITED: 'exited', CONTAINER_UNKNOWN: 'unknown',
};
const POD_STATES: Record<string, string> = { SANDBOX_READY: 'ready', SANDBOX_NOTREADY: 'notready' };

export class DaemonMetrics {
  private readonly handled = new Counter('grpc_server_handled_total', 'CRI calls completed on the server, by method and gRPC status code.', ['grpc_type', 'grpc_service', 'grpc_method', 'grpc_code']);
  private readonly handling = new Histogram('grpc_server_handling_seconds', 'Time the server took to answer CRI calls, by method.', ['grpc_type', 'grpc_service', 'grpc_method'], LATENCY_BUCKETS);
  private readonly containers = new Gauge('isulats_containers', 'Containers by state.', ['state']);
  private readonly pods = new Gauge('isulats_pod_sandboxes', 'Pod sandboxes by state.', ['state']);
  private readonly pulls = new Counter('isulats_image_pulls_total', 'PullImage calls completed, by result (success or failure).', ['result']);
  private readonly pulledBytes = new Counter('isulats_image_pulled_bytes_total', 'Bytes of image blobs (layers and configs) downloaded by pulls.');
  private readonly sessionsOpen = new Gauge('isulats_streaming_sessions', 'Streaming sessions open, by kind (exec, attach, portforward).', ['kind']);
  private readonly sessionsStarted = new Counter('isulats_streaming_sessions_started_total', 'Streaming sessions started, by kind (exec, attach, portforward).', ['kind']);
  private readonly nriPlugins = new Gauge('isulats_nri_plugins', 'NRI plugins connected and synchronized.');
  private readonly nriFailures = new Counter('isulats_nri_plugin_failures_total', 'NRI plugin requests that failed with an error (timeouts not included), by plugin.', ['plugin']);
  private readonly nriTimeouts = new Counter('isulats_nri_plugin_timeouts_total', 'NRI plugin requests and registrations that timed out, by plugin.', ['plugin']);
  private readonly rss = new Gauge('process_resident_memory_bytes', 'Resident memory size in bytes (VmRSS).');
  private readonly cpu = new Counter('process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.');
  private readonly openFds = new Gauge('process_open_fds', 'Number of open file descriptors.');
  private readonly maxFds = new Gauge('process_max_fds', 'Maximum number of open file descriptors.');
  private readonly startTime = new Gauge('process_start_time_seconds', 'Start time of the process since unix epoch in seconds.');
  private readonly loopDelay = new Summary('nodejs_eventloop_delay_seconds', 'Delay of the event loop since the previous scrape, in seconds.');
  private readonly families: Family[];
  private readonly delay: IntervalHistogram;

  constructor(private readonly source: MetricsSource) {
    this.families = [
      this.handled, this.handling, this.containers, this.pods, this.pulls, this.pulledBytes, this.sessionsOpen, this.sessionsStarted,
      this.nriPlugins, this.nriFailures, this.nriTimeouts, this.rss, this.cpu, this.openFds, this.maxFds, this.startTime, this.loopDelay,
    ];
    for (const kind of ['exec', 'attach', 'portforward']) {
      this.sessionsOpen.set({ kind }, 0);
      this.sessionsStarted.inc({ kind }, 0);
    }
    this.pulls.inc({ result: 'success' }, 0);
    this.pulls.inc({ result: 'failure' }, 0);
    this.startTime.set({}, Math.round((Date.now() - process.uptime() * 1000) / 1000));
    // 10 ms resolution: the sampling timer costs next to nothing at that rate.
    this.delay = monitorEventLoopDelay({ resolution: 10 });
    this.delay.enable();
  }

  /** One finished CRI call: `rpc` the method's name, `service` e.g. runtime.v1.RuntimeService. */
  observeCall(service: string, rpc: string, code: number, seconds: number, streamed = false): void {
    const grpcType = streamed ? 'server_stream' : 'unary';
    this.handled.inc({ grpc_type: grpcType, grpc_service: service, grpc_method: rpc, grpc_code: grpcCodeName(code) });
    this.handling.observe({ grpc_type: grpcType, grpc_service: service, grpc_method: rpc }, seconds);
    if (rpc === 'PullImage') this.pulls.inc({ result: code === 0 ? 'success' : 'failure' });
  }

  /** A streaming session began; call the answer when it ends. */
  sessionStarted(kind: SessionKind): () => void {
    this.sessionsStarted.inc({ kind });
    this.sessionsOpen.inc({ kind });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.sessionsOpen.dec({ kind });
    };
  }

  /** The exposition, with the scrape-time families read now. */
  async render(): Promise<string> {
    await this.collect();
    return exposition(this.families);
  }

  close(): void {
    this.delay.disable();
  }

  private async collect(): Promise<void> {
    const [containers, pods] = await Promise.all([
      this.source.containers?.().catch(() => undefined),
      this.source.pods?.().catch(() => undefined),
    ]);
    if (containers) fillStates(this.containers, containers, CONTAINER_STATES);
    if (pods) fillStates(this.pods, pods, POD_STATES);
    if (this.source.pulledBytes) this.pulledBytes.setTotal({}, this.source.pulledBytes());
    this.nriPlugins.set({}, this.source.nriPlugins?.() ?? 0);
    for (const f of this.source.nriFailures?.() ?? []) {
      this.nriFailures.setTotal({ plugin: f.plugin }, f.errors);
      this.nriTimeouts.setTotal({ plugin: f.plugin }, f.timeouts);
    }
    this.collectProcess();
    const d = this.delay;
    // The histogram is in nanoseconds; count is the number of samples (Node >= 17.4).
    const count = d.count;
    this.loopDelay.set(
      [0.5, 0.9, 0.99].map((q) => [q, count > 0 ? d.percentile(q * 100) / 1e9 : 0]),
      count > 0 ? (d.mean * count) / 1e9 : 0,
      count,
    );
    d.reset();
  }

  private collectProcess(): void {
    // RSS and CPU come from the process itself (no file to open, so they answer at the open-file
    // limit too); the descriptor figures need /proc, and a read refused there skips its figure.
    this.rss.set({}, process.memoryUsage.rss());
    const cpu = process.cpuUsage();
    this.cpu.setTotal({}, (cpu.user + cpu.system) / 1e6);
    try {
      this.openFds.set({}, readdirSync('/proc/self/fd').length);
    } catch { /* skipped */ }
    try {
      const max = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
      if (max) this.maxFds.set({}, Number(max[1]));
    } catch { /* skipped */ }
  }
}

function fillStates(gauge: Gauge, items: Array<{ state?: string | null }>, names: Record<string, string>): void {
  gauge.clear();
  for (const name of new Set(Object.values(names))) gauge.set({ state: name }, 0);
  for (const item of items) gauge.inc({ state: names[item.state ?? ''] ?? 'unknown' });
}
