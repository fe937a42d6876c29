// Field ownership while merging plugin adjustments (after pkg/adaptation's
// result/owners): the first plugin to set or remove a field of a container
// owns it; a second plugin touching the same field is a conflict that fails
// the request. Keyed fields (annotations, mounts, env, ...) are owned per key.

/** Field numbers as in the NRI `Field` enum (OwningPlugins uses them on the wire). */
export const Field = {
  Annotations: 1,
  Mounts: 2,
  OciHooks: 3,
  Devices: 4,
  CdiDevices: 5,
  Env: 6,
  Args: 7,
  MemLimit: 8,
  MemReservation: 9,
  MemSwapLimit: 10,
  MemKernelLimit: 11,
  MemTCPLimit: 12,
  MemSwappiness: 13,
  MemDisableOomKiller: 14,
  MemUseHierarchy: 15,
  CPUShares: 16,
  CPUQuota: 17,
  CPUPeriod: 18,
  CPURealtimeRuntime: 19,
  CPURealtimePeriod: 20,
  CPUSetCPUs: 21,
  CPUSetMems: 22,
  PidsLimit: 23,
  HugepageLimits: 24,
  BlockioClass: 25,
  RdtClass: 26,
  CgroupsUnified: 27,
  CgroupsPath: 28,
  OomScoreAdj: 29,
  Rlimits: 30,
  IoPriority: 31,
  SeccompPolicy: 32,
  Namespace: 33,
  Sysctl: 34,
  LinuxNetDevices: 35,
  LinuxSched: 36,
  RdtClosID: 37,
  RdtSchemata: 38,
  RdtEnableMonitoring: 39,
  MemoryPolicy: 40,
} as const;
export type FieldName = keyof typeof Field;

const FIELD_LABELS: Partial<Record<FieldName, string>> = {
  Annotations: 'annotation',
  Mounts: 'mount',
  OciHooks: 'OCI hooks',
  Devices: 'device',
  CdiDevices: 'CDI device',
  Env: 'environment variable',
  Args: 'arguments',
  MemLimit: 'memory limit',
  MemReservation: 'memory reservation',
  MemSwapLimit: 'memory swap limit',
  MemKernelLimit: 'memory kernel limit',
  MemTCPLimit: 'memory TCP limit',
  MemSwappiness: 'memory swappiness',
  MemDisableOomKiller: 'memory disable OOM killer',
  MemUseHierarchy: 'memory use hierarchy',
  CPUShares: 'CPU shares',
  CPUQuota: 'CPU quota',
  CPUPeriod: 'CPU period',
  CPURealtimeRuntime: 'CPU realtime runtime',
  CPURealtimePeriod: 'CPU realtime period',
  CPUSetCPUs: 'cpuset CPUs',
  CPUSetMems: 'cpuset memory nodes',
  PidsLimit: 'pids limit',
  HugepageLimits: 'hugepage limit',
  BlockioClass: 'block I/O class',
  RdtClass: 'RDT class',
  CgroupsUnified: 'unified cgroup',
  CgroupsPath: 'cgroups path',
  OomScoreAdj: 'OOM score adjustment',
  Rlimits: 'rlimit',
  IoPriority: 'I/O priority',
  SeccompPolicy: 'seccomp policy',
  Namespace: 'namespace',
  Sysctl: 'sysctl',
  LinuxNetDevices: 'network device',
  LinuxSched: 'scheduling policy',
  RdtClosID: 'RDT CLOS ID',
  RdtSchemata: 'RDT schemata',
  RdtEnableMonitoring: 'RDT monitoring',
  MemoryPolicy: 'memory policy',
};

export class OwnershipConflictError extends Error {
  constructor(
    readonly containerId: string,
    readonly field: FieldName,
    readonly key: string | undefined,
    readonly owner: string,
    readonly plugin: string,
  ) {
    const what = key === undefined ? FIELD_LABELS[field] ?? field : `${FIELD_LABELS[field] ?? field} ${JSON.stringify(key)}`;
    super(`NRI plugins ${JSON.stringify(owner)} and ${JSON.stringify(plugin)} both tried to set ${what} of container ${containerId}`);
    this.name = 'OwnershipConflictError';
  }
}

interface ContainerOwners {
  simple: Map<FieldName, string>;
  compound: Map<FieldName, Map<string, string>>;
}

export class Owners {
  private readonly byContainer = new Map<string, ContainerOwners>();

  private of(id: string): ContainerOwners {
    let o = this.byContainer.get(id);
    if (!o) {
      o = { simple: new Map(), compound: new Map() };
      this.byContainer.set(id, o);
    }
    return o;
  }

  claim(id: string, field: FieldName, plugin: string): void {
    const o = this.of(id);
    const owner = o.simple.get(field);
    if (owner !== undefined && owner !== plugin) throw new OwnershipConflictError(id, field, undefined, owner, plugin);
    o.simple.set(field, plugin);
  }

  claimKey(id: string, field: FieldName, key: string, plugin: string): void {
    const o = this.of(id);
    let keys = o.compound.get(field);
    if (!keys) {
      keys = new Map();
      o.compound.set(field, keys);
    }
    const owner = keys.get(key);
    if (owner !== undefined && owner !== plugin) throw new OwnershipConflictError(id, field, key, owner, plugin);
    keys.set(key, plugin);
  }

  /** Hooks are appended, never conflicting: every contributor is recorded, comma-separated. */
  addHooksOwner(id: string, plugin: string): void {
    const o = this.of(id);
    const owners = (o.simple.get('OciHooks') ?? '').split(',').filter(Boolean);
    if (!owners.includes(plugin)) owners.push(plugin);
    o.simple.set('OciHooks', owners.join(','));
  }

  owner(id: string, field: FieldName, key?: string): string | undefined {
    const o = this.byContainer.get(id);
    if (!o) return undefined;
    return key === undefined ? o.simple.get(field) : o.compound.get(field)?.get(key);
  }

  keyOwners(id: string, field: FieldName): Map<string, string> {
    return new Map(this.byContainer.get(id)?.compound.get(field) ?? []);
  }

  /** The OwningPlugins message (input form) for ValidateContainerAdjustment. */
  toProto(): { owners: Record<string, { simple: Record<number, string>; compound: Record<number, { owners: Record<string, string> }> }> } {
    const owners: Record<string, { simple: Record<number, string>; compound: Record<number, { owners: Record<string, string> }> }> = {};
    for (const [id, o] of this.byContainer) {
      const simple: Record<number, string> = {};
      for (const [f, p] of o.simple) simple[Field[f]] = p;
      const compound: Record<number, { owners: Record<string, string> }> = {};
      for (const [f, keys] of o.compound) compound[Field[f]] = { owners: Object.fromEntries(keys) };
      owners[id] = { simple, compound };
    }
    return { owners };
  }
}
