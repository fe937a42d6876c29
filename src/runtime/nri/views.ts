// The NRI view of the engine's records: pods and containers as NRI messages
// (input form), and resource conversions between CRI, NRI and the OCI
// runtime's update call. Pure data, no I/O.
import type * as cri from '../../api/cri.js';
import type * as nri from '../../api/nri.js';
import { nriContainerFromOci, type OciSpec } from '../../nri/adaptation/index.js';
import type { LinuxResourcesUpdate } from '../oci/cgroups.js';
import type { SandboxRecord } from '../sandbox/sandbox-record.js';
import type { ContainerRecord } from '../container/container-record.js';
import { toInt } from '../container/cri-values.js';

const NRI_STATE: Record<ContainerRecord['state'], nri.ContainerStateIn> = {
  CONTAINER_CREATED: 'CONTAINER_CREATED',
  CONTAINER_RUNNING: 'CONTAINER_RUNNING',
  CONTAINER_EXITED: 'CONTAINER_STOPPED',
  CONTAINER_UNKNOWN: 'CONTAINER_UNKNOWN',
};

export function podView(record: SandboxRecord): nri.PodSandboxIn {
  const meta = record.config.metadata ?? {};
  const ns = record.namespaces;
  const namespaces: nri.LinuxNamespaceIn[] = [];
  const ofPause = (kind: string) => (record.pid > 0 ? `/proc/${record.pid}/ns/${kind}` : '');
  // Pinned namespaces by their files; a pod made before pins by its pause's.
  if (ns.network !== 'NODE' && record.netnsPath) namespaces.push({ type: 'network', path: record.netnsPath });
  if (ns.ipc !== 'NODE') namespaces.push({ type: 'ipc', path: record.ipcnsPath ?? ofPause('ipc') });
  if (ns.network !== 'NODE' && record.utsnsPath) namespaces.push({ type: 'uts', path: record.utsnsPath });
  // Only a pod with a pause container shares a PID namespace (pid 0 otherwise).
  if (ns.pid === 'POD') namespaces.push({ type: 'pid', path: ofPause('pid') });
  return {
    id: record.id,
    name: meta.name ?? '',
    uid: meta.uid ?? '',
    namespace: meta.namespace ?? '',
    labels: record.config.labels ?? {},
    annotations: record.config.annotations ?? {},
    runtimeHandler: record.runtimeHandler,
    linux: {
      cgroupParent: record.cgroupParent,
      cgroupsPath: record.cgroupsPath,
      namespaces,
      // As the pod was run, or as UpdatePodSandboxResources last set them.
      ...(record.config.linux?.overhead ? { podOverhead: nriResourcesFromCri(record.config.linux.overhead) } : {}),
      ...(record.config.linux?.resources ? { podResources: nriResourcesFromCri(record.config.linux.resources) } : {}),
    },
    pid: record.pid,
    ips: record.ips,
  };
}

/** A pod known only by its ID (its record is already gone). */
export function podStub(id: string): nri.PodSandboxIn {
  return { id };
}

/** The container as NRI sees it; `spec` is its OCI spec (empty when the bundle is gone). */
export function containerView(record: ContainerRecord, spec: OciSpec = {}, state?: nri.ContainerStateIn): nri.ContainerIn {
  return nriContainerFromOci(spec, {
    id: record.id,
    podSandboxId: record.sandboxId,
    name: record.config.metadata?.name ?? '',
    state: state ?? NRI_STATE[record.state] ?? 'CONTAINER_UNKNOWN',
    labels: record.config.labels ?? {},
    annotations: record.config.annotations ?? spec.annotations ?? {},
    pid: record.pid,
    createdAt: record.createdAt,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    exitCode: record.exitCode,
    statusReason: record.reason,
    statusMessage: record.message,
  });
}

const wrap = (n: number | undefined): { value: string } | undefined => (n ? { value: String(n) } : undefined);

/** CRI LinuxContainerResources (an UpdateContainerResources request) as NRI LinuxResources. */
export function nriResourcesFromCri(r: cri.LinuxContainerResourcesIn): nri.LinuxResourcesIn {
  return {
    cpu: {
      shares: wrap(toInt(r.cpuShares)),
      quota: wrap(toInt(r.cpuQuota)),
      period: wrap(toInt(r.cpuPeriod)),
      cpus: r.cpusetCpus ?? '',
      mems: r.cpusetMems ?? '',
    },
    memory: { limit: wrap(toInt(r.memoryLimitInBytes)), swap: wrap(toInt(r.memorySwapLimitInBytes)) },
    unified: r.unified ?? {},
  };
}

const num = (v: { value?: unknown } | null | undefined): number | undefined => {
  const n = Number(v?.value ?? 0);
  return Number.isFinite(n) && n !== 0 ? n : undefined;
};

/** NRI LinuxResources (a plugin's update) as the OCI runtime's update call takes them. */
export function runtimeUpdateFromNri(r: nri.LinuxResources | null | undefined): LinuxResourcesUpdate {
  const out: LinuxResourcesUpdate = {};
  const c = r?.cpu;
  if (c) out.cpu = { shares: num(c.shares), quota: num(c.quota), period: num(c.period), cpus: c.cpus || undefined, mems: c.mems || undefined };
  const m = r?.memory;
  if (m) out.memory = { limit: num(m.limit), swap: num(m.swap) };
  if (r?.unified && Object.keys(r.unified).length) out.unified = { ...r.unified };
  return out;
}

/** Makes a (possibly multi-line) error message fit on one line. */
export function oneLine(message: string): string {
  return message.trim().replace(/\s*\n\s*/g, '; ');
}
