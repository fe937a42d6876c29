// Pod metrics as CRI carries them: descriptors (names, label keys), container
// metrics from a cgroup reading, network metrics from /proc/<pid>/net/dev.
import { describe, expect, it } from 'vitest';
import { containerMetrics, METRIC_DESCRIPTORS, networkMetrics, parseNetDev } from '../../src/runtime/metrics/pod-metrics.js';

const NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:     100       2    0    0    0     0          0         0      100       2    0    0    0     0       0          0
  eth0: 18446744073709551615 30 1 2 0 0 0 0 4000 40 3 4 0 0 0 0
`;

describe('pod metrics', () => {
  it('describes cAdvisor-named metrics with CRI-O label keys, each name once', () => {
    const names = METRIC_DESCRIPTORS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([
      'container_cpu_usage_seconds_total', 'container_memory_usage_bytes', 'container_memory_working_set_bytes',
      'container_network_receive_bytes_total', 'container_network_transmit_bytes_total',
    ]));
    expect(METRIC_DESCRIPTORS.find((d) => d.name === 'container_memory_rss')?.labelKeys).toEqual(['id', 'name', 'image']);
    expect(METRIC_DESCRIPTORS.find((d) => d.name === 'container_network_receive_bytes_total')?.labelKeys).toEqual(['id', 'name', 'image', 'interface']);
  });

  it('turns a cgroup reading into metrics: whole seconds for CPU, gauges for memory, nothing for figures it lacks', () => {
    const out = containerMetrics({ id: 'c1', name: 'k8s_app', image: 'busybox' }, {
      cpuUsageNs: 2_500_000_000n, cpuUserNs: 1_999_999_999n, memoryUsageBytes: 4096n, memoryWorkingSetBytes: 2048n, oomKills: 0,
    }, '17');
    const byName = Object.fromEntries(out.map((m) => [m.name, m]));
    expect(Object.keys(byName).sort()).toEqual([
      'container_cpu_usage_seconds_total', 'container_cpu_user_seconds_total', 'container_memory_usage_bytes', 'container_memory_working_set_bytes', 'container_oom_events_total',
    ]);
    expect(byName.container_cpu_usage_seconds_total).toEqual({ name: 'container_cpu_usage_seconds_total', timestamp: '17', metricType: 'COUNTER', labelValues: ['c1', 'k8s_app', 'busybox'], value: { value: '2' } });
    expect(byName.container_cpu_user_seconds_total!.value).toEqual({ value: '1' });
    expect(byName.container_memory_working_set_bytes).toMatchObject({ metricType: 'GAUGE', value: { value: '2048' } });
  });

  it('parses /proc/net/dev (64-bit counters included) and reports every interface but loopback', () => {
    const devs = parseNetDev(NET_DEV);
    expect(devs.get('eth0')).toEqual({ rxBytes: 18446744073709551615n, rxPackets: 30n, rxErrors: 1n, rxDropped: 2n, txBytes: 4000n, txPackets: 40n, txErrors: 3n, txDropped: 4n });
    const out = networkMetrics({ id: 'p1', name: 'k8s_POD_x', image: 'pause' }, devs, '5');
    expect(out).toHaveLength(8);
    expect(out.every((m) => m.metricType === 'COUNTER' && m.labelValues.join() === 'p1,k8s_POD_x,pause,eth0')).toBe(true);
    expect(out.find((m) => m.name === 'container_network_receive_bytes_total')!.value).toEqual({ value: '18446744073709551615' });
    expect(out.find((m) => m.name === 'container_network_transmit_packets_dropped_total')!.value).toEqual({ value: '4' });
    expect(parseNetDev('')).toEqual(new Map());
  });
});
