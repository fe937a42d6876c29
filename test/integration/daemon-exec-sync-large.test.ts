// ExecSync with as much env and argv as the kernel takes: a container with
// 5,000 kubelet service-link variables (about 715 Services' worth) runs an
// exec probe that sees every one of them, and an exec with 6,000 arguments
// runs; on isulats daemon and containerd in the same run, with the same
// answers. The execsync helper once had fixed 4,096-entry tables and failed
// both with INTERNAL "unknown or repeated-too-often plan key env".
// (The project's api.proto has KeyValue.value as bytes, so values go as Buffers.)
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';

const SUFFIXES = ['SERVICE_HOST', 'SERVICE_PORT', 'PORT', 'PORT_80_TCP', 'PORT_80_TCP_PROTO', 'PORT_80_TCP_PORT', 'PORT_80_TCP_ADDR'];

/** kubelet's service links for `n` variables: 7 per Service, named after it. */
function serviceLinks(n: number): { key: string; value: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const svc = `BACKEND_${Math.floor(i / 7)}`;
    const ip = `10.96.${Math.floor(i / 7 / 250)}.${(Math.floor(i / 7) % 250) + 1}`;
    const suffix = SUFFIXES[i % 7]!;
    const value = suffix === 'PORT_80_TCP_PROTO' ? 'tcp' : suffix.endsWith('PORT') ? '80' : suffix === 'PORT' || suffix === 'PORT_80_TCP' ? `tcp://${ip}:80` : ip;
    return { key: `${svc}_${suffix}`, value };
  });
}

const ENV = serviceLinks(5_000);
const ARGS = Array.from({ length: 6_000 }, (_, i) => `arg-${i}`);

let daemon: IsulatsDaemon;
const clients: Record<string, RawCriClient> = {};

beforeAll(async () => {
  const env = rigEnv();
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  clients.isulats = openCriClient(daemon.endpoint);
  clients.containerd = openCriClient(env.ISULATS_TEST_CONTAINERD);
  for (const c of Object.values(clients)) await c.image('PullImage', { image: { image: env.ISULATS_TEST_BUSYBOX } }, 120_000);
}, 180_000);

afterAll(async () => {
  for (const c of Object.values(clients)) c.close();
  await daemon?.cleanup();
});

async function withContainer<T>(c: RawCriClient, fn: (containerId: string) => Promise<T>): Promise<T> {
  const uid = randomUUID();
  const name = `exec-large-${uid}`;
  const sandboxConfig: CriMessage = {
    metadata: { name, uid, namespace: `exec-large-${uid.slice(0, 8)}`, attempt: 0 },
    logDirectory: join('/tmp', `isx-${uid}`),
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': `exec-large-${uid.slice(0, 8)}`, 'io.kubernetes.pod.uid': uid },
    linux: {},
  };
  const { podSandboxId } = await c.runtime('RunPodSandbox', { config: sandboxConfig }, 60_000);
  try {
    const { containerId } = await c.runtime('CreateContainer', {
      podSandboxId, sandboxConfig,
      config: {
        metadata: { name: 'app', attempt: 0 }, image: { image: rigEnv().ISULATS_TEST_BUSYBOX }, command: ['sleep', '3600'],
        envs: ENV.map((e) => ({ key: e.key, value: Buffer.from(e.value) })), logPath: 'app/0.log', labels: { 'io.kubernetes.container.name': 'app', 'io.kubernetes.pod.uid': uid }, linux: {},
      },
    }, 60_000);
    await c.runtime('StartContainer', { containerId }, 60_000);
    return await fn(containerId as string);
  } finally {
    await c.runtime('StopPodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
    await c.runtime('RemovePodSandbox', { podSandboxId }, 60_000);
    rmSync(sandboxConfig.logDirectory as string, { recursive: true, force: true });
  }
}

async function probe(c: RawCriClient): Promise<{ env: string[]; argc: string; lastArg: string; codes: number[] }> {
  return withContainer(c, async (containerId) => {
    const env = await c.runtime('ExecSync', { containerId, cmd: ['env'], timeout: 30 }, 60_000);
    const argv = await c.runtime('ExecSync', { containerId, cmd: ['sh', '-c', 'echo $#; eval echo \\${$#}', 'sh', ...ARGS], timeout: 30 }, 60_000);
    const [argc = '', lastArg = ''] = Buffer.from(argv.stdout as Uint8Array).toString().trim().split('\n');
    const lines = Buffer.from(env.stdout as Uint8Array).toString().split('\n').filter((l) => l.startsWith('BACKEND_'));
    return { env: lines.sort(), argc, lastArg, codes: [env.exitCode as number, argv.exitCode as number] };
  });
}

describe('ExecSync with thousands of env vars and args', () => {
  it('sees all 5,000 service-link variables and runs 6,000 args, as containerd does', async () => {
    const expected = ENV.map((e) => `${e.key}=${e.value}`).sort();
    const got = await probe(clients.isulats!);
    expect(got.codes).toEqual([0, 0]);
    expect(got.env).toHaveLength(5_000);
    expect(got.env).toEqual(expected);
    expect([got.argc, got.lastArg]).toEqual(['6000', 'arg-5999']);
    const ctd = await probe(clients.containerd!);
    expect(ctd).toEqual(got);
  }, 300_000);
});
