// Shared by the daemon benchmarks (daemon-bench.ts, rss.ts): N pods through one in-process
// CRI client (their teardown is bench/bench-rig.ts's).
import { randomUUID } from 'node:crypto';
import { openCriClient } from '../../test/rig/cri-client.js';

/** Runs one pod with one `sleep 3600` container per name; resolves with the error messages of those that failed. */
export async function runPodsInProcess(endpoint: string, image: string, names: string[]): Promise<string[]> {
  const cri = openCriClient(endpoint);
  try {
    const outcomes = await Promise.all(names.map(async (name) => {
      const sandboxConfig = {
        metadata: { name, uid: randomUUID(), namespace: 'default', attempt: 0 },
        linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
      };
      const pod = await cri.runtime('RunPodSandbox', { config: sandboxConfig }, 300_000);
      const ctr = await cri.runtime('CreateContainer', {
        podSandboxId: pod.podSandboxId,
        config: { metadata: { name, attempt: 0 }, image: { image }, command: ['sleep', '3600'], linux: {} },
        sandboxConfig,
      }, 300_000);
      await cri.runtime('StartContainer', { containerId: ctr.containerId }, 300_000);
    }).map((p) => p.then(() => undefined, (e: Error) => e.message)));
    return outcomes.filter((o): o is string => o !== undefined);
  } finally {
    cri.close();
  }
}
