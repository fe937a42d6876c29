// The metrics exposition (Prometheus text format 0.0.4) and what DaemonMetrics records, as pure logic;
// the endpoint itself, promtool and a real Prometheus are in test/integration/daemon-metrics.test.ts.
import { describe, expect, it } from 'vitest';
import { Counter, exposition, formatValue, Gauge, Histogram, labelText } from '../../src/daemon/metrics/exposition.js';
import { DaemonMetrics, grpcCodeName } from '../../src/daemon/metrics/daemon-metrics.js';
import { parseDaemonJson, resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('the exposition format', () => {
  it('writes HELP and TYPE, then one line per labelled series, escaping label values and help', () => {
    const c = new Counter('x_calls_total', 'Calls.\nSecond line with a \\ backslash.', ['method']);
    c.inc({ method: 'Run"Pod"\nSandbox\\' });
    c.inc({ method: 'Run"Pod"\nSandbox\\' }, 2);
    const text = exposition([c]);
    expect(text).toBe(
      '# HELP x_calls_total Calls.\\nSecond line with a \\\\ backslash.\n' +
        '# TYPE x_calls_total counter\n' +
        'x_calls_total{method="Run\\"Pod\\"\\nSandbox\\\\"} 3\n',
    );
  });

  it('writes cumulative histogram buckets, +Inf, _sum and _count', () => {
    const h = new Histogram('x_seconds', 'Latency.', ['m'], [0.1, 1]);
    h.observe({ m: 'a' }, 0.05);
    h.observe({ m: 'a' }, 0.5);
    h.observe({ m: 'a' }, 7);
    const text = exposition([h]);
    expect(text).toContain('x_seconds_bucket{m="a",le="0.1"} 1\n');
    expect(text).toContain('x_seconds_bucket{m="a",le="1"} 2\n');
    expect(text).toContain('x_seconds_bucket{m="a",le="+Inf"} 3\n');
    expect(text).toContain('x_seconds_sum{m="a"} 7.55\n');
    expect(text).toContain('x_seconds_count{m="a"} 3\n');
  });

  it('refuses what Prometheus would not take: bad names, counters without _total or going down, unknown labels', () => {
    expect(() => new Gauge('1bad', 'x')).toThrow(/bad metric name/);
    expect(() => new Counter('x_calls', 'x')).toThrow(/_total/);
    expect(() => new Gauge('x', 'x', ['__reserved'])).toThrow(/bad label name/);
    expect(() => new Histogram('x', 'x', ['le'], [1])).toThrow(/reserved/);
    expect(() => new Histogram('x', 'x', [], [2, 1])).toThrow(/increase/);
    const c = new Counter('x_total', 'x', ['a']);
    expect(() => c.inc({ a: '1' }, -1)).toThrow(/cannot go down/);
    expect(() => c.inc({ b: '1' })).toThrow(/no label b/);
  });

  it('formats special values and empty label sets as Prometheus does', () => {
    expect(formatValue(Infinity)).toBe('+Inf');
    expect(formatValue(-Infinity)).toBe('-Inf');
    expect(formatValue(Number.NaN)).toBe('NaN');
    expect(formatValue(0.25)).toBe('0.25');
    expect(labelText({})).toBe('');
  });
});

describe('DaemonMetrics', () => {
  it('counts CRI calls by method and code under go-grpc-prometheus names, pulls by result, and reads the engine at scrape time', async () => {
    const m = new DaemonMetrics({
      containers: async () => [{ state: 'CONTAINER_RUNNING' }, { state: 'CONTAINER_RUNNING' }, { state: 'CONTAINER_EXITED' }],
      pods: async () => [{ state: 'SANDBOX_READY' }],
      pulledBytes: () => 4096,
      nriPlugins: () => 2,
      nriFailures: () => [{ plugin: '10-logger', errors: 1, timeouts: 3 }],
    });
    try {
      m.observeCall('runtime.v1.RuntimeService', 'RunPodSandbox', 0, 0.3);
      m.observeCall('runtime.v1.RuntimeService', 'RunPodSandbox', 5, 0.001);
      m.observeCall('runtime.v1.ImageService', 'PullImage', 0, 2);
      m.observeCall('runtime.v1.ImageService', 'PullImage', 2, 0.1);
      m.observeCall('runtime.v1.RuntimeService', 'StreamContainers', 0, 0.01, true);
      const endExec = m.sessionStarted('exec');
      m.sessionStarted('portforward');
      endExec();
      endExec(); // once only
      const text = await m.render();
      const svc = 'grpc_service="runtime.v1.RuntimeService"';
      expect(sample(text, `grpc_server_handled_total{grpc_type="unary",${svc},grpc_method="RunPodSandbox",grpc_code="OK"}`)).toBe(1);
      expect(sample(text, `grpc_server_handled_total{grpc_type="unary",${svc},grpc_method="RunPodSandbox",grpc_code="NotFound"}`)).toBe(1);
      expect(sample(text, `grpc_server_handled_total{grpc_type="server_stream",${svc},grpc_method="StreamContainers",grpc_code="OK"}`)).toBe(1);
      expect(sample(text, `grpc_server_handling_seconds_bucket{grpc_type="unary",${svc},grpc_method="RunPodSandbox",le="0.005"}`)).toBe(1);
      expect(sample(text, `grpc_server_handling_seconds_count{grpc_type="unary",${svc},grpc_method="RunPodSandbox"}`)).toBe(2);
      expect(sample(text, 'isulats_image_pulls_total{result="success"}')).toBe(1);
      expect(sample(text, 'isulats_image_pulls_total{result="failure"}')).toBe(1);
      expect(sample(text, 'isulats_image_pulled_bytes_total')).toBe(4096);
      expect(sample(text, 'isulats_containers{state="running"}')).toBe(2);
      expect(sample(text, 'isulats_containers{state="exited"}')).toBe(1);
      expect(sample(text, 'isulats_containers{state="created"}')).toBe(0);
      expect(sample(text, 'isulats_pod_sandboxes{state="ready"}')).toBe(1);
      expect(sample(text, 'isulats_pod_sandboxes{state="notready"}')).toBe(0);
      expect(sample(text, 'isulats_streaming_sessions{kind="exec"}')).toBe(0);
      expect(sample(text, 'isulats_streaming_sessions{kind="portforward"}')).toBe(1);
      expect(sample(text, 'isulats_streaming_sessions_started_total{kind="exec"}')).toBe(1);
      expect(sample(text, 'isulats_nri_plugins')).toBe(2);
      expect(sample(text, 'isulats_nri_plugin_failures_total{plugin="10-logger"}')).toBe(1);
      expect(sample(text, 'isulats_nri_plugin_timeouts_total{plugin="10-logger"}')).toBe(3);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(1024 * 1024);
      expect(sample(text, 'process_open_fds')).toBeGreaterThan(2);
      expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
      expect(text).toMatch(/^nodejs_eventloop_delay_seconds\{quantile="0\.99"\} /m);
      expect(text).toMatch(/^nodejs_eventloop_delay_seconds_count \d+$/m);
    } finally {
      m.close();
    }
  });

  it('answers a scrape when the engine cannot list (its families are left out, the rest stays)', async () => {
    const m = new DaemonMetrics({ containers: async () => Promise.reject(new Error('EMFILE')) });
    try {
      const text = await m.render();
      expect(text).not.toMatch(/^isulats_containers\{/m);
      expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
    } finally {
      m.close();
    }
  });

  it('spells gRPC codes as go-grpc-prometheus does', () => {
    expect([0, 4, 5, 13, 14].map(grpcCodeName)).toEqual(['OK', 'DeadlineExceeded', 'NotFound', 'Internal', 'Unavailable']);
  });
});

describe('metrics-address', () => {
  it('is off by default, read from daemon.json, overridden by the flag, and refused when malformed', () => {
    expect(resolveDaemonConfig({}).metricsAddress).toBeUndefined();
    expect(resolveDaemonConfig(parseDaemonJson('{"metrics-address": "127.0.0.1:9090"}')).metricsAddress).toBe('127.0.0.1:9090');
    expect(resolveDaemonConfig(parseDaemonJson('{"metrics-address": "[::1]:9090"}'), { metricsAddress: 'localhost:1338' }).metricsAddress).toBe('localhost:1338');
    expect(() => parseDaemonJson('{"metrics-address": "9090"}')).toThrow(/"metrics-address": expected host:port/);
    expect(() => parseDaemonJson('{"metrics-address": "127.0.0.1:70000"}')).toThrow(/expected host:port/);
    expect(() => resolveDaemonConfig({}, { metricsAddress: 'http://x:1' })).toThrow(/"--metrics-address": expected host:port/);
  });
});
