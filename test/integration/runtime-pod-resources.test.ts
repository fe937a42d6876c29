// UpdatePodSandboxResources in the engine, with real runc/conmon/CNI and
// cgroup v1: the pod's own cgroup takes resources + overhead, the pod record
// keeps them, a pre-installed NRI plugin hears UpdatePodSandbox and
// PostUpdatePodSandbox, and refused requests change nothing.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/runtime/engine.js';
import { BUSYBOX_REF, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MiB = 1024 * 1024;

// Logs the pod-update events (with what they carry) as JSON lines to $POD_EVENTS.
const WATCHER = `
import { appendFileSync } from 'node:fs';
import { runPlugin } from './src/nri/sdk/index.js';
const log = (o) => appendFileSync(process.env.POD_EVENTS, JSON.stringify(o) + '\\n');
await runPlugin({
  updatePodSandbox: (pod, overhead, resources) => log({ event: 'UpdatePodSandbox', pod: pod.name, overhead, resources }),
  postUpdatePodSandbox: (pod) => log({ event: 'PostUpdatePodSandbox', pod: pod.name, podResources: pod.linux?.podResources }),
}, { name: 'podwatch', idx: '60' });
`;

describe('UpdatePodSandboxResources in the engine', () => {
  let fx: RuntimeFixture;
  let engine: Engine;
  let eventsFile: string;
  const podCgroups: string[] = [];

  const cgroupFile = (controller: string, parent: string, file: string) => readFileSync(join('/sys/fs/cgroup', controller, parent, file), 'utf8').trim();

  /** A ready pod under a cgroup parent of its own (as kubelet gives), with one running container. */
  async function podWithOwnCgroup(name: string): Promise<{ podSandboxId: string; parent: string }> {
    const parent = `${fx.options.cgroupParent}/pod-${name}`;
    podCgroups.push(parent);
    const config = podConfig(name, { linux: { cgroupParent: parent } });
    const { podSandboxId } = await engine.runPodSandbox({ config });
    const { containerId } = await engine.createContainer({
      podSandboxId,
      config: { metadata: { name: 'app' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
      sandboxConfig: config,
    });
    await engine.startContainer({ containerId });
    return { podSandboxId, parent };
  }

  beforeAll(async () => {
    fx = await openFixture();
    const bundles = join(fx.dir, 'nri-bundles');
    mkdirSync(bundles);
    cpSync(join(ROOT, 'src/api/descriptors'), join(bundles, 'descriptors'), { recursive: true });
    await build({
      bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent',
      banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
      stdin: { contents: WATCHER, resolveDir: ROOT, sourcefile: 'podwatch.ts', loader: 'ts' },
      outfile: join(bundles, 'podwatch.mjs'),
    });
    eventsFile = join(fx.dir, 'pod-events.log');
    const pluginDir = mkdtempSync(join(fx.dir, 'plugins-'));
    writeFileSync(join(pluginDir, '60-podwatch'), `#!/bin/sh\nPOD_EVENTS='${eventsFile}' exec "${process.execPath}" "${join(bundles, 'podwatch.mjs')}"\n`);
    chmodSync(join(pluginDir, '60-podwatch'), 0o755);
    fx.options.nri = { enabled: true, mode: 'embedded', pluginDir, pluginConfigDir: join(fx.dir, 'no-conf'), registrationTimeoutMs: 5000, requestTimeoutMs: 2000 };
    engine = await fx.reopen();
  }, 120_000);

  afterAll(async () => {
    const { items } = await engine.listPodSandbox({}).catch(() => ({ items: [] as Array<{ id: string }> }));
    for (const pod of items) await engine.removePodSandbox({ podSandboxId: pod.id }).catch(() => undefined);
    // runc removes a container's own cgroup, never the pod's parent: ours to remove.
    for (const parent of podCgroups) {
      for (const controller of readdirSync('/sys/fs/cgroup')) {
        try {
          rmdirSync(join('/sys/fs/cgroup', controller, parent));
        } catch {
          // not in this hierarchy
        }
      }
    }
    await fx?.dispose();
  }, 120_000);

  it('writes resources plus overhead to the pod cgroup, keeps them in the pod record, and tells NRI plugins', async () => {
    const { podSandboxId, parent } = await podWithOwnCgroup('resize');
    await engine.updatePodSandboxResources({
      podSandboxId,
      overhead: { cpuShares: 128, cpuQuota: 10_000, cpuPeriod: 100_000, memoryLimitInBytes: 32 * MiB },
      resources: { cpuShares: 512, cpuQuota: 50_000, cpuPeriod: 100_000, memoryLimitInBytes: 128 * MiB },
    });
    expect(cgroupFile('cpu', parent, 'cpu.shares')).toBe('640');
    expect(cgroupFile('cpu', parent, 'cpu.cfs_period_us')).toBe('100000');
    expect(cgroupFile('cpu', parent, 'cpu.cfs_quota_us')).toBe('60000');
    expect(cgroupFile('memory', parent, 'memory.limit_in_bytes')).toBe(String(160 * MiB));

    const info = JSON.parse((await engine.podSandboxStatus({ podSandboxId, verbose: true })).info.info!);
    expect(info.config.linux.resources).toMatchObject({ cpuShares: 512, memoryLimitInBytes: 128 * MiB });
    expect(info.config.linux.overhead).toMatchObject({ cpuShares: 128, memoryLimitInBytes: 32 * MiB });

    const events = readFileSync(eventsFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(events.map((e) => e.event)).toEqual(['UpdatePodSandbox', 'PostUpdatePodSandbox']);
    expect(events[0]).toMatchObject({
      pod: 'resize',
      overhead: { cpu: { shares: { value: '128' } }, memory: { limit: { value: String(32 * MiB) } } },
      resources: { cpu: { shares: { value: '512' }, quota: { value: '50000' } }, memory: { limit: { value: String(128 * MiB) } } },
    });
    // After the update, the pod NRI sees carries the new resources.
    expect(events[1]).toMatchObject({ pod: 'resize', podResources: { cpu: { shares: { value: '512' } } } });
  }, 120_000);

  it('leaves the cgroup and the record as they were when the kernel refuses a value', async () => {
    const { podSandboxId, parent } = await podWithOwnCgroup('refused');
    await engine.updatePodSandboxResources({ podSandboxId, resources: { cpuShares: 300, memoryLimitInBytes: 96 * MiB } });
    // 64 KiB is below what the running container already uses: memory.limit_in_bytes answers EBUSY.
    const err = await engine.updatePodSandboxResources({ podSandboxId, resources: { cpuShares: 900, memoryLimitInBytes: 64 * 1024 } }).catch((e: Error) => e);
    expect(err).toMatchObject({ kind: 'failed-precondition' });
    expect((err as Error).message).toMatch(/refused the update \(writing .*memory\.limit_in_bytes: EBUSY\)/);
    expect(cgroupFile('cpu', parent, 'cpu.shares')).toBe('300');
    expect(cgroupFile('memory', parent, 'memory.limit_in_bytes')).toBe(String(96 * MiB));
    const info = JSON.parse((await engine.podSandboxStatus({ podSandboxId, verbose: true })).info.info!);
    expect(info.config.linux.resources).toMatchObject({ cpuShares: 300 });
  }, 120_000);

  it('answers NotFound, InvalidArgument and FailedPrecondition for requests it cannot apply', async () => {
    const unknown = await engine.updatePodSandboxResources({ podSandboxId: 'f'.repeat(64), resources: { cpuShares: 512 } }).catch((e) => e);
    expect(unknown).toMatchObject({ kind: 'not-found' });

    const { podSandboxId, parent } = await podWithOwnCgroup('badvalues');
    const before = cgroupFile('cpu', parent, 'cpu.shares');
    for (const [resources, message] of [
      [{ cpuShares: 1 }, /resources\.cpu_shares must be 0 \(unset\) or between 2 and 262144, got 1/],
      [{ cpuQuota: 10 }, /resources\.cpu_quota must be 0 \(unset\), -1 \(no limit\) or between 1000 and/],
      [{ memoryLimitInBytes: -5 }, /resources\.memory_limit_in_bytes must be 0 \(unset\) or between 1 and 9007199254740991, got -5/],
      [{ cpusetCpus: 'all' }, /resources\.cpuset_cpus "all" is not a CPU list/],
      [{ unified: { 'memory.high': '1G' } }, /unified \(cgroup v2\) resources cannot be applied on a cgroup v1 host/],
    ] as const) {
      const err = await engine.updatePodSandboxResources({ podSandboxId, resources }).catch((e) => e);
      expect(err, JSON.stringify(resources)).toMatchObject({ kind: 'invalid-argument', message: expect.stringMatching(message) });
    }
    expect(cgroupFile('cpu', parent, 'cpu.shares')).toBe(before);
    // Refused before plugins heard of them.
    expect(readFileSync(eventsFile, 'utf8')).not.toContain('"pod":"badvalues"');

    // A pod without a cgroup parent of its own runs under the engine's shared one.
    const { podSandboxId: shared } = await engine.runPodSandbox({ config: podConfig('shared') });
    const err = await engine.updatePodSandboxResources({ podSandboxId: shared, resources: { cpuShares: 512 } }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'failed-precondition', message: expect.stringMatching(/shared cgroup parent .*give the pod its own linux\.cgroup_parent/) });

    await engine.stopPodSandbox({ podSandboxId });
    const stopped = await engine.updatePodSandboxResources({ podSandboxId, resources: { cpuShares: 512 } }).catch((e) => e);
    expect(stopped).toMatchObject({ kind: 'failed-precondition', message: expect.stringMatching(/is not ready/) });
  }, 120_000);
});
