// The calls a daemon serves before its "idle" memory is read (bench/daemon/rss.ts): what a node's
// kubelet asks of a quiet runtime, once each, so that both daemons have loaded what serving needs:
// pull, a pod with one container, ExecSync, the stats and list calls, Status, then the pod's removal.
import { randomUUID } from 'node:crypto';
import { openCriClient } from '../../test/rig/cri-client.js';

/** Runs the round against `endpoint`; resolves with the calls that failed (the reference may not implement all). */
export async function serveOneRound(endpoint: string, image: string, name: string): Promise<string[]> {
  const cri = openCriClient(endpoint);
  const failed: string[] = [];
  const call = async (service: 'runtime' | 'image', method: string, request: Record<string, unknown>) => {
    try {
      return await cri[service](method, request, 120_000);
    } catch (e) {
      failed.push(`${method}: ${(e as Error).message.split('\n')[0]}`);
      return undefined;
    }
  };
  try {
    await call('image', 'PullImage', { image: { image } });
    await call('image', 'ImageStatus', { image: { image } });
    await call('image', 'ListImages', {});
    await call('image', 'ImageFsInfo', {});
    const sandboxConfig = {
      metadata: { name: `${name}-${randomUUID()}`, uid: randomUUID(), namespace: 'default', attempt: 0 },
      labels: { 'io.kubernetes.pod.namespace': 'default' },
      linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
    };
    const pod = await call('runtime', 'RunPodSandbox', { config: sandboxConfig });
    if (!pod) return failed;
    const ctr = await call('runtime', 'CreateContainer', {
      podSandboxId: pod.podSandboxId,
      config: { metadata: { name, attempt: 0 }, image: { image }, command: ['sleep', '3600'], linux: {} },
      sandboxConfig,
    });
    if (ctr) {
      await call('runtime', 'StartContainer', { containerId: ctr.containerId });
      await call('runtime', 'ExecSync', { containerId: ctr.containerId, cmd: ['echo', 'hi'], timeout: 10 });
      await call('runtime', 'Exec', { containerId: ctr.containerId, cmd: ['sh'], stdout: true });
      await call('runtime', 'ContainerStatus', { containerId: ctr.containerId, verbose: true });
      await call('runtime', 'ContainerStats', { containerId: ctr.containerId });
      await call('runtime', 'ListContainerStats', {});
    }
    await call('runtime', 'PodSandboxStatus', { podSandboxId: pod.podSandboxId, verbose: true });
    await call('runtime', 'ListPodSandboxStats', {});
    await call('runtime', 'ListPodSandbox', {});
    await call('runtime', 'ListContainers', {});
    await call('runtime', 'Status', { verbose: true });
    await call('runtime', 'StopPodSandbox', { podSandboxId: pod.podSandboxId });
    await call('runtime', 'RemovePodSandbox', { podSandboxId: pod.podSandboxId });
    return failed;
  } finally {
    cri.close();
  }
}
