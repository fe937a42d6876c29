// Bad input a CRI client or a crictl-style config file can carry, refused in one clear answer
// through a real `isulats daemon` and the CLI, without leaving a pod behind: out-of-range ports,
// image references that cannot resolve (answered word for word as containerd answers them,
// compared live with the rig's containerd in its run), over-long repository names (refused
// before any registry is asked), a numeric pod name in a YAML config, and NUL bytes in any string
// that would become a path, argv or env (refused at the call that brings it, not at start).
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../rig/cli.js';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

let daemon: IsulatsDaemon;
let c: RawCriClient;
let dir: string;
const pods: string[] = [];

interface Answer { code: number; details: string }
const answer = (p: Promise<unknown>): Promise<Answer> => p.then(() => ({ code: 0, details: '' }), (e: grpc.ServiceError) => ({ code: e.code, details: e.details }));

function podConfig(extra: CriMessage = {}): CriMessage {
  const uid = randomUUID();
  const name = `bad-input-${uid}`;
  return {
    metadata: { name, uid, namespace: 'bad-input', attempt: 0 },
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'bad-input', 'io.kubernetes.pod.uid': uid },
    linux: {},
    ...extra,
  };
}

async function podUids(client: RawCriClient): Promise<string[]> {
  return (await client.runtime('ListPodSandbox', {})).items.map((p: CriMessage) => p.metadata.uid);
}

beforeAll(async () => {
  const env = rigEnv();
  dir = await makeTempDir('ist-bad-');
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  c = openCriClient(daemon.endpoint);
}, 120_000);

afterAll(async () => {
  for (const podSandboxId of pods) {
    await c.runtime('StopPodSandbox', { podSandboxId }).catch(() => undefined);
    await c.runtime('RemovePodSandbox', { podSandboxId }).catch(() => undefined);
  }
  c?.close();
  await daemon?.cleanup();
  if (dir) await removeTempDir(dir);
}, 120_000);

describe('port mappings', () => {
  it.each<[string, CriMessage, RegExp]>([
    ['a container port of 99999', { containerPort: 99999, hostPort: 0, protocol: 'TCP' }, /port_mappings\[0\]: container_port 99999 is out of range/],
    ['a host port of -1', { containerPort: 80, hostPort: -1, protocol: 'TCP' }, /port_mappings\[0\]: host_port -1 is out of range/],
    ['a host port of 99999', { containerPort: 80, hostPort: 99999, protocol: 'TCP' }, /port_mappings\[0\]: host_port 99999 is out of range/],
    ['a container port of 0', { containerPort: 0, hostPort: 8080, protocol: 'TCP' }, /container_port 0 is out of range/],
  ])('RunPodSandbox refuses %s with InvalidArgument and keeps no pod', async (_what, mapping, error) => {
    const config = podConfig({ portMappings: [mapping] });
    const got = await answer(c.runtime('RunPodSandbox', { config }).then((r: CriMessage) => pods.push(r.podSandboxId)));
    expect(got.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(got.details).toMatch(error);
    expect(await podUids(c)).not.toContain(config.metadata.uid);
  });
});

describe('image references', () => {
  const BAD: Array<[string, string]> = [
    ['an upper-case name', 'Busybox:Latest'],
    ['an empty tag after a double colon', 'busybox::x'],
    ['a name over 255 characters', `${'a'.repeat(300)}:v1`],
    ['a valid name no image has', `no/such-image-${randomUUID()}:v1`],
  ];

  it.each(BAD)('CreateContainer answers %s as containerd does: NotFound, "failed to resolve image"', async (_what, image) => {
    const config = podConfig();
    const { podSandboxId } = await c.runtime('RunPodSandbox', { config });
    pods.push(podSandboxId);
    const create = (client: RawCriClient, podId: string) =>
      answer(client.runtime('CreateContainer', { podSandboxId: podId, config: { metadata: { name: 'app', attempt: 0 }, image: { image }, linux: {} }, sandboxConfig: config }));
    const ours = await create(c, podSandboxId);
    expect(ours).toEqual({ code: grpc.status.NOT_FOUND, details: `failed to resolve image "${image}": not found` });
    if (rigEnv().ISULATS_TEST_CRI_PEER !== 'containerd') return;
    const ctd = openCriClient(rigEnv().ISULATS_TEST_CONTAINERD);
    const ctdConfig = podConfig();
    const ctdPod = (await ctd.runtime('RunPodSandbox', { config: ctdConfig })).podSandboxId;
    try {
      const theirs = await answer(ctd.runtime('CreateContainer', { podSandboxId: ctdPod, config: { metadata: { name: 'app', attempt: 0 }, image: { image }, linux: {} }, sandboxConfig: ctdConfig }));
      expect(ours).toEqual(theirs);
    } finally {
      await ctd.runtime('StopPodSandbox', { podSandboxId: ctdPod }).catch(() => undefined);
      await ctd.runtime('RemovePodSandbox', { podSandboxId: ctdPod }).catch(() => undefined);
      ctd.close();
    }
  });

  it('PullImage refuses a repository name over 255 characters without asking the registry', async () => {
    const image = `${rigEnv().ISULATS_TEST_REGISTRY}/isulats-test/${'n'.repeat(250)}:v1`;
    const got = await answer(c.image('PullImage', { image: { image } }, 30_000));
    expect(got.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(got.details).toMatch(/repository name must not be more than 255 characters/);
  });

  it('PullImage errors from the plain-http loopback registry name the http:// URL used', async () => {
    const registry = rigEnv().ISULATS_TEST_REGISTRY;
    const got = await answer(c.image('PullImage', { image: { image: `${registry}/isulats-test/missing-${randomUUID()}:v1` } }, 30_000));
    expect(got.code).not.toBe(0);
    expect(got.details).toContain(`http://${registry}/v2/isulats-test/missing-`);
    expect(got.details).not.toContain('https://');
  });
});

describe('config files (the CLI against the daemon)', () => {
  it('runp refuses a YAML pod config whose name is a number, in one line', async () => {
    const path = join(dir, 'pod-numeric-name.yaml');
    await writeFile(path, `metadata:\n  name: 12345\n  namespace: bad-input\n  uid: ${randomUUID()}\n  attempt: 0\nlinux: {}\n`);
    const before = await podUids(c);
    const r = await runCli(['runp', path], { env: { CONTAINER_RUNTIME_ENDPOINT: daemon.endpoint }, timeoutMs: 30_000 });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`load pod config file: ${path}: metadata.name: expected a string, got the number 12345`);
    expect(await podUids(c)).toEqual(before);
  });
});

describe('NUL bytes', () => {
  const nul = (e: Answer) => ({ code: e.code, details: e.details });

  it.each<[string, CriMessage, string]>([
    ['the namespace', { metadata: { name: `nul-${randomUUID()}`, uid: randomUUID(), namespace: 'bad\0input', attempt: 0 } }, 'config.metadata.namespace'],
    ['the log directory', { logDirectory: '/var/log/pods/a\0b' }, 'config.logDirectory'],
    ['a DNS search domain', { dnsConfig: { searches: ['svc.\0cluster.local'] } }, 'config.dnsConfig.searches[0]'],
  ])('RunPodSandbox refuses one in %s with InvalidArgument and keeps no pod', async (_what, extra, field) => {
    const config = podConfig(extra);
    const got = await answer(c.runtime('RunPodSandbox', { config }).then((r: CriMessage) => pods.push(r.podSandboxId)));
    expect(nul(got)).toEqual({ code: grpc.status.INVALID_ARGUMENT, details: `${field} must not contain a NUL byte` });
    expect(await podUids(c)).not.toContain(config.metadata.uid);
  });

  describe('in a container', () => {
    let podSandboxId: string;
    let config: CriMessage;
    let running: string;
    const ctr = (extra: CriMessage): CriMessage => ({
      metadata: { name: 'app', attempt: 0 }, image: { image: rigEnv().ISULATS_TEST_BUSYBOX }, command: ['sleep', '3600'], linux: {}, ...extra,
    });

    beforeAll(async () => {
      await c.image('PullImage', { image: { image: rigEnv().ISULATS_TEST_BUSYBOX } });
      config = podConfig({ linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } } });
      podSandboxId = (await c.runtime('RunPodSandbox', { config })).podSandboxId;
      pods.push(podSandboxId);
      running = (await c.runtime('CreateContainer', { podSandboxId, config: ctr({ metadata: { name: 'runs', attempt: 0 } }), sandboxConfig: config })).containerId;
      await c.runtime('StartContainer', { containerId: running });
    }, 120_000);

    it.each<[string, CriMessage, string]>([
      ['the name', { metadata: { name: 'app\0x', attempt: 0 } }, 'config.metadata.name'],
      ['the image', { image: { image: 'busybox\0' } }, 'config.image.image'],
      ['an argument', { args: ['ok', 'a\0b'] }, 'config.args[1]'],
      ['an env value', { envs: [{ key: 'A', value: Buffer.from('1\0') }] }, 'config.envs[0].value'],
      ['the log path', { logPath: 'app/\0.log' }, 'config.logPath'],
    ])('CreateContainer refuses one in %s with InvalidArgument and makes nothing', async (_what, extra, field) => {
      const got = await answer(c.runtime('CreateContainer', { podSandboxId, config: ctr(extra), sandboxConfig: config }));
      expect(nul(got)).toEqual({ code: grpc.status.INVALID_ARGUMENT, details: `${field} must not contain a NUL byte` });
      const left = (await c.runtime('ListContainers', { filter: { podSandboxId } })).containers.map((x: CriMessage) => x.id);
      expect(left).toEqual([running]);
    });

    it('ExecSync refuses one in the command with InvalidArgument', async () => {
      const got = await answer(c.runtime('ExecSync', { containerId: running, cmd: ['echo', 'a\0b'], timeout: '10' }));
      expect(nul(got)).toEqual({ code: grpc.status.INVALID_ARGUMENT, details: 'cmd[1] must not contain a NUL byte' });
    });
  });
});
