// Caps on what one plugin's answer may ask for. Merging and applying are
// linear, but a plugin's answer is still work on the runtime's event loop and
// lands in a container's spec: past a cap the create fails naming the plugin,
// nothing of the answer is applied. docs/architecture.md ("NRI plugins" in
// Limits) gives the reason for each value.
import type * as nri from '../../api/nri.js';

export const ADJUSTMENT_LIMITS = {
  /** Env entries (set or removed): 4x a namespace of ~585 Services' links, well under ARG_MAX's strings. */
  env: 16_384,
  /** Process args (replacing the container's). */
  args: 16_384,
  mounts: 1_024,
  /** Devices, and device cgroup rules. */
  devices: 1_024,
  cdiDevices: 1_024,
  /** OCI hooks over all six kinds. */
  hooks: 128,
  /** Entries of a hook's own args or env. */
  hookArgs: 1_024,
  rlimits: 64,
  annotations: 4_096,
  /** Keys and values together: kubelet's TotalAnnotationSizeLimitB. */
  annotationBytes: 256 * 1024,
  sysctls: 1_024,
  namespaces: 16,
  netDevices: 256,
  /** Hugepage limits and unified cgroup keys, each. */
  resourceKeys: 1_024,
  seccompSyscalls: 4_096,
  /** ContainerUpdate entries (one per container). */
  updates: 4_096,
  evictions: 4_096,
} as const;

export type AdjustmentLimit = keyof typeof ADJUSTMENT_LIMITS;

/** A plugin asked for more than a cap allows. */
export class AdjustmentLimitError extends Error {
  constructor(
    readonly plugin: string,
    readonly limit: AdjustmentLimit,
    readonly count: number,
  ) {
    super(`plugin ${plugin} asked for ${count} ${LABELS[limit]}, over the limit of ${ADJUSTMENT_LIMITS[limit]}`);
    this.name = 'AdjustmentLimitError';
  }
}

const LABELS: Record<AdjustmentLimit, string> = {
  env: 'environment variables',
  args: 'arguments',
  mounts: 'mounts',
  devices: 'devices',
  cdiDevices: 'CDI devices',
  hooks: 'OCI hooks',
  hookArgs: 'args or env entries in one OCI hook',
  rlimits: 'rlimits',
  annotations: 'annotations',
  annotationBytes: 'bytes of annotations',
  sysctls: 'sysctls',
  namespaces: 'namespaces',
  netDevices: 'network devices',
  resourceKeys: 'resource entries of one kind',
  seccompSyscalls: 'seccomp syscall rules',
  updates: 'container updates',
  evictions: 'evictions',
};

function check(plugin: string, limit: AdjustmentLimit, count: number): void {
  if (count > ADJUSTMENT_LIMITS[limit]) throw new AdjustmentLimitError(plugin, limit, count);
}

const HOOK_KINDS = ['prestart', 'createRuntime', 'createContainer', 'startContainer', 'poststart', 'poststop'] as const;

function checkResources(plugin: string, r: Partial<nri.LinuxResources> | null | undefined): void {
  if (!r) return;
  check(plugin, 'devices', r.devices?.length ?? 0);
  check(plugin, 'resourceKeys', r.hugepageLimits?.length ?? 0);
  check(plugin, 'resourceKeys', Object.keys(r.unified ?? {}).length);
}

/** Throws AdjustmentLimitError when one plugin's adjustment is past a cap. */
export function checkAdjustment(plugin: string, adj: Partial<nri.ContainerAdjustment>): void {
  check(plugin, 'env', adj.env?.length ?? 0);
  check(plugin, 'args', adj.args?.length ?? 0);
  check(plugin, 'mounts', adj.mounts?.length ?? 0);
  check(plugin, 'cdiDevices', adj.CDIDevices?.length ?? 0);
  check(plugin, 'rlimits', adj.rlimits?.length ?? 0);
  const annotations = Object.entries(adj.annotations ?? {});
  check(plugin, 'annotations', annotations.length);
  let bytes = 0;
  for (const [k, v] of annotations) bytes += Buffer.byteLength(k) + Buffer.byteLength(v ?? '');
  check(plugin, 'annotationBytes', bytes);
  if (adj.hooks) {
    let hooks = 0;
    for (const kind of HOOK_KINDS) {
      for (const h of adj.hooks[kind] ?? []) {
        hooks++;
        check(plugin, 'hookArgs', Math.max(h.args?.length ?? 0, h.env?.length ?? 0));
      }
    }
    check(plugin, 'hooks', hooks);
  }
  const l = adj.linux;
  if (l) {
    check(plugin, 'devices', l.devices?.length ?? 0);
    check(plugin, 'sysctls', Object.keys(l.sysctl ?? {}).length);
    check(plugin, 'namespaces', l.namespaces?.length ?? 0);
    check(plugin, 'netDevices', Object.keys(l.netDevices ?? {}).length);
    check(plugin, 'seccompSyscalls', l.seccompPolicy?.syscalls?.length ?? 0);
    checkResources(plugin, l.resources);
  }
}

/** Throws AdjustmentLimitError when one plugin's updates or evictions are past a cap. */
export function checkUpdates(plugin: string, updates: readonly nri.ContainerUpdate[], evictions: readonly nri.ContainerEviction[]): void {
  check(plugin, 'updates', updates.length);
  check(plugin, 'evictions', evictions.length);
  for (const u of updates) checkResources(plugin, u.linux?.resources);
}
