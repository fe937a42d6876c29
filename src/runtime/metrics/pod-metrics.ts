// CRI pod metrics (ListMetricDescriptors, ListPodSandboxMetrics) under
// cAdvisor's names, as CRI-O serves them, so kubelet's /metrics/cadvisor
// can come from the runtime. Container metrics come from each running
// container's cgroup (v1 or v2, through the OCI runtime's stats); network
// metrics are the pod's, per interface, from /proc/<pid>/net/dev of a process
// in the pod's network namespace (that file shows the namespace of the process
// it belongs to): the pause, or in a pod without one, a running container.
// Label keys are CRI-O's: id, name, image (+ interface for network).
// A Metric's value is a UInt64: seconds are whole seconds.
import { readFile, stat } from 'node:fs/promises';
import type * as cri from '../../api/cri.js';
import type { CgroupStats } from '../oci/cgroups.js';
import type { EngineContext } from '../engine-context.js';
import type { SandboxRecord } from '../sandbox/sandbox-record.js';
import type { ContainerRecord } from '../container/container-record.js';
import { nowNs } from '../container/cri-values.js';

type MetricType = 'COUNTER' | 'GAUGE';

interface ContainerMetricDef {
  name: string;
  help: string;
  type: MetricType;
  value: (s: CgroupStats) => bigint | undefined;
}

const seconds = (ns: bigint | undefined) => (ns === undefined ? undefined : ns / 1_000_000_000n);

const CONTAINER_METRICS: ContainerMetricDef[] = [
  { name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed in seconds.', type: 'COUNTER', value: (s) => seconds(s.cpuUsageNs) },
  { name: 'container_cpu_user_seconds_total', help: 'Cumulative user cpu time consumed in seconds.', type: 'COUNTER', value: (s) => seconds(s.cpuUserNs) },
  { name: 'container_cpu_system_seconds_total', help: 'Cumulative system cpu time consumed in seconds.', type: 'COUNTER', value: (s) => seconds(s.cpuSystemNs) },
  { name: 'container_memory_usage_bytes', help: 'Current memory usage in bytes, including all memory regardless of when it was accessed', type: 'GAUGE', value: (s) => s.memoryUsageBytes },
  { name: 'container_memory_working_set_bytes', help: 'Current working set in bytes.', type: 'GAUGE', value: (s) => s.memoryWorkingSetBytes },
  { name: 'container_memory_rss', help: 'Size of RSS in bytes.', type: 'GAUGE', value: (s) => s.memoryRssBytes },
  { name: 'container_memory_cache', help: 'Number of bytes of page cache memory.', type: 'GAUGE', value: (s) => s.memoryCacheBytes },
  { name: 'container_oom_events_total', help: 'Count of out of memory events observed for the container', type: 'COUNTER', value: (s) => (s.oomKills === undefined ? undefined : BigInt(s.oomKills)) },
];

/** One interface's counters from /proc/<pid>/net/dev. */
export interface NetDevCounters {
  rxBytes: bigint;
  rxPackets: bigint;
  rxErrors: bigint;
  rxDropped: bigint;
  txBytes: bigint;
  txPackets: bigint;
  txErrors: bigint;
  txDropped: bigint;
}

interface NetworkMetricDef {
  name: string;
  help: string;
  value: (c: NetDevCounters) => bigint;
}

const NETWORK_METRICS: NetworkMetricDef[] = [
  { name: 'container_network_receive_bytes_total', help: 'Cumulative count of bytes received', value: (c) => c.rxBytes },
  { name: 'container_network_receive_packets_total', help: 'Cumulative count of packets received', value: (c) => c.rxPackets },
  { name: 'container_network_receive_errors_total', help: 'Cumulative count of errors encountered while receiving', value: (c) => c.rxErrors },
  { name: 'container_network_receive_packets_dropped_total', help: 'Cumulative count of packets dropped while receiving', value: (c) => c.rxDropped },
  { name: 'container_network_transmit_bytes_total', help: 'Cumulative count of bytes transmitted', value: (c) => c.txBytes },
  { name: 'container_network_transmit_packets_total', help: 'Cumulative count of packets transmitted', value: (c) => c.txPackets },
  { name: 'container_network_transmit_errors_total', help: 'Cumulative count of errors encountered while transmitting', value: (c) => c.txErrors },
  { name: 'container_network_transmit_packets_dropped_total', help: 'Cumulative count of packets dropped while transmitting', value: (c) => c.txDropped },
];

const LABELS = ['id', 'name', 'image'];
const NETWORK_LABELS = [...LABELS, 'interface'];

export const METRIC_DESCRIPTORS: cri.MetricDescriptor[] = [
  ...CONTAINER_METRICS.map((m) => ({ name: m.name, help: m.help, labelKeys: LABELS })),
  ...NETWORK_METRICS.map((m) => ({ name: m.name, help: m.help, labelKeys: NETWORK_LABELS })),
];

/** Who a metric is about: the values of id, name, image. */
export interface MetricSubject {
  id: string;
  name: string;
  image: string;
}

const metric = (name: string, type: MetricType, timestamp: string, labelValues: string[], value: bigint): cri.Metric => ({
  name,
  timestamp,
  metricType: type,
  labelValues,
  value: { value: value.toString() },
});

/** The container metrics of one cgroup reading; a figure the cgroup does not give is left out. */
export function containerMetrics(subject: MetricSubject, stats: CgroupStats, timestamp: string): cri.Metric[] {
  const labels = [subject.id, subject.name, subject.image];
  const out: cri.Metric[] = [];
  for (const def of CONTAINER_METRICS) {
    const value = def.value(stats);
    if (value !== undefined) out.push(metric(def.name, def.type, timestamp, labels, value));
  }
  return out;
}

/** The pod's network metrics, per interface (loopback left out, as cAdvisor does). */
export function networkMetrics(subject: MetricSubject, devices: Map<string, NetDevCounters>, timestamp: string): cri.Metric[] {
  const out: cri.Metric[] = [];
  for (const [iface, counters] of devices) {
    if (iface === 'lo') continue;
    for (const def of NETWORK_METRICS) out.push(metric(def.name, 'COUNTER', timestamp, [subject.id, subject.name, subject.image, iface], def.value(counters)));
  }
  return out;
}

/** Parses /proc/net/dev: two header lines, then "iface: 16 counters" (8 receive, 8 transmit). */
export function parseNetDev(text: string): Map<string, NetDevCounters> {
  const devices = new Map<string, NetDevCounters>();
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const f = line.slice(colon + 1).trim().split(/\s+/).map((v) => BigInt(v));
    if (f.length < 16) continue;
    devices.set(line.slice(0, colon).trim(), {
      rxBytes: f[0]!, rxPackets: f[1]!, rxErrors: f[2]!, rxDropped: f[3]!,
      txBytes: f[8]!, txPackets: f[9]!, txErrors: f[10]!, txDropped: f[11]!,
    });
  }
  return devices;
}

/** The interfaces of the network namespace `pid` lives in; empty when the process is gone. */
export async function readNetDev(pid: number): Promise<Map<string, NetDevCounters>> {
  if (pid <= 0) return new Map();
  return parseNetDev(await readFile(`/proc/${pid}/net/dev`, 'utf8').catch(() => ''));
}

/**
 * The process whose /proc/<pid>/net/dev shows the pod's network namespace: the pause, or (a pod
 * without one) a running container that joined the pinned namespace (same nsfs inode). Node
 * cannot enter a namespace itself, and a process spawned per scrape would cost more than it tells:
 * a pod with no running container has no traffic of its own to report.
 */
export async function podNetnsPid(sandbox: SandboxRecord, running: ContainerRecord[]): Promise<number> {
  if (sandbox.pid > 0 || !sandbox.netnsPath) return sandbox.pid;
  const pinned = await stat(sandbox.netnsPath).catch(() => undefined);
  if (!pinned) return 0;
  for (const r of running) {
    if (r.pid <= 0) continue;
    const ns = await stat(`/proc/${r.pid}/ns/net`).catch(() => undefined);
    if (ns && ns.ino === pinned.ino && ns.dev === pinned.dev) return r.pid;
  }
  return 0;
}

/**
 * One pod's metrics: the cgroup figures of its running containers (`running`,
 * states freshly checked), and the pod's network (none for host-network
 * pods: those counters are the node's).
 */
export async function collectPodMetrics(ctx: EngineContext, sandbox: SandboxRecord, running: ContainerRecord[]): Promise<cri.PodSandboxMetrics> {
  const timestamp = nowNs();
  const perContainer: cri.ContainerMetrics[] = [];
  for (const r of running) {
    // A container that just exited has no cgroup left: it has no metrics either.
    const stats = await ctx.oci.stats(r.cgroupsPath).catch(() => undefined);
    if (stats) perContainer.push({ containerId: r.id, metrics: containerMetrics({ id: r.id, name: r.name, image: r.imageName || r.imageRef }, stats, timestamp) });
  }
  const network = sandbox.namespaces.network === 'NODE' ? [] : networkMetrics({ id: sandbox.id, name: sandbox.name, image: ctx.pauseImage }, await readNetDev(await podNetnsPid(sandbox, running)), timestamp);
  return { podSandboxId: sandbox.id, metrics: network, containerMetrics: perContainer };
}
