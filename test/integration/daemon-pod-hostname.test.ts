// A pod's hostname through `isulats daemon`, with the pod configs CRI clients really send:
// critest names its pods `PodSandbox-for-<what>-<uuid>` (over 63 characters) and sets no
// hostname; such a pod runs with the node's hostname, as on containerd. An explicit hostname
// the kernel or DNS would refuse is InvalidArgument before anything is made.
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { hostname as nodeHostname } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';

let daemon: IsulatsDaemon;
let c: RawCriClient;
let busybox: string;
const pods: string[] = [];

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

async function runContainer(config: CriMessage): Promise<string> {
  const { podSandboxId } = await c.runtime('RunPodSandbox', { config });
  pods.push(podSandboxId);
  const { containerId } = await c.runtime('CreateContainer', {
    podSandboxId,
    sandboxConfig: config,
    config: { metadata: { name: `container-${randomUUID()}`, attempt: 2 }, image: { image: busybox }, command: ['sh', '-c', 'top'], linux: {} },
  });
  await c.runtime('StartContainer', { containerId });
  return containerId;
}

async function shell(containerId: string, script: string): Promise<string> {
  const r = await c.runtime('ExecSync', { containerId, cmd: ['sh', '-c', script], timeout: '10' });
  expect(Buffer.from(r.stderr).toString()).toBe('');
  return Buffer.from(r.stdout).toString();
}

async function leases(): Promise<string[]> {
  const names = await readdir(join(daemon.network.leaseDir, daemon.network.name)).catch(() => [] as string[]);
  return names.filter((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n));
}

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  c = openCriClient(daemon.endpoint);
  await c.image('PullImage', { image: { image: busybox } });
}, 120_000);

afterEach(async () => {
  for (const podSandboxId of pods.splice(0)) {
    await c.runtime('StopPodSandbox', { podSandboxId });
    await c.runtime('RemovePodSandbox', { podSandboxId });
  }
});

afterAll(async () => {
  c?.close();
  await daemon?.cleanup();
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

  it.each([
    ['65 characters', `${'a'.repeat(31)}.${'b'.repeat(33)}`, /65 characters, at most 64/],
    ['a 64-character label', 'h'.repeat(64), /label "h{64}" has 64 characters, at most 63/],
    ['an underscore', 'my_host', /RFC 1123 DNS label/],
    ['a trailing hyphen', 'host-', /RFC 1123 DNS label/],
    ['an empty label', 'a..b', /RFC 1123 DNS label/],
  ])('refuses a hostname with %s as InvalidArgument and leaves nothing behind', async (_what, hostname, message) => {
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
