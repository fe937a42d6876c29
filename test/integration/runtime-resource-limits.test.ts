// Resource values runc or the kernel would refuse only at StartContainer are
// refused where they arrive: CreateContainer, UpdateContainerResources,
// RunPodSandbox and UpdatePodSandboxResources answer InvalidArgument naming the
// field, through the daemon's gRPC edge (int64 beyond 2^53 sent as exact
// strings) and through the embedded engine from crictl-style config files and
// `update` flags; nothing is left behind. A start that runc does fail shows
// runc's error without its warning lines.
import { randomUUID } from 'node:crypto';
import { readdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { status as grpcStatus } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { runCli, type CliResult } from '../rig/cli.js';
import type { CniNetwork } from '../rig/cni-conf.js';
import { embeddedEnv, prepareEmbeddedEngine, removeEmbeddedEngine } from '../rig/embedded-engine.js';

/** Values that passed CreateContainer and failed at start; as a gRPC client sends them (int64 as decimal strings). */
const BAD_OVER_GRPC: Array<[string, Record<string, unknown>, string]> = [
  ['memory -5', { memoryLimitInBytes: '-5' }, 'memory_limit_in_bytes must be 0 (unset) or between 6291456 and 9007199254740991, got -5'],
  ['memory 2^63-1', { memoryLimitInBytes: '9223372036854775807' }, 'memory_limit_in_bytes must be 0 (unset) or between 6291456 and 9007199254740991, got 9223372036854775807'],
  ['memory 2^53+1', { memoryLimitInBytes: '9007199254740993' }, 'memory_limit_in_bytes must be 0 (unset) or between 6291456 and 9007199254740991, got 9007199254740993'],
  ['memory 64 KiB', { memoryLimitInBytes: '65536' }, 'memory_limit_in_bytes must be 0 (unset) or between 6291456'],
  ['cpu_shares 2^63-1', { cpuShares: '9223372036854775807' }, 'cpu_shares must be 0 (unset) or between 2 and 262144, got 9223372036854775807'],
  ['cpu_quota -100', { cpuQuota: '-100' }, 'cpu_quota must be 0 (unset), -1 (no limit) or between 1000 and 17592186044415 (µs), got -100'],
  ['cpu_period 1', { cpuPeriod: '1' }, 'cpu_period must be 0 (unset) or between 1000 and 1000000 (µs), got 1'],
  ['cpuset 0-999', { cpusetCpus: '0-999' }, 'cpuset_cpus "0-999" names CPU'],
  ['cpuset_mems 63', { cpusetMems: '63' }, 'cpuset_mems "63" names memory node 63'],
  ['oom_score_adj 1001', { oomScoreAdj: '1001' }, 'oom_score_adj must be between -1000 and 1000, got 1001'],
  ['hugepage limit 2^63', { hugepageLimits: [{ pageSize: '2MB', limit: '9223372036854775808' }] }, 'hugepage_limits[0].limit must be between 0 and 9007199254740991'],
];

const kubeletLabels = (pod: string, container?: string) => ({
  'io.kubernetes.pod.name': pod,
  'io.kubernetes.pod.namespace': 'limits-test',
  'io.kubernetes.pod.uid': `${pod}-uid`,
  ...(container ? { 'io.kubernetes.container.name': container } : {}),
});

/** Pod cgroup parents the tests made, removed at the end (one level under each hierarchy). */
const cgroupParents = new Set<string>();

async function removeCgroupParents(): Promise<void> {
  for (const parent of cgroupParents) {
    for (const hierarchy of await readdir('/sys/fs/cgroup').catch(() => [] as string[])) await rmdir(join('/sys/fs/cgroup', hierarchy, parent)).catch(() => undefined);
  }
}

function podSandboxConfig(name: string, logRoot: string, linux: Record<string, unknown> = {}) {
  const uid = randomUUID();
  const cgroupParent = `/isulats-limits-${uid.slice(0, 8)}`;
  cgroupParents.add(cgroupParent);
  return {
    metadata: { name, namespace: 'limits-test', uid, attempt: 0 },
    hostname: name.slice(0, 63),
    logDirectory: join(logRoot, `limits-test_${name}_${uid}`),
    labels: kubeletLabels(name),
    annotations: { 'kubernetes.io/config.source': 'api' },
    linux: { cgroupParent, ...linux },
  };
}

describe('resource limits: the daemon over raw gRPC', () => {
  let daemon: IsulatsDaemon;
  let cri: RawCriClient;
  let busybox: string;
  let podId: string;
  let pod: ReturnType<typeof podSandboxConfig>;

  const expectInvalid = async (call: Promise<unknown>, message: string) => {
    const err = await call.then(() => undefined, (e: { code?: number; details?: string }) => e);
    expect(err, `expected InvalidArgument "${message}"`).toBeDefined();
    expect({ code: err!.code, details: err!.details }).toEqual({ code: grpcStatus.INVALID_ARGUMENT, details: expect.stringContaining(message) });
  };

  const containerConfig = (name: string, resources: Record<string, unknown>, command = ['sh', '-c', 'exec sleep 3600']) => ({
    metadata: { name, attempt: 0 },
    image: { image: busybox },
    command,
    logPath: `${name}/0.log`,
    labels: kubeletLabels(pod.metadata.name, name),
    annotations: { 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' },
    linux: { resources: { cpuPeriod: '100000', cpuShares: '102', oomScoreAdj: '1000', ...resources } },
  });

  beforeAll(async () => {
    const env = rigEnv();
    busybox = env.ISULATS_TEST_BUSYBOX;
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    cri = openCriClient(daemon.endpoint);
    await cri.image('PullImage', { image: { image: busybox } });
    pod = podSandboxConfig(`limits-${randomUUID()}`, join(daemon.dir, 'logs'));
    podId = (await cri.runtime('RunPodSandbox', { config: pod }, 60_000)).podSandboxId;
  }, 180_000);

  afterAll(async () => {
    cri?.close();
    await daemon?.cleanup();
    await removeCgroupParents();
  }, 120_000);

  it.each(BAD_OVER_GRPC)('refuses CreateContainer with %s, naming the field, and keeps no container', async (_what, resources, message) => {
    await expectInvalid(cri.runtime('CreateContainer', { podSandboxId: podId, config: containerConfig('bad', resources), sandboxConfig: pod }), `config.linux.resources.${message}`);
    expect((await cri.runtime('ListContainers', {})).containers).toEqual([]);
  });

  it('refuses RunPodSandbox with such pod resources or overhead, and keeps no pod', async () => {
    await expectInvalid(cri.runtime('RunPodSandbox', { config: podSandboxConfig('bad-pod', join(daemon.dir, 'logs'), { resources: { cpuPeriod: '1' } }) }), 'config.linux.resources.cpu_period must be 0 (unset) or between 1000 and 1000000');
    await expectInvalid(cri.runtime('RunPodSandbox', { config: podSandboxConfig('bad-pod', join(daemon.dir, 'logs'), { overhead: { memoryLimitInBytes: '-5' } }) }), 'config.linux.overhead.memory_limit_in_bytes must be 0 (unset) or between 1 and');
    expect((await cri.runtime('ListPodSandbox', {})).items.map((p: { id: string }) => p.id)).toEqual([podId]);
  });

  it('refuses the same values in UpdateContainerResources and UpdatePodSandboxResources, leaving the limits as they were', async () => {
    const { containerId } = await cri.runtime('CreateContainer', { podSandboxId: podId, config: containerConfig('target', { memoryLimitInBytes: String(64 << 20) }), sandboxConfig: pod });
    await cri.runtime('StartContainer', { containerId });
    for (const [, resources, message] of BAD_OVER_GRPC) {
      await expectInvalid(cri.runtime('UpdateContainerResources', { containerId, linux: resources }), `linux.${message}`);
    }
    await expectInvalid(cri.runtime('UpdatePodSandboxResources', { podSandboxId: podId, resources: { cpuShares: '9223372036854775807' } }), 'resources.cpu_shares must be 0 (unset) or between 2 and 262144, got 9223372036854775807');
    const status = await cri.runtime('ContainerStatus', { containerId });
    expect(status.status.resources.linux).toMatchObject({ memoryLimitInBytes: String(64 << 20), cpuShares: '102', cpuPeriod: '100000' });
    // A value within range still goes through.
    await cri.runtime('UpdateContainerResources', { containerId, linux: { memoryLimitInBytes: String(128 << 20) } });
    expect((await cri.runtime('ContainerStatus', { containerId })).status.resources.linux.memoryLimitInBytes).toBe(String(128 << 20));
    await cri.runtime('RemoveContainer', { containerId });
  });

  it('fails a start runc refuses with runc\'s error, not its warning lines', async () => {
    const { containerId } = await cri.runtime('CreateContainer', { podSandboxId: podId, config: containerConfig('missing-binary', {}, ['/no/such-binary']), sandboxConfig: pod });
    const err = await cri.runtime('StartContainer', { containerId }).then(() => undefined, (e: { details?: string }) => e);
    expect(err?.details).toMatch(/^container create failed: runc create failed: unable to start container process: exec: "\/no\/such-binary": stat \/no\/such-binary: no such file or directory$/);
    await cri.runtime('RemoveContainer', { containerId });
  });
});

describe('resource limits: the embedded engine from CLI config files', () => {
  let dir: string;
  let net: CniNetwork;
  let podId: string;
  const env = () => embeddedEnv(dir);
  const cli = (args: string[]): Promise<CliResult> => runCli(['--root', join(dir, 'root'), '--state', join(dir, 'state'), ...args], { env: env(), timeoutMs: 60_000 });
  const ok = async (args: string[]) => {
    const r = await cli(args);
    if (r.code !== 0) throw new Error(`isulats ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const podFile = () => join(dir, 'pod.json');

  /** A crictl container config whose linux.resources are `resources`, as raw JSON text (1e23 stays 1e23). */
  async function containerFile(name: string, resources: string): Promise<string> {
    const path = join(dir, `${name}.json`);
    await writeFile(path, `{"metadata":{"name":"${name}"},"image":{"image":"local/busybox:limits"},"command":["sleep","3600"],"log_path":"${name}.log",` +
      `"labels":{"io.kubernetes.container.name":"${name}"},"linux":{"resources":{${resources.includes('"cpu_period"') ? '' : '"cpu_period":100000,'}${resources}}}}\n`);
    return path;
  }

  beforeAll(async () => {
    let rootfs: string;
    ({ dir, net, rootfs } = await prepareEmbeddedEngine('ist-lim-'));
    await ok(['import', '--cmd', 'sh', rootfs, 'local/busybox:limits']);
    const uid = randomUUID();
    cgroupParents.add(`/isulats-limits-${uid.slice(0, 8)}`);
    await writeFile(podFile(), JSON.stringify({
      metadata: { name: `limits-cli-${uid}`, namespace: 'limits-test', uid, attempt: 0 },
      log_directory: join(dir, 'logs'),
      labels: kubeletLabels(`limits-cli-${uid}`),
      linux: { cgroup_parent: `/isulats-limits-${uid.slice(0, 8)}` },
    }));
    podId = await ok(['runp', podFile()]);
  }, 180_000);

  afterAll(async () => {
    if (!dir) return;
    await removeEmbeddedEngine({ dir, net }, () => cli(['rmp', '-a', '-f']));
    await removeCgroupParents();
  }, 120_000);

  it.each([
    ['"memory_limit_in_bytes":-5', 'config.linux.resources.memory_limit_in_bytes must be 0 (unset) or between 6291456 and 9007199254740991, got -5'],
    ['"memory_limit_in_bytes":1e23', 'linux.resources.memoryLimitInBytes: 99999999999999991611392 is out of range for int64'],
    ['"memory_limit_in_bytes":"9223372036854775808"', 'linux.resources.memoryLimitInBytes: 9223372036854775808 is out of range for int64'],
    ['"memory_limit_in_bytes":9223372036854775807', 'config.linux.resources.memory_limit_in_bytes must be 0 (unset) or between 6291456 and 9007199254740991, got 9223372036854775807'],
    ['"cpu_shares":18446744073709551616', 'linux.resources.cpuShares: 18446744073709551616 is out of range for int64'],
    ['"cpu_shares":9007199254740993', 'config.linux.resources.cpu_shares must be 0 (unset) or between 2 and 262144, got 9007199254740993'],
    ['"cpu_quota":-100', 'config.linux.resources.cpu_quota must be 0 (unset), -1 (no limit) or between 1000 and 17592186044415 (µs), got -100'],
    ['"cpuset_cpus":"0-999"', 'config.linux.resources.cpuset_cpus "0-999" names CPU'],
    ['"cpu_period":1', 'config.linux.resources.cpu_period must be 0 (unset) or between 1000 and 1000000 (µs), got 1'],
    ['"oom_score_adj":-1001', 'config.linux.resources.oom_score_adj must be between -1000 and 1000, got -1001'],
    ['"hugepage_limits":[{"page_size":"2MB","limit":-1}]', 'linux.resources.hugepageLimits[0].limit: -1 is out of range for uint64'],
  ])('refuses create with %s in one line naming the field, creating nothing', async (resources, message) => {
    const r = await cli(['create', podId, await containerFile('bad', resources), podFile()]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(await ok(['ps', '-a', '-q'])).toBe('');
  });

  it('refuses update with the same values, naming the field, and leaves the running container as it was', async () => {
    const id = await ok(['create', podId, await containerFile('target', `"memory_limit_in_bytes":${64 << 20}`), podFile()]);
    await ok(['start', id]);
    for (const [flags, message] of [
      [['--memory=-5'], 'linux.memory_limit_in_bytes must be 0 (unset) or between 6291456 and 9007199254740991, got -5'],
      [['--memory', '9223372036854775807'], 'linux.memory_limit_in_bytes must be 0 (unset) or between 6291456 and 9007199254740991, got 9223372036854775807'],
      [['--cpu-share', '9007199254740993'], 'linux.cpu_shares must be 0 (unset) or between 2 and 262144, got 9007199254740993'],
      [['--cpu-quota=-100'], 'linux.cpu_quota must be 0 (unset), -1 (no limit) or between 1000'],
      [['--cpuset-cpus', '0-999'], 'linux.cpuset_cpus "0-999" names CPU'],
      [['--cpu-period', '1'], 'linux.cpu_period must be 0 (unset) or between 1000 and 1000000 (µs), got 1'],
    ] as Array<[string[], string]>) {
      const r = await cli(['update', ...flags, id]);
      expect({ flags, code: r.code, stderr: r.stderr }).toEqual({ flags, code: 1, stderr: expect.stringContaining(message) });
    }
    const limits = JSON.parse(await ok(['inspect', '-o', 'json', id])).status.resources.linux;
    expect(limits).toMatchObject({ memoryLimitInBytes: String(64 << 20), cpuPeriod: '100000' });
    await ok(['rm', '-f', id]);
  });

  it('fails a start runc refuses with runc\'s error in one line, no warning lines', async () => {
    const path = join(dir, 'missing.json');
    await writeFile(path, JSON.stringify({ metadata: { name: 'missing' }, image: { image: 'local/busybox:limits' }, command: ['/no/such-binary'], log_path: 'missing.log' }));
    const id = await ok(['create', podId, path, podFile()]);
    const r = await cli(['start', id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('container create failed: runc create failed: unable to start container process: exec: "/no/such-binary"');
    expect(r.stderr).not.toMatch(/level=warning|time="/);
    await ok(['rm', '-f', id]);
  });
});
