import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { conflistSubnet } from '../rig/cni-conf.js';
import { startContainerd } from '../rig/containerd.js';
import { openCriClient, type CriMessage as Msg, type RawCriClient } from '../rig/cri-client.js';
import { cidrContains } from '../rig/free-subnet.js';
import { findCgroupDirs, inCgroupOf, isUnder, linkExists, listProcesses, mountsUnder } from '../rig/host-cleanup.js';
import { writeContainerConfig, writePodConfig } from '../rig/pod-configs.js';
import { pidAlive } from '../rig/proc.js';
import { startRegistry } from '../rig/registry.js';
import { rigEnv, type RigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

// The CRI client loads the project's proto/runtime/v1/api.proto when present, else the rig's own
// subset (test/rig/cri-v1-subset.proto); both give the same lowerCamelCase message shapes.

const MANIFEST_ACCEPT = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

function splitRef(ref: string): { host: string; repo: string; tag: string } {
  const slash = ref.indexOf('/');
  const colon = ref.lastIndexOf(':');
  return { host: ref.slice(0, slash), repo: ref.slice(slash + 1, colon), tag: ref.slice(colon + 1) };
}

async function fetchManifest(ref: string): Promise<{ status: number; type: string | null; body: Msg }> {
  const { host, repo, tag } = splitRef(ref);
  const res = await fetch(`http://${host}/v2/${repo}/manifests/${tag}`, { headers: { accept: MANIFEST_ACCEPT } });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Msg };
}

function podSandboxConfig(name: string, logDirectory: string): Msg {
  return {
    metadata: { name, uid: `uid-${name}-${process.pid}`, namespace: 'rig-test', attempt: 0 },
    hostname: name,
    logDirectory,
    linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
  };
}

interface RunningPod {
  podId: string;
  containerId: string;
  podIp: string;
}

/** RunPodSandbox, PullImage, CreateContainer (echo hi; sleep), StartContainer. */
async function runPodWithContainer(cri: RawCriClient, image: string, name: string, logDir: string): Promise<RunningPod> {
  const config = podSandboxConfig(name, logDir);
  const { podSandboxId: podId } = await cri.runtime('RunPodSandbox', { config });
  await cri.image('PullImage', { image: { image }, sandboxConfig: config });
  const { containerId } = await cri.runtime('CreateContainer', {
    podSandboxId: podId,
    config: {
      metadata: { name: 'hello', attempt: 0 },
      image: { image },
      command: ['sh', '-c', 'echo hi; sleep 3600'],
      logPath: 'hello.log',
    },
    sandboxConfig: config,
  });
  await cri.runtime('StartContainer', { containerId });
  const status = await cri.runtime('PodSandboxStatus', { podSandboxId: podId });
  return { podId, containerId, podIp: status.status.network.ip };
}

async function removePod(cri: RawCriClient, podId: string): Promise<void> {
  await cri.runtime('StopPodSandbox', { podSandboxId: podId });
  await cri.runtime('RemovePodSandbox', { podSandboxId: podId });
}

/** What could outlive a pod: processes (shim, pause, container), cgroups, mounts, leases, CNI caches. */
async function leftoversOf(ctdDir: string, pod: RunningPod): Promise<string[]> {
  const ids = new Set([pod.podId, pod.containerId]);
  const found: string[] = [];
  for (const p of await listProcesses()) {
    if (p.argv[0] === '/usr/bin/containerd') continue; // the rig's daemon itself may still run
    const ours = p.argv.includes(pod.podId) || inCgroupOf(p, ids) || isUnder(p.root, ctdDir) ||
      p.argv.some((a) => a.includes(ctdDir));
    if (ours) found.push(`process ${p.pid} ${p.argv.join(' ')}`);
  }
  for (const dir of await findCgroupDirs(ids)) found.push(`cgroup ${dir}`);
  for (const m of await mountsUnder(ctdDir)) found.push(`mount ${m}`);
  const leases = await readdir(join(ctdDir, 'cni-leases'), { recursive: true }).catch(() => [] as string[]);
  for (const lease of leases) if (lease.endsWith(pod.podIp)) found.push(`lease ${lease}`);
  const results = await readdir('/var/lib/cni/results').catch(() => [] as string[]);
  for (const r of results) if (r.includes(pod.podId)) found.push(`cni result ${r}`);
  return found;
}

describe('test rig', () => {
  let env: RigEnv;
  let cri: RawCriClient;

  beforeAll(() => {
    env = rigEnv();
    cri = openCriClient(env.ISULATS_TEST_CONTAINERD);
  });
  afterAll(() => cri?.close());

  it('serves the busybox and pause images from the local registry', async () => {
    const busybox = await fetchManifest(env.ISULATS_TEST_BUSYBOX);
    expect(busybox.status).toBe(200);
    expect(busybox.type).toBe('application/vnd.oci.image.manifest.v1+json');
    expect(busybox.body.layers).toHaveLength(1);

    const older = await fetchManifest(env.ISULATS_TEST_BUSYBOX.replace(/:latest$/, ':1.35'));
    expect(older.body.config.digest).toBe(busybox.body.config.digest);

    const pause = await fetchManifest(env.ISULATS_TEST_PAUSE);
    expect(pause.status).toBe(200);
    const { host, repo } = splitRef(env.ISULATS_TEST_PAUSE);
    const config = (await (await fetch(`http://${host}/v2/${repo}/blobs/${pause.body.config.digest}`)).json()) as Msg;
    expect(config.config.Entrypoint).toEqual(['/pause']);
  });

  it('answers CRI Version from containerd', async () => {
    const version = await cri.runtime('Version', { version: 'v1' });
    expect(version.runtimeName).toBe('containerd');
    expect(version.runtimeApiVersion).toBe('v1');
  });

  it('runs a pod and a container from the rig images and removes them without leftovers', async () => {
    const socket = env.ISULATS_TEST_CONTAINERD.replace(/^unix:\/\//, '');
    const ctdDir = dirname(socket);
    const logDir = await makeTempDir('ist-logs-');
    let pod: RunningPod | undefined;
    try {
      pod = await runPodWithContainer(cri, env.ISULATS_TEST_BUSYBOX, 'rig-pod', logDir);
      const status = await cri.runtime('ContainerStatus', { containerId: pod.containerId });
      expect(status.status.state).toBe('CONTAINER_RUNNING');
      const subnet = await conflistSubnet(env.ISULATS_TEST_CNI_CONF_DIR);
      expect(cidrContains(subnet, pod.podIp), `pod IP ${pod.podIp} in ${subnet}`).toBe(true);
      const log = await waitFor(async () => {
        const text = await readFile(join(logDir, 'hello.log'), 'utf8').catch(() => '');
        return text.includes('hi') ? text : undefined;
      }, { timeoutMs: 10_000, what: 'container log line' });
      expect(log).toMatch(/ stdout F hi\n/);

      await cri.runtime('StopContainer', { containerId: pod.containerId, timeout: '0' });
      await cri.runtime('RemoveContainer', { containerId: pod.containerId });
      await removePod(cri, pod.podId);
      const removed = pod;
      pod = undefined;
      const leftovers = await leftoversOf(ctdDir, removed);      expect(leftovers).toEqual([]);
    } finally {
      if (pod) await removePod(cri, pod.podId).catch(() => undefined);
      await removeTempDir(logDir);
    }
  });

  it('stop() cleans up after a crashed containerd that still had a running pod', async () => {
    const ctd = await startContainerd({
      sandboxImage: env.ISULATS_TEST_PAUSE,
      plainHttpRegistries: [env.ISULATS_TEST_REGISTRY],
    });
    const own = openCriClient(ctd.endpoint);
    let pod: RunningPod;
    try {
      pod = await runPodWithContainer(own, env.ISULATS_TEST_BUSYBOX, 'crash-pod', join(ctd.dir, 'logs'));
    } finally {
      own.close();
    }
    const shims = (await listProcesses()).filter((p) => p.argv.includes(pod.podId));
    expect(shims.length).toBeGreaterThan(0);
    expect(await mountsUnder(ctd.dir)).not.toEqual([]);

    process.kill(ctd.pid, 'SIGKILL');
    await ctd.stop();

    expect(await pidAlive(ctd.pid)).toBe(false);
    for (const shim of shims) expect(await pidAlive(shim.pid)).toBe(false);
    expect(await leftoversOf(ctd.dir, pod)).toEqual([]);
    expect(await linkExists(ctd.network.bridge)).toBe(false);
    await expect(stat(ctd.dir)).rejects.toThrow(/ENOENT/);
  });

  it('starts registries with htpasswd and token auth', async () => {
    const basic = await startRegistry({ htpasswd: { alice: 's3cret' } });
    const token = await startRegistry({ token: { realm: 'http://127.0.0.1:9/token', service: 'rig-test' } });
    try {
      const auth = (user: string, pw: string): string => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;
      expect((await fetch(`${basic.url}/v2/`, { headers: { authorization: auth('alice', 's3cret') } })).status).toBe(200);
      expect((await fetch(`${basic.url}/v2/`, { headers: { authorization: auth('alice', 'wrong') } })).status).toBe(401);

      const challenge = await fetch(`${token.url}/v2/`);
      expect(challenge.status).toBe(401);
      expect(challenge.headers.get('www-authenticate')).toBe('Bearer realm="http://127.0.0.1:9/token",service="rig-test"');
      expect(token.token?.keyId).toMatch(/^([A-Z2-7]{4}:){11}[A-Z2-7]{4}$/);
    } finally {
      await basic.stop();
      await token.stop();
    }
    await expect(stat(basic.dir)).rejects.toThrow(/ENOENT/);
  });

  it('writes crictl-style pod and container config files in JSON and YAML', async () => {
    const dir = await makeTempDir('ist-cfg-');
    try {
      const podPath = await writePodConfig(dir, {
        name: 'web', uid: 'u-1', logDirectory: '/tmp/x', namespaces: { network: 'NODE' }, format: 'yaml',
      });
      const ctrPath = await writeContainerConfig(dir, {
        name: 'app', image: env.ISULATS_TEST_BUSYBOX, command: ['top'], logPath: 'app.log',
      });
      expect(podPath.endsWith('.yaml')).toBe(true);
      expect(parseYaml(await readFile(podPath, 'utf8'))).toEqual({
        metadata: { name: 'web', uid: 'u-1', namespace: 'default', attempt: 0 },
        log_directory: '/tmp/x',
        linux: { security_context: { namespace_options: { network: 2, pid: 1, ipc: 0 } } },
      });
      expect(JSON.parse(await readFile(ctrPath, 'utf8'))).toEqual({
        metadata: { name: 'app', attempt: 0 },
        image: { image: env.ISULATS_TEST_BUSYBOX },
        command: ['top'],
        log_path: 'app.log',
        linux: {},
      });
    } finally {
      await removeTempDir(dir);
    }
  });
});
