// `isulats daemon --metrics-address`: the /metrics endpoint of a real daemon after a kubelet-shaped
// pod's calls, checked by Debian's promtool and scraped by a real Prometheus server whose HTTP API
// then answers a query for one of our series. Off by default: no port without the setting.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../rig/cli.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { freePort } from '../rig/free-port.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { stopPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** A GET on a connection of its own (fetch would reuse a pooled one, which the server may have closed meanwhile). */
function scrapeOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('daemon metrics', () => {
  let dir: string;
  let daemon: IsulatsDaemon;
  let cri: RawCriClient;
  let url: string;
  let prometheus: ChildProcess | undefined;

  beforeAll(async () => {
    dir = await makeTempDir('ist-met-');
    const port = await freePort();
    url = `http://127.0.0.1:${port}/metrics`;
    daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE, extraConfig: { 'metrics-address': `127.0.0.1:${port}` } });
    cri = openCriClient(daemon.endpoint);
  });

  afterAll(async () => {
    if (prometheus?.pid) await stopPid(prometheus.pid);
    cri?.close();
    await daemon?.cleanup();
    if (dir) await removeTempDir(dir);
  });

  it('serves the CRI calls, pods, containers and pulls of a pod lifecycle, and promtool accepts the exposition', async () => {
    const image = rigEnv().ISULATS_TEST_BUSYBOX;
    await cri.image('PullImage', { image: { image } }, 60_000);
    const uid = randomUUID();
    const pod = {
      metadata: { name: `metrics-${uid.slice(0, 8)}`, uid, namespace: 'metrics', attempt: 0 },
      linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
    };
    const { podSandboxId } = await cri.runtime('RunPodSandbox', { config: pod }, 60_000);
    const { containerId } = await cri.runtime('CreateContainer', { podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'app' }, image: { image }, command: ['sleep', '600'] } }, 60_000);
    await cri.runtime('StartContainer', { containerId });
    await expect(cri.runtime('ContainerStatus', { containerId: 'f'.repeat(64) })).rejects.toMatchObject({ code: 5 });

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    const runtime = 'grpc_service="runtime.v1.RuntimeService"';
    expect(value(text, `grpc_server_handled_total{grpc_type="unary",${runtime},grpc_method="RunPodSandbox",grpc_code="OK"}`)).toBe(1);
    expect(value(text, `grpc_server_handled_total{grpc_type="unary",${runtime},grpc_method="ContainerStatus",grpc_code="NotFound"}`)).toBe(1);
    expect(value(text, `grpc_server_handling_seconds_count{grpc_type="unary",${runtime},grpc_method="StartContainer"}`)).toBe(1);
    expect(value(text, 'isulats_image_pulls_total{result="success"}')).toBe(1);
    expect(value(text, 'isulats_image_pulled_bytes_total')).toBeGreaterThan(100_000);
    expect(value(text, 'isulats_pod_sandboxes{state="ready"}')).toBe(1);
    expect(value(text, 'isulats_containers{state="running"}')).toBe(1);
    expect(value(text, 'isulats_nri_plugins')).toBe(0);
    expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);

    // promtool reads the exposition from stdin and lints names, units, HELP and TYPE.
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
    expect(lint.status).toBe(0);

    // Anything but GET/HEAD /metrics is refused.
    expect((await fetch(url.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(url, { method: 'POST', body: 'x' })).status).toBe(405);

    // An exec over the streaming server: started once, open no more once it ended.
    const exec = await runCli(['-r', daemon.endpoint, 'exec', containerId, 'echo', 'counted']);
    expect(exec.stdout.trim()).toBe('counted');
    // The client has its status before the session's last clean-up: the gauge drops right after.
    const streamed = await waitFor(async () => {
      const t = await (await fetch(url)).text();
      return value(t, 'isulats_streaming_sessions{kind="exec"}') === 0 ? t : undefined;
    }, { timeoutMs: 10_000, what: 'the exec session to be counted as ended' });
    expect(value(streamed, 'isulats_streaming_sessions_started_total{kind="exec"}')).toBe(1);

    await cri.runtime('StopPodSandbox', { podSandboxId });
    await cri.runtime('RemovePodSandbox', { podSandboxId });
    const after = await (await fetch(url)).text();
    expect(value(after, 'isulats_pod_sandboxes{state="ready"}')).toBe(0);
    expect(value(after, 'isulats_containers{state="running"}')).toBe(0);
  });

  it('serves a scrape while 20 half-open connections hold every place, and closes those connections itself', async () => {
    const { hostname, port } = new URL(url);
    // Each sends the start of a request head and then nothing: 20 against the 16 places.
    const held = await Promise.all(Array.from({ length: 20 }, async () => {
      const socket = net.connect(Number(port), hostname);
      socket.on('error', () => undefined);
      await once(socket, 'connect');
      socket.write('GET /metrics HTTP/1.1\r\nHost: metrics\r\n');
      const closed = once(socket, 'close').then(() => true);
      return { socket, closed };
    }));
    // A scraper gets its answer while they are held: a new connection takes the oldest silent one's place.
    const res = await scrapeOnNewConnection(url);
    expect(res.status).toBe(200);
    expect(value(res.body, 'isulats_nri_plugins')).toBe(0);
    // The rest are closed by the server (their head never completes), not by us.
    await Promise.all(held.map((h) => h.closed));
    expect(held.every((h) => h.socket.destroyed)).toBe(true);
    // And scrapes go on.
    expect((await scrapeOnNewConnection(url)).status).toBe(200);
  }, 60_000);

  it('is scraped by a real Prometheus server, which answers a query for our series', async () => {
    const promPort = await freePort();
    const target = new URL(url).host;
    await writeFile(join(dir, 'prometheus.yml'), [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: isulats',
      `    static_configs: [{ targets: ["${target}"] }]`,
      '',
    ].join('\n'));
    prometheus = spawn('prometheus', [
      `--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn',
    ], { stdio: 'ignore' });
    const query = `http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent('grpc_server_handled_total{grpc_method="RunPodSandbox",grpc_code="OK"}')}`;
    const result = await waitFor(async () => {
      const body = await fetch(query).then((r) => r.json() as Promise<{ status: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }>).catch(() => undefined);
      return body?.status === 'success' && body.data.result.length > 0 ? body.data.result : undefined;
    }, { timeoutMs: 60_000, intervalMs: 500, what: 'Prometheus to scrape the daemon' });
    expect(result[0]!.metric).toMatchObject({ job: 'isulats', instance: target, grpc_service: 'runtime.v1.RuntimeService' });
    expect(Number(result[0]!.value[1])).toBe(1);
    const up = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=up`).then((r) => r.json() as Promise<{ data: { result: Array<{ value: [number, string] }> } }>);
    expect(up.data.result[0]!.value[1]).toBe('1');
  });
});
