// A pod's hostname through `isulats daemon`, with the pod configs CRI clients really send:
// critest names its pods `PodSandbox-for-<what>-<uuid>` (over 63 characters) and sets no
// hostname; such a pod runs with the node's hostname, as on containerd. kubelet's
// setHostnameAsFQDN sends `<pod>.<subdomain>.<namespace>.svc.<cluster domain>` (ending in a dot
// without a cluster domain, up to 64 bytes): the kernel takes it as it is, on both peers. Only a
// hostname sethostname(2) would refuse is InvalidArgument, before anything is made.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname as nodeHostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { kubeletHostname, kubeletHostsFile } from '../rig/kubelet-shapes.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';

let daemon: IsulatsDaemon;
let c: RawCriClient;
let ctd: RawCriClient;
let busybox: string;
let hostsDir: string;
/** Pods to remove after each test, with the client that made them. */
const pods: Array<{ client: RawCriClient; id: string }> = [];

/** What critest's framework.CreatePodSandboxForContainer sends: kubelet-like metadata, no hostname. */
function critestPod(extra: CriMessage = {}): CriMessage {
  const uuid = randomUUID();
  return {
    metadata: { name: `PodSandbox-for-create-container-${uuid}`, uid: `cri-test-uid${uuid}`, namespace: `cri-test-namespace${uuid}`, attempt: 2 },
    labels: { 'io.kubernetes.pod.name': 'critest', 'io.kubernetes.pod.namespace': 'cri-test' },
    linux: { cgroupParent: '' },
    ...extra,
  };
}

/** A pod as kubelet sends it for node e2e's `Hostname of Pod` specs: pod hostfqdn-<n> in namespace hostfqdn-<n>, subdomain t. */
function fqdnPod(o: { podName?: string; namespace?: string; clusterDomain?: string }) {
  const n = () => Math.floor(Math.random() * 9000) + 1000;
  const podName = o.podName ?? `hostfqdn-${n()}`;
  const namespace = o.namespace ?? `hostfqdn-${n()}`;
  const names = kubeletHostname({ podName, namespace, subdomain: 't', clusterDomain: o.clusterDomain, setHostnameAsFQDN: true });
  const config = {
    metadata: { name: podName, uid: randomUUID(), namespace, attempt: 0 },
    hostname: names.hostname,
    labels: { 'io.kubernetes.pod.name': podName, 'io.kubernetes.pod.namespace': namespace },
    linux: { cgroupParent: '', securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
  };
  return { config, ...names };
}

async function runContainer(config: CriMessage, o: { client?: RawCriClient; mounts?: (podId: string) => Promise<CriMessage[]> } = {}): Promise<string> {
  const client = o.client ?? c;
  const { podSandboxId } = await client.runtime('RunPodSandbox', { config });
  pods.push({ client, id: podSandboxId });
  const { containerId } = await client.runtime('CreateContainer', {
    podSandboxId,
    sandboxConfig: config,
    config: { metadata: { name: `container-${randomUUID()}`, attempt: 2 }, image: { image: busybox }, command: ['sh', '-c', 'top'], mounts: await o.mounts?.(podSandboxId), linux: {} },
  });
  await client.runtime('StartContainer', { containerId });
  return containerId;
}

async function shell(containerId: string, script: string, client = c): Promise<string> {
  const r = await client.runtime('ExecSync', { containerId, cmd: ['sh', '-c', script], timeout: '10' });
  expect(Buffer.from(r.stderr).toString()).toBe('');
  return Buffer.from(r.stdout).toString();
}

/** kubelet's /etc/hosts for the pod, mounted as kubelet mounts it (written once the pod has its IP). */
function kubeletHostsMount(client: RawCriClient, short: string, domain: string) {
  return async (podSandboxId: string): Promise<CriMessage[]> => {
    const { status } = await client.runtime('PodSandboxStatus', { podSandboxId });
    const hostPath = join(hostsDir, `${podSandboxId}-etc-hosts`);
    await writeFile(hostPath, kubeletHostsFile(status.network.ip, short, domain));
    return [{ containerPath: '/etc/hosts', hostPath, readonly: false, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE' }];
  };
}

/** What the e2e spec reads (`hostname` and `hostname -f`), and the UTS namespace and /etc/hostname behind them. */
const SHOW_HOSTNAME = 'hostname; hostname -f; cat /proc/sys/kernel/hostname /etc/hostname; echo "$HOSTNAME"';

async function leases(): Promise<string[]> {
  const names = await readdir(join(daemon.network.leaseDir, daemon.network.name)).catch(() => [] as string[]);
  return names.filter((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n));
}

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  hostsDir = await mkdtemp(join(tmpdir(), 'ist-hostname-'));
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  c = openCriClient(daemon.endpoint);
  ctd = openCriClient(env.ISULATS_TEST_CONTAINERD);
  await c.image('PullImage', { image: { image: busybox } });
  await ctd.image('PullImage', { image: { image: busybox } });
}, 120_000);

afterEach(async () => {
  for (const { client, id } of pods.splice(0)) {
    await client.runtime('StopPodSandbox', { podSandboxId: id });
    await client.runtime('RemovePodSandbox', { podSandboxId: id });
  }
});

afterAll(async () => {
  c?.close();
  ctd?.close();
  await daemon?.cleanup();
  if (hostsDir) await rm(hostsDir, { recursive: true, force: true });
}, 120_000);

describe('pod hostname', () => {
  it('runs a pod with a long critest-style name and no hostname under the node\'s hostname', async () => {
    const config = critestPod();
    expect(config.metadata.name.length).toBeGreaterThan(63);
    const id = await runContainer(config);
    expect((await shell(id, 'hostname; cat /etc/hostname; echo "$HOSTNAME"')).split('\n')).toEqual([nodeHostname(), nodeHostname(), nodeHostname(), '']);
  });

  it('sets an explicit hostname in the pod\'s own UTS namespace', async () => {
    const id = await runContainer(critestPod({ hostname: 'web-0.nginx.default.svc.cluster.local' }));
    expect(await shell(id, 'hostname; cat /etc/hostname')).toBe('web-0.nginx.default.svc.cluster.local\n'.repeat(2));
  });

  describe.each<[string, Parameters<typeof fqdnPod>[0]]>([
    ['without a cluster domain (a trailing dot)', {}],
    ['with a cluster domain', { clusterDomain: 'cluster.local' }],
    ['of 64 bytes', { podName: `hostfqdn-${'x'.repeat(21)}`, namespace: 'hostfqdn-5893', clusterDomain: 'cluster.local' }],
  ])('setHostnameAsFQDN: an FQDN %s', (_what, shape) => {
    it.each(['isulats', 'containerd'] as const)('is the hostname on %s, for `hostname`, `hostname -f`, the UTS namespace and /etc/hostname', async (peer) => {
      const client = peer === 'isulats' ? c : ctd;
      const pod = fqdnPod(shape);
      if (shape.podName) expect(Buffer.byteLength(pod.hostname)).toBe(64);
      // kubelet mounts its own /etc/hosts naming the FQDN, which `hostname -f` looks up.
      const id = await runContainer(pod.config, { client, mounts: kubeletHostsMount(client, pod.short, pod.domain) });
      expect(await shell(id, SHOW_HOSTNAME, client)).toBe(`${pod.hostname}\n`.repeat(5));
    });
  });

  it('names the FQDN in the pod\'s own /etc/hosts, so `hostname -f` answers without kubelet\'s', async () => {
    const pod = fqdnPod({});
    const id = await runContainer(pod.config);
    expect(await shell(id, SHOW_HOSTNAME)).toBe(`${pod.hostname}\n`.repeat(5));
    expect((await shell(id, 'tail -1 /etc/hosts')).split('\t')[1]).toBe(`${pod.hostname}\n`);
  });

  it.each([
    ['a 64-character label', 'h'.repeat(64)],
    ['an underscore', 'my_host'],
    ['an empty label', 'a..b'],
  ])('takes a hostname with %s, as the kernel does', async (_what, hostname) => {
    const id = await runContainer(critestPod({ hostname }));
    expect(await shell(id, 'hostname; cat /etc/hostname')).toBe(`${hostname}\n`.repeat(2));
  });

  it.each([
    ['65 bytes', `${fqdnPod({ podName: `hostfqdn-${'x'.repeat(21)}`, clusterDomain: 'cluster.local', namespace: 'hostfqdn-5893' }).hostname}x`, /65 bytes, the kernel takes at most 64$/],
    ['65 bytes of UTF-8', `${'é'.repeat(32)}x`, /65 bytes, the kernel takes at most 64$/],
    ['a NUL byte', 'web\0x', /NUL byte$/],
  ])('refuses a hostname of %s as InvalidArgument and leaves nothing behind', async (_what, hostname, message) => {
    const before = await leases();
    const error = await c.runtime('RunPodSandbox', { config: critestPod({ hostname }) }).then(() => undefined, (e: grpc.ServiceError) => e);
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toMatch(/^pod hostname ".*" is invalid: /);
    expect(error?.details).toMatch(message);
    expect((await c.runtime('ListPodSandbox', {})).items).toEqual([]);
    expect(await leases()).toEqual(before);
  });

  it('keeps the node\'s hostname for a host-network pod whatever it asks for', async () => {
    const id = await runContainer(critestPod({ hostname: 'ignored', linux: { securityContext: { namespaceOptions: { network: 'NODE' } } } }));
    await waitFor(async () => (await shell(id, 'hostname')) === `${nodeHostname()}\n`, { timeoutMs: 5_000, what: 'hostname' });
  });
});
