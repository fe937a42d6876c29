// Image volumes through `isulats daemon` over CRI, with two images built and
// pushed to the rig's registry in the test: the volumes a running container
// mounts survive a daemon crash and restart, a container made after the
// restart mounts them too, RemoveImage is refused while they are used and
// works once the pod is gone.
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { layer, pushImage } from './image-fixtures.js';

describe('image volumes in the daemon', () => {
  let daemon: IsulatsDaemon;
  let c: RawCriClient;
  let weights: string;
  let settings: string;
  let pod: CriMessage;
  let podSandboxId = '';

  beforeAll(async () => {
    const env = rigEnv();
    const registry = env.ISULATS_TEST_REGISTRY;
    const tag = `v${process.pid}`;
    await pushImage({ url: `http://${registry}` }, 'ml/model-weights', tag, [
      await layer([{ name: 'weights/', type: 'directory', mode: 0o755 }, { name: 'weights/model.bin', type: 'file', data: `weights ${tag}\n`, mode: 0o644 }]),
      await layer([{ name: 'weights/tokenizer.json', type: 'file', data: '{"vocab":3}\n', mode: 0o644 }]),
    ]);
    await pushImage({ url: `http://${registry}` }, 'platform/app-settings', tag, [
      await layer([{ name: 'conf/', type: 'directory', mode: 0o755 }, { name: 'conf/app.yaml', type: 'file', data: 'replicas: 3\n', mode: 0o644 }, { name: 'README', type: 'file', data: 'x\n', mode: 0o644 }]),
    ]);
    weights = `${registry}/ml/model-weights:${tag}`;
    settings = `${registry}/platform/app-settings:${tag}`;
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    c = openCriClient(daemon.endpoint);
    for (const image of [env.ISULATS_TEST_BUSYBOX, weights, settings]) await c.image('PullImage', { image: { image } });
    const uid = randomUUID();
    const name = `llm-server-${uid.slice(0, 8)}`;
    pod = {
      metadata: { name, uid, namespace: 'ml', attempt: 0 },
      hostname: name,
      labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'ml', 'io.kubernetes.pod.uid': uid },
      linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
    };
    podSandboxId = (await c.runtime('RunPodSandbox', { config: pod })).podSandboxId;
  }, 180_000);

  afterAll(async () => {
    if (podSandboxId) {
      await c.runtime('StopPodSandbox', { podSandboxId }).catch(() => undefined);
      await c.runtime('RemovePodSandbox', { podSandboxId }).catch(() => undefined);
    }
    c?.close();
    await daemon?.cleanup();
  }, 120_000);

  // As kubelet sends an image volume: no host path, read-only, the image by the name it pulled.
  const container = (name: string): CriMessage => ({
    metadata: { name, attempt: 0 },
    image: { image: rigEnv().ISULATS_TEST_BUSYBOX },
    command: ['sleep', '3600'],
    labels: { 'io.kubernetes.container.name': name, 'io.kubernetes.pod.uid': pod.metadata.uid },
    mounts: [
      { containerPath: '/models', hostPath: '', readonly: true, propagation: 'PROPAGATION_PRIVATE', image: { image: weights } },
      { containerPath: '/etc/app', hostPath: '', readonly: true, propagation: 'PROPAGATION_PRIVATE', image: { image: settings }, imageSubPath: 'conf' },
    ],
    linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
  });
  const run = async (containerId: string, script: string) => Buffer.from((await c.runtime('ExecSync', { containerId, cmd: ['sh', '-c', script], timeout: 10 })).stdout).toString();
  const READ = 'cat /models/weights/model.bin /models/weights/tokenizer.json /etc/app/app.yaml; ls /etc/app';

  it('keeps the volumes across a daemon crash and restart, and mounts them in a container made after it', async () => {
    const tag = weights.split(':').pop();
    const { containerId } = await c.runtime('CreateContainer', { podSandboxId, config: container('server'), sandboxConfig: pod });
    await c.runtime('StartContainer', { containerId });
    const expected = `weights ${tag}\n{"vocab":3}\nreplicas: 3\napp.yaml\n`;
    expect(await run(containerId, READ)).toBe(expected);
    await daemon.kill();
    await daemon.start();
    expect(await run(containerId, READ)).toBe(expected);
    const second = (await c.runtime('CreateContainer', { podSandboxId, config: container('sidecar'), sandboxConfig: pod })).containerId;
    await c.runtime('StartContainer', { containerId: second });
    expect(await run(second, READ)).toBe(expected);
  });

  it('refuses RemoveImage of a volume\'s image while a container uses it, and removes it once the pod is gone', async () => {
    const err = (await c.image('RemoveImage', { image: { image: settings } }).catch((e: unknown) => e)) as grpc.ServiceError;
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(err.details).toBe(`image ${settings} is in use as a volume by 2 container(s)`);
    await c.runtime('StopPodSandbox', { podSandboxId });
    await c.runtime('RemovePodSandbox', { podSandboxId });
    podSandboxId = '';
    await c.image('RemoveImage', { image: { image: settings } });
    expect((await c.image('ImageStatus', { image: { image: settings } })).image).toBeNull();
  });
});
