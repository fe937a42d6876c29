// Shared by the daemon benchmarks (daemon-bench.ts, rss.ts): N pods through one in-process
// CRI client, and the teardown of what a run started.
import { randomUUID } from 'node:crypto';
import type { Containerd } from '../../test/rig/containerd.js';
import { openCriClient } from '../../test/rig/cri-client.js';
import type { Registry } from '../../test/rig/registry.js';
import { removeTempDir } from '../../test/rig/temp-dir.js';
import type { IsulatsDaemon } from '../../test/e2e/helpers/isulats-daemon.js';

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

/** Stops the daemons, containerd and the registry (each failure said, none stopping the rest), then removes the temp dir. */
export async function teardown(p: { daemons: Array<IsulatsDaemon | undefined>; containerd?: Containerd; registry?: Registry; dir: string }): Promise<void> {
  for (const d of p.daemons) await d?.cleanup().catch((e: Error) => console.error(`daemon cleanup: ${e.message}`));
  await p.containerd?.stop().catch((e: Error) => console.error(`containerd cleanup: ${e.message}`));
  await p.registry?.stop().catch((e: Error) => console.error(`registry cleanup: ${e.message}`));
  await removeTempDir(p.dir);
}
