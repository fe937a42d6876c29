// The daemon serving the embedded engine (real runc, conmon, CNI, cgroup v1)
// for the runtime.v1 RPCs containerd 1.6 lacks, so they cannot be proxied in
// daemon-grpc.test.ts: UpdatePodSandboxResources, the Stream* list variants,
// the pod metrics, and checkpoint/restore's Unimplemented answer. Clients: RemoteBackend (what the CLI uses) and raw
// grpc-js calls where the gRPC code itself is the point.
import { existsSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCriServices } from '../../src/api/proto.js';
import { EmbeddedBackend } from '../../src/client/embedded.js';
import { RemoteBackend } from '../../src/client/remote.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';
import { runCli } from '../rig/cli.js';
import { waitFor } from '../rig/wait.js';
import { BUSYBOX_REF, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';
import { criuProblem } from '../../src/runtime/oci/criu.js';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';

const criuFails = (await criuProblem(new ProcessRunner())) !== undefined;

interface Answer { code: number; details?: string; res?: any }

async function rawCall(socket: string, service: 'RuntimeService' | 'ImageService', method: string, req: object): Promise<Answer> {
  const svc = await loadCriServices('v1');
  return new Promise((resolve) => {
    const client = new (svc[service] as any)(`unix://${socket}`, grpc.credentials.createInsecure());
    client[method](req, { deadline: Date.now() + 20_000 }, (err: grpc.ServiceError | null, res: any) => {
      client.close();
      resolve(err ? { code: err.code, details: err.details } : { code: 0, res });
    });
  });
}

/** All responses of a server-streaming call (rejects with its gRPC error). */
async function streamAll(socket: string, service: 'RuntimeService' | 'ImageService', method: string, req: object): Promise<any[]> {
  const svc = await loadCriServices('v1');
  const client = new (svc[service] as any)(`unix://${socket}`, grpc.credentials.createInsecure());
  const out: any[] = [];
  try {
    for await (const r of client[method](req, { deadline: Date.now() + 20_000 })) out.push(r);
    return out;
  } finally {
    client.close();
  }
}

describe('isulats daemon over the embedded engine: runtime.v1 beyond containerd 1.6', () => {
  let fx: RuntimeFixture;
  let daemon: Daemon;
  let socket: string;
  let client: RemoteBackend;
  let podId = '';
  let containerId = '';
  const podParent = () => `${fx.options.cgroupParent}/pod-dce`;

  beforeAll(async () => {
    fx = await openFixture();
    socket = join(fx.dir, 'd.sock');
    const config = resolveDaemonConfig({}, { socket, pidfile: join(fx.dir, 'd.pid'), root: fx.options.root, state: fx.options.state });
    daemon = await startDaemon({
      config: { ...config, websocketServerListeningPort: 0 },
      backendFactory: async () => new EmbeddedBackend(fx.engine, `embedded (${fx.options.root})`) as never,
      log: createLogger('error', () => undefined),
      shutdownGraceMs: 5_000,
    });
    client = new RemoteBackend({ runtimeEndpoint: `unix://${socket}`, timeoutMs: 60_000 });
    const config1 = podConfig('dce', { labels: { suite: 'dce' }, linux: { cgroupParent: podParent() } });
    podId = (await client.runPodSandbox({ config: config1 })).podSandboxId;
    containerId = (await client.createContainer({
      podSandboxId: podId,
      config: { metadata: { name: 'busy' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], labels: { role: 'busy' } },
      sandboxConfig: config1,
    })).containerId;
    await client.startContainer({ containerId });
  }, 120_000);

  afterAll(async () => {
    if (podId) await client?.removePodSandbox({ podSandboxId: podId }).catch(() => undefined);
    await client?.close();
    await daemon?.stop();
    for (const controller of readdirSync('/sys/fs/cgroup')) {
      try {
        rmdirSync(join('/sys/fs/cgroup', controller, podParent()));
      } catch {
        // not in this hierarchy
      }
    }
    await fx?.dispose();
  }, 120_000);

  describe('Stream* list variants', () => {
    const ids = (responses: any[], field: string, key = 'id') => responses.flatMap((r) => r[field]).map((x: any) => (key === 'id' ? x.id : x.attributes.id));

    it('streams the pods, containers and images the list calls return, filter included', async () => {
      const pods = await streamAll(socket, 'RuntimeService', 'StreamPodSandboxes', { filter: { labelSelector: { suite: 'dce' } } });
      expect(ids(pods, 'podSandboxes')).toEqual([podId]);
      expect(pods[0].podSandboxes[0]).toMatchObject({ state: 'SANDBOX_READY', labels: { suite: 'dce' } });
      expect(await streamAll(socket, 'RuntimeService', 'StreamPodSandboxes', { filter: { labelSelector: { suite: 'none' } } })).toEqual([]);

      const containers = await streamAll(socket, 'RuntimeService', 'StreamContainers', { filter: { podSandboxId: podId, state: { state: 'CONTAINER_RUNNING' } } });
      expect(ids(containers, 'containers')).toEqual([containerId]);
      expect(containers[0].containers[0]).toMatchObject({ labels: { role: 'busy' }, state: 'CONTAINER_RUNNING' });

      const images = await streamAll(socket, 'ImageService', 'StreamImages', {});
      const listed = await client.listImages({});
      expect(ids(images, 'images').sort()).toEqual(listed.images.map((i: { id: string }) => i.id).sort());
      expect(images.flatMap((r) => r.images.flatMap((i: any) => i.repoTags))).toContain(`docker.io/${BUSYBOX_REF}`);
    });

    it('streams container and pod stats with live cgroup figures', async () => {
      const cstats = await streamAll(socket, 'RuntimeService', 'StreamContainerStats', { filter: { podSandboxId: podId } });
      expect(ids(cstats, 'containerStats', 'attributes')).toEqual([containerId]);
      expect(BigInt(cstats[0].containerStats[0].memory.workingSetBytes.value)).toBeGreaterThan(0n);
      const pstats = await streamAll(socket, 'RuntimeService', 'StreamPodSandboxStats', { filter: { id: podId } });
      expect(ids(pstats, 'podSandboxStats', 'attributes')).toEqual([podId]);
      expect(pstats[0].podSandboxStats[0].linux.containers.map((c: any) => c.attributes.id)).toEqual([containerId]);
    });

    it('ends a stream that matches nothing with no response, and refuses an unknown enum value', async () => {
      expect(await streamAll(socket, 'RuntimeService', 'StreamContainers', { filter: { id: 'f'.repeat(64) } })).toEqual([]);
      const err = await streamAll(socket, 'RuntimeService', 'StreamContainers', { filter: { state: { state: 7 } } }).catch((e) => e);
      expect(err).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    });
  });

  describe('pod metrics', () => {
    const value = (metrics: any[], name: string) => metrics.find((m) => m.name === name);

    it('describes each metric it reports, with label values matching the label keys', async () => {
      const { descriptors } = (await rawCall(socket, 'RuntimeService', 'ListMetricDescriptors', {})).res;
      const keys = new Map<string, string[]>(descriptors.map((d: any) => [d.name, d.labelKeys]));
      const { podMetrics } = (await rawCall(socket, 'RuntimeService', 'ListPodSandboxMetrics', {})).res;
      const all = podMetrics.flatMap((p: any) => [...p.metrics, ...p.containerMetrics.flatMap((c: any) => c.metrics)]);
      expect(all.length).toBeGreaterThan(0);
      for (const m of all) expect(m.labelValues, m.name).toHaveLength(keys.get(m.name)!.length);
    });

    it('leaves out a container that has exited', async () => {
      const { containerId: brief } = await client.createContainer({
        podSandboxId: podId,
        config: { metadata: { name: 'brief' }, image: { image: BUSYBOX_REF }, command: ['true'] },
        sandboxConfig: podConfig('dce', { labels: { suite: 'dce' }, linux: { cgroupParent: podParent() } }),
      });
      try {
        await client.startContainer({ containerId: brief });
        // Nothing else looks at it: the metrics call itself must notice the exit (its cgroup outlives the process).
        const ids = async () => (await client.listPodSandboxMetrics({})).podMetrics.find((p: any) => p.podSandboxId === podId)!.containerMetrics.map((c: any) => c.containerId);
        await waitFor(async () => (await ids()).join() === containerId, { timeoutMs: 20_000, what: 'metrics without the exited container' });
        expect((await client.containerStatus({ containerId: brief })).status?.state).toBe('CONTAINER_EXITED');
      } finally {
        await client.removeContainer({ containerId: brief });
      }
    });

    it('reports the running container\'s cgroup figures and the pod\'s eth0 traffic', async () => {
      // Traffic of our own over the bridge: a SYN to a closed port of the pod, answered by a reset.
      const ip = (await client.podSandboxStatus({ podSandboxId: podId })).status!.network!.ip;
      const refused = await new Promise<string>((resolve) => {
        const socket = netConnect({ host: ip, port: 9 }, () => resolve('connected'));
        socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      });
      expect(refused).toBe('ECONNREFUSED');
      const { podMetrics } = await client.listPodSandboxMetrics({});
      const pod = podMetrics.find((p: any) => p.podSandboxId === podId)!;
      expect(pod.containerMetrics.map((c: any) => c.containerId)).toEqual([containerId]);
      const metrics = pod.containerMetrics[0]!.metrics;
      expect(value(metrics, 'container_memory_working_set_bytes')).toMatchObject({ metricType: 'GAUGE', labelValues: [containerId, expect.stringMatching(/^k8s_busy_dce_/), `docker.io/${BUSYBOX_REF}`] });
      expect(BigInt(value(metrics, 'container_memory_usage_bytes').value.value)).toBeGreaterThan(0n);
      expect(value(metrics, 'container_cpu_usage_seconds_total').metricType).toBe('COUNTER');
      const rx = value(pod.metrics, 'container_network_receive_bytes_total');
      expect(rx).toMatchObject({ metricType: 'COUNTER', labelValues: [podId, expect.stringMatching(/^k8s_POD_dce_/), expect.any(String), 'eth0'] });
      expect(BigInt(rx.value.value)).toBeGreaterThan(0n);
      expect(pod.metrics.some((m: any) => m.labelValues[3] === 'lo')).toBe(false);
    });

    it('streams the same pods through StreamPodSandboxMetrics', async () => {
      const streamed = await streamAll(socket, 'RuntimeService', 'StreamPodSandboxMetrics', {});
      expect(streamed.flatMap((r) => r.podSandboxMetrics).map((p: any) => p.podSandboxId)).toEqual([podId]);
    });

    it('prints them with the crictl verbs metricdescs and metricsp', async () => {
      const descs = await runCli(['-r', `unix://${socket}`, 'metricdescs']);
      expect(descs.code, descs.stderr).toBe(0);
      expect(JSON.parse(descs.stdout).descriptors[0]).toEqual({ name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed in seconds.', labelKeys: ['id', 'name', 'image'] });
      const yaml = await runCli(['-r', `unix://${socket}`, 'metricdescs', '-o', 'yaml']);
      expect(yaml.stdout).toMatch(/^descriptors:\n- help: Cumulative cpu time consumed in seconds\.\n  labelKeys:\n  - id\n/);
      const pods = await runCli(['-r', `unix://${socket}`, 'metricsp', '-o', 'json']);
      expect(pods.code, pods.stderr).toBe(0);
      const doc = JSON.parse(pods.stdout);
      expect(doc.podMetrics.map((p: any) => p.podSandboxId)).toEqual([podId]);
      expect(doc.podMetrics[0].containerMetrics[0].metrics[0]).toMatchObject({ name: 'container_cpu_usage_seconds_total', metricType: 'COUNTER', value: { value: expect.stringMatching(/^\d+$/) } });
      const bad = await runCli(['-r', `unix://${socket}`, 'metricsp', '-o', 'table']);
      expect(bad.code).toBe(1);
    });
  });

  it.skipIf(!criuFails)('answers checkpoint and restore with Unimplemented and the reason CRIU cannot serve them', async () => {
    for (const [method, req] of [
      ['CheckpointContainer', { containerId, location: join(fx.dir, 'ckpt.tar') }],
      ['CheckpointPod', { podSandboxId: podId, outputPath: join(fx.dir, 'pod-ckpt') }],
      ['RestorePod', { checkpointPath: join(fx.dir, 'pod-ckpt') }],
    ] as const) {
      const a = await rawCall(socket, 'RuntimeService', method, req);
      expect(a.code, method).toBe(grpc.status.UNIMPLEMENTED);
      // Two hosts, two answers: no criu at all, or a criu that fails its own check (e.g. the vDSO
      // layout of some sandboxes). Where CRIU runs, the guest suite checkpoints for real.
      expect(a.details).toMatch(new RegExp(`^${method}: checkpoint needs CRIU, which cannot run on this host: (criu is not installed|criu check failed: .+)$`));
    }
    expect((await client.containerStatus({ containerId })).status?.state).toBe('CONTAINER_RUNNING');
    // The CLI verbs: one line with the reason, exit 1, nothing written or made.
    const archive = join(fx.dir, 'cli-ckpt.tar');
    const ckpt = await runCli(['-r', `unix://${socket}`, 'checkpoint', '--export', archive, containerId]);
    expect(ckpt.code).toBe(1);
    expect(ckpt.stderr.trim()).toMatch(new RegExp(`^isulats: checkpointing the container "${containerId}": CheckpointContainer: checkpoint needs CRIU, which cannot run on this host: .+$`));
    expect(existsSync(archive)).toBe(false);
    writeFileSync(archive, 'an archive');
    const before = (await client.listContainers({})).containers.length;
    const restore = await runCli(['-r', `unix://${socket}`, 'restore', '--name', 'restored', podId, archive]);
    expect(restore.code).toBe(1);
    expect(restore.stderr.trim()).toMatch(new RegExp(`^isulats: restoring from ${archive}: restoring from checkpoint ${archive}: checkpoint needs CRIU, which cannot run on this host: .+$`));
    expect((await client.listContainers({})).containers.length).toBe(before);
  });

  describe('UpdatePodSandboxResources', () => {
    it('applies the pod resources through a remote client', async () => {
      await client.updatePodSandboxResources({ podSandboxId: podId, resources: { cpuShares: '768', memoryLimitInBytes: String(200 * 1024 * 1024) }, overhead: { cpuShares: '256' } });
      expect(readFileSync(join('/sys/fs/cgroup/cpu', podParent(), 'cpu.shares'), 'utf8').trim()).toBe('1024');
      expect(readFileSync(join('/sys/fs/cgroup/memory', podParent(), 'memory.limit_in_bytes'), 'utf8').trim()).toBe(String(200 * 1024 * 1024));
    });

    it('answers NotFound, InvalidArgument and FailedPrecondition with their gRPC codes', async () => {
      expect((await rawCall(socket, 'RuntimeService', 'UpdatePodSandboxResources', { podSandboxId: 'f'.repeat(64), resources: { cpuShares: 512 } })).code).toBe(grpc.status.NOT_FOUND);
      const empty = await rawCall(socket, 'RuntimeService', 'UpdatePodSandboxResources', { podSandboxId: '' });
      expect(empty).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, details: 'pod sandbox ID must not be empty' });
      const bad = await rawCall(socket, 'RuntimeService', 'UpdatePodSandboxResources', { podSandboxId: podId, overhead: { cpuPeriod: 5 } });
      expect(bad.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(bad.details).toMatch(/^overhead\.cpu_period must be 0 \(unset\) or between 1000 and 1000000/);
      const { podSandboxId } = await client.runPodSandbox({ config: podConfig('dce-shared') });
      try {
        const shared = await rawCall(socket, 'RuntimeService', 'UpdatePodSandboxResources', { podSandboxId, resources: { cpuShares: 512 } });
        expect(shared.code).toBe(grpc.status.FAILED_PRECONDITION);
      } finally {
        await client.removePodSandbox({ podSandboxId });
      }
    });
  });
});
