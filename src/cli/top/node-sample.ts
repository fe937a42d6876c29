// One reading of the node through CRI only (ListPodSandbox, ListContainers,
// ListContainerStats), so `top` works against any runtime. Stats carry no
// pod ID: the container listing supplies it.
import type { CriBackend } from '../../client/backend.js';

export interface PodInfo {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
}

export interface ContainerReading {
  id: string;
  name: string;
  podId: string;
  /** Cumulative CPU time (core-nanoseconds) and when it was read (ns); absent when the runtime gave none. */
  cpu?: { usageNs: bigint; atNs: bigint };
  memBytes: number;
}

export interface NodeSample {
  pods: PodInfo[];
  containers: ContainerReading[];
}

type StatsSource = Pick<CriBackend, 'listPodSandbox' | 'listContainers' | 'listContainerStats'>;

export async function sampleNode(backend: StatsSource): Promise<NodeSample> {
  const [{ items }, { containers }, { stats }] = await Promise.all([
    backend.listPodSandbox({ filter: { state: { state: 'SANDBOX_READY' } } }),
    backend.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } }),
    backend.listContainerStats({}),
  ]);
  const running = new Map(containers.map((c) => [c.id, c]));
  const readings: ContainerReading[] = [];
  for (const s of stats) {
    const c = running.get(s.attributes?.id ?? '');
    if (!c) continue;
    const usage = s.cpu?.usageCoreNanoSeconds?.value;
    readings.push({
      id: c.id,
      name: c.metadata?.name ?? s.attributes?.metadata?.name ?? '',
      podId: c.podSandboxId,
      cpu: usage !== undefined && s.cpu?.timestamp ? { usageNs: BigInt(usage), atNs: BigInt(s.cpu.timestamp) } : undefined,
      memBytes: Number(s.memory?.workingSetBytes?.value ?? 0),
    });
  }
  const pods = items.map((p) => ({ id: p.id, name: p.metadata?.name ?? '', namespace: p.metadata?.namespace ?? '', labels: p.labels ?? {} }));
  return { pods, containers: readings };
}
