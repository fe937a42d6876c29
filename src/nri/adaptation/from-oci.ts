// Builds the NRI view of a container from its OCI spec, for the engine to
// pass to createContainer/Synchronize and the other events. Pure data: the
// engine adds what a spec does not hold (IDs, state, labels, timestamps).
import type * as nri from '../../api/nri.js';
import type { OciResources, OciSpec } from './oci-spec.js';

export interface ContainerMeta {
  id: string;
  podSandboxId: string;
  name: string;
  state?: nri.ContainerStateIn;
  labels?: Record<string, string>;
  /** Container annotations (defaults to the spec's). */
  annotations?: Record<string, string>;
  pid?: number;
  /** Nanoseconds since the epoch, decimal strings. */
  createdAt?: string;
  startedAt?: string;
  finishedAt?: string;
  exitCode?: number;
  statusReason?: string;
  statusMessage?: string;
  image?: nri.ImageIn;
}

const str = (n: number | undefined): { value: string } | undefined => (n === undefined ? undefined : { value: String(n) });

/** OCI LinuxResources to NRI LinuxResources (input form). */
export function nriResourcesFromOci(r: OciResources | undefined): nri.LinuxResourcesIn | undefined {
  if (!r) return undefined;
  const out: nri.LinuxResourcesIn = {};
  if (r.memory) {
    const m = r.memory;
    out.memory = {
      limit: str(m.limit),
      reservation: str(m.reservation),
      swap: str(m.swap),
      kernel: str(m.kernel),
      kernelTcp: str(m.kernelTCP),
      swappiness: str(m.swappiness),
      disableOomKiller: m.disableOOMKiller === undefined ? undefined : { value: m.disableOOMKiller },
      useHierarchy: m.useHierarchy === undefined ? undefined : { value: m.useHierarchy },
    };
  }
  if (r.cpu) {
    const c = r.cpu;
    out.cpu = {
      shares: str(c.shares),
      quota: str(c.quota),
      period: str(c.period),
      realtimeRuntime: str(c.realtimeRuntime),
      realtimePeriod: str(c.realtimePeriod),
      cpus: c.cpus ?? '',
      mems: c.mems ?? '',
    };
  }
  if (r.hugepageLimits) out.hugepageLimits = r.hugepageLimits.map((h) => ({ pageSize: h.pageSize, limit: String(h.limit) }));
  if (r.unified) out.unified = { ...r.unified };
  if (r.pids) out.pids = { limit: String(r.pids.limit) };
  if (r.devices) {
    out.devices = r.devices.map((d) => ({
      allow: d.allow,
      type: d.type ?? '',
      major: str(d.major),
      minor: str(d.minor),
      access: d.access ?? '',
    }));
  }
  return out;
}

export function nriContainerFromOci(spec: OciSpec, meta: ContainerMeta): nri.ContainerIn {
  const proc = spec.process ?? {};
  const linux = spec.linux ?? {};
  const hooks = spec.hooks ?? {};
  const hook = (h: { path: string; args?: string[]; env?: string[]; timeout?: number }): nri.HookIn => ({
    path: h.path,
    args: h.args ?? [],
    env: h.env ?? [],
    timeout: h.timeout === undefined ? undefined : { value: String(h.timeout) },
  });
  const user = proc.user as { uid?: number; gid?: number; additionalGids?: number[] } | undefined;
  return {
    id: meta.id,
    podSandboxId: meta.podSandboxId,
    name: meta.name,
    state: meta.state ?? 'CONTAINER_UNKNOWN',
    labels: meta.labels ?? {},
    annotations: meta.annotations ?? spec.annotations ?? {},
    args: proc.args ?? [],
    env: proc.env ?? [],
    mounts: (spec.mounts ?? []).map((m) => ({ destination: m.destination, type: m.type ?? '', source: m.source ?? '', options: m.options ?? [] })),
    hooks: {
      prestart: (hooks.prestart ?? []).map(hook),
      createRuntime: (hooks.createRuntime ?? []).map(hook),
      createContainer: (hooks.createContainer ?? []).map(hook),
      startContainer: (hooks.startContainer ?? []).map(hook),
      poststart: (hooks.poststart ?? []).map(hook),
      poststop: (hooks.poststop ?? []).map(hook),
    },
    linux: {
      namespaces: (linux.namespaces ?? []).map((n) => ({ type: n.type, path: n.path ?? '' })),
      devices: (linux.devices ?? []).map((d) => ({
        path: d.path,
        type: d.type,
        major: String(d.major),
        minor: String(d.minor),
        fileMode: d.fileMode === undefined ? undefined : { value: d.fileMode },
        uid: d.uid === undefined ? undefined : { value: d.uid },
        gid: d.gid === undefined ? undefined : { value: d.gid },
      })),
      resources: nriResourcesFromOci(linux.resources),
      oomScoreAdj: proc.oomScoreAdj === undefined ? undefined : { value: String(proc.oomScoreAdj) },
      cgroupsPath: linux.cgroupsPath ?? '',
      ioPriority: proc.ioPriority ? { class: proc.ioPriority.class as nri.IOPrioClassIn, priority: proc.ioPriority.priority } : undefined,
      sysctl: linux.sysctl ?? {},
    },
    pid: meta.pid ?? 0,
    rlimits: (proc.rlimits ?? []).map((r) => ({ type: r.type, hard: String(r.hard), soft: String(r.soft) })),
    createdAt: meta.createdAt ?? '0',
    startedAt: meta.startedAt ?? '0',
    finishedAt: meta.finishedAt ?? '0',
    exitCode: meta.exitCode ?? 0,
    statusReason: meta.statusReason ?? '',
    statusMessage: meta.statusMessage ?? '',
    user: user ? { uid: user.uid ?? 0, gid: user.gid ?? 0, additionalGids: user.additionalGids ?? [] } : undefined,
    image: meta.image,
  };
}
