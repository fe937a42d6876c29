// Merges the answers of plugins, in plugin index order, into one
// ContainerAdjustment and one list of ContainerUpdates, claiming field
// ownership as it goes (see owners.ts). The container in the request is
// updated too, so each plugin sees what earlier plugins changed.
// Removal is requested by prefixing a key with '-' (annotation key, mount
// destination, env name, device path, namespace type, sysctl key).
import type * as nri from '../../api/nri.js';
import { checkAdjustment, checkUpdates } from './limits.js';
import { Owners, type FieldName } from './owners.js';

type Resources = nri.LinuxResources;
type Adjustment = nri.ContainerAdjustment;
type LinuxAdjustment = nri.LinuxContainerAdjustment;

export const REMOVAL_PREFIX = '-';

export function isMarkedForRemoval(key: string): [string, boolean] {
  return key.startsWith(REMOVAL_PREFIX) ? [key.slice(1), true] : [key, false];
}

export function emptyResources(): Resources {
  return {
    memory: null,
    cpu: null,
    hugepageLimits: [],
    blockioClass: null,
    rdtClass: null,
    unified: {},
    devices: [],
    pids: null,
  };
}

function emptyHooks(): nri.Hooks {
  return { prestart: [], createRuntime: [], createContainer: [], startContainer: [], poststart: [], poststop: [] };
}

export function emptyLinuxAdjustment(): LinuxAdjustment {
  return {
    devices: [],
    resources: null,
    cgroupsPath: '',
    oomScoreAdj: null,
    ioPriority: null,
    seccompPolicy: null,
    namespaces: [],
    sysctl: {},
    netDevices: {},
    scheduler: null,
    rdt: null,
    memoryPolicy: null,
  };
}

export function emptyAdjustment(): Adjustment {
  return { annotations: {}, mounts: [], env: [], hooks: null, linux: null, rlimits: [], CDIDevices: [], args: [] };
}

const MEMORY_FIELDS: [keyof nri.LinuxMemory, FieldName][] = [
  ['limit', 'MemLimit'],
  ['reservation', 'MemReservation'],
  ['swap', 'MemSwapLimit'],
  ['kernel', 'MemKernelLimit'],
  ['kernelTcp', 'MemTCPLimit'],
  ['swappiness', 'MemSwappiness'],
  ['disableOomKiller', 'MemDisableOomKiller'],
  ['useHierarchy', 'MemUseHierarchy'],
];
const CPU_FIELDS: [keyof nri.LinuxCPU, FieldName][] = [
  ['shares', 'CPUShares'],
  ['quota', 'CPUQuota'],
  ['period', 'CPUPeriod'],
  ['realtimeRuntime', 'CPURealtimeRuntime'],
  ['realtimePeriod', 'CPURealtimePeriod'],
];

function emptyMemory(): nri.LinuxMemory {
  return { limit: null, reservation: null, swap: null, kernel: null, kernelTcp: null, swappiness: null, disableOomKiller: null, useHierarchy: null };
}
function emptyCpu(): nri.LinuxCPU {
  return { shares: null, quota: null, period: null, realtimeRuntime: null, realtimePeriod: null, cpus: '', mems: '' };
}

/** Copies the fields set in `src` into `dst`, claiming each for `plugin` (no claims when owners is undefined). */
export function mergeResources(dst: Resources, src: Resources, claim: (field: FieldName, key?: string) => void): void {
  if (src.memory) {
    const mem = (dst.memory ??= emptyMemory()) as unknown as Record<string, unknown>;
    for (const [k, f] of MEMORY_FIELDS) {
      if (src.memory[k] != null) {
        claim(f);
        mem[k] = src.memory[k];
      }
    }
  }
  if (src.cpu) {
    const cpu = (dst.cpu ??= emptyCpu()) as unknown as Record<string, unknown>;
    for (const [k, f] of CPU_FIELDS) {
      if (src.cpu[k] != null) {
        claim(f);
        cpu[k] = src.cpu[k];
      }
    }
    if (src.cpu.cpus) {
      claim('CPUSetCPUs');
      cpu.cpus = src.cpu.cpus;
    }
    if (src.cpu.mems) {
      claim('CPUSetMems');
      cpu.mems = src.cpu.mems;
    }
  }
  for (const h of src.hugepageLimits ?? []) {
    claim('HugepageLimits', h.pageSize);
    dst.hugepageLimits = [...dst.hugepageLimits.filter((x) => x.pageSize !== h.pageSize), h];
  }
  if (src.blockioClass) {
    claim('BlockioClass');
    dst.blockioClass = src.blockioClass;
  }
  if (src.rdtClass) {
    claim('RdtClass');
    dst.rdtClass = src.rdtClass;
  }
  for (const [k, v] of Object.entries(src.unified ?? {})) {
    claim('CgroupsUnified', k);
    dst.unified[k] = v;
  }
  if (src.devices?.length) dst.devices = [...dst.devices, ...src.devices];
  if (src.pids) {
    claim('PidsLimit');
    dst.pids = src.pids;
  }
}

function hasResources(r: Resources | null): r is Resources {
  return !!r && (r.memory !== null || r.cpu !== null || r.hugepageLimits.length > 0 || r.blockioClass !== null || r.rdtClass !== null || Object.keys(r.unified).length > 0 || r.devices.length > 0 || r.pids !== null);
}

/**
 * One reply's keyed items merged into the merged list in a single pass
 * (a scan of the list per item made large answers quadratic): entries the
 * reply sets or removes leave, removal markers follow for keys only removed,
 * then the reply's items, in order.
 */
function mergeKeyed<T>(list: T[], items: T[], keyOf: (t: T) => string, marker: (key: string) => T): { list: T[]; del: Set<string>; mod: Set<string>; add: T[] } {
  const { del, add, mod } = splitMarked(items, keyOf);
  const out = list.filter((x) => {
    const [key, removed] = isMarkedForRemoval(keyOf(x));
    return removed ? !mod.has(key) : !del.has(key) && !mod.has(key);
  });
  for (const key of del) if (!mod.has(key)) out.push(marker(key));
  for (const item of add) out.push(item);
  return { list: out, del, mod, add };
}

/** Splits keyed items into removals and additions by the '-' marker. */
function splitMarked<T>(items: T[], keyOf: (t: T) => string): { del: Set<string>; add: T[]; mod: Set<string> } {
  const del = new Set<string>();
  const mod = new Set<string>();
  const add: T[] = [];
  for (const item of items) {
    const [key, removed] = isMarkedForRemoval(keyOf(item));
    if (removed) del.add(key);
    else {
      add.push(item);
      mod.add(key);
    }
  }
  return { del, add, mod };
}

export class Result {
  readonly owners = new Owners();
  readonly adjust: Adjustment = emptyAdjustment();
  private readonly updates = new Map<string, nri.ContainerUpdate>();
  readonly evictions: nri.ContainerEviction[] = [];

  /** `container` is the request's container (output form); it is updated in place. */
  constructor(private readonly container: nri.Container | null) {}

  private get id(): string {
    return this.container?.id ?? '';
  }

  private linux(): LinuxAdjustment {
    return (this.adjust.linux ??= emptyLinuxAdjustment());
  }

  applyCreate(rpl: Partial<nri.CreateContainerResponse> | undefined, plugin: string): void {
    if (!rpl) return;
    // Caps first: an answer past one is refused whole, nothing of it merged.
    if (rpl.adjust) checkAdjustment(plugin, rpl.adjust);
    checkUpdates(plugin, rpl.update ?? [], rpl.evict ?? []);
    if (rpl.adjust) this.adjustContainer(rpl.adjust, plugin);
    this.applyUpdates(rpl.update ?? [], plugin);
    this.evictions.push(...(rpl.evict ?? []));
  }

  applyUpdates(updates: nri.ContainerUpdate[], plugin: string): void {
    checkUpdates(plugin, updates, []);
    for (const u of updates) {
      let merged = this.updates.get(u.containerId);
      if (!merged) {
        merged = { containerId: u.containerId, linux: { resources: emptyResources() }, ignoreFailure: true };
        this.updates.set(u.containerId, merged);
      }
      merged.ignoreFailure = merged.ignoreFailure && u.ignoreFailure;
      if (u.linux?.resources) {
        mergeResources(merged.linux!.resources!, u.linux.resources, (f, k) =>
          k === undefined ? this.owners.claim(u.containerId, f, plugin) : this.owners.claimKey(u.containerId, f, k, plugin),
        );
      }
    }
  }

  evict(evictions: nri.ContainerEviction[]): void {
    this.evictions.push(...evictions);
  }

  updateList(): nri.ContainerUpdate[] {
    return [...this.updates.values()];
  }

  /** The adjustment with empty parts dropped (what the engine applies). */
  compactAdjustment(): Adjustment {
    const a = this.adjust;
    const linux = a.linux;
    if (linux && linux.resources && !hasResources(linux.resources)) linux.resources = null;
    return a;
  }

  private claim(field: FieldName, plugin: string, key?: string): void {
    if (key === undefined) this.owners.claim(this.id, field, plugin);
    else this.owners.claimKey(this.id, field, key, plugin);
  }

  private adjustContainer(adj: Adjustment, plugin: string): void {
    this.adjustAnnotations(adj.annotations ?? {}, plugin);
    this.adjustMounts(adj.mounts ?? [], plugin);
    this.adjustEnv(adj.env ?? [], plugin);
    if (adj.hooks) this.adjustHooks(adj.hooks, plugin);
    if (adj.args?.length) {
      this.claim('Args', plugin);
      this.adjust.args = [...adj.args];
      if (this.container) this.container.args = [...adj.args];
    }
    this.adjustRlimits(adj.rlimits ?? [], plugin);
    for (const d of adj.CDIDevices ?? []) {
      this.claim('CdiDevices', plugin, d.name);
      this.adjust.CDIDevices.push(d);
    }
    if (adj.linux) this.adjustLinux(adj.linux, plugin);
  }

  private adjustAnnotations(annotations: Record<string, string>, plugin: string): void {
    const target = this.container?.annotations;
    for (const [k, v] of Object.entries(annotations)) {
      const [key, removed] = isMarkedForRemoval(k);
      this.claim('Annotations', plugin, key);
      if (removed) {
        delete this.adjust.annotations[key];
        this.adjust.annotations[REMOVAL_PREFIX + key] = '';
        if (target) delete target[key];
      } else {
        delete this.adjust.annotations[REMOVAL_PREFIX + key];
        this.adjust.annotations[key] = v;
        if (target) target[key] = v;
      }
    }
  }

  private adjustMounts(mounts: nri.Mount[], plugin: string): void {
    if (mounts.length === 0) return;
    const { list, del, mod, add } = mergeKeyed(this.adjust.mounts, mounts, (m) => m.destination, (key) => ({ destination: REMOVAL_PREFIX + key, type: '', source: '', options: [] }));
    for (const key of del) this.claim('Mounts', plugin, key);
    for (const m of add) this.claim('Mounts', plugin, m.destination);
    this.adjust.mounts = list;
    if (this.container) {
      this.container.mounts = this.container.mounts.filter((m) => !del.has(m.destination) && !mod.has(m.destination)).concat(add);
    }
  }

  private adjustEnv(env: nri.KeyValue[], plugin: string): void {
    if (env.length === 0) return;
    const { list, del, mod, add } = mergeKeyed(this.adjust.env, env, (e) => e.key, (key) => ({ key: REMOVAL_PREFIX + key, value: '' }));
    for (const key of del) this.claim('Env', plugin, key);
    for (const e of add) this.claim('Env', plugin, e.key);
    this.adjust.env = list;
    if (this.container) {
      const keep = this.container.env.filter((s) => {
        const key = s.split('=', 1)[0];
        return !del.has(key) && !mod.has(key);
      });
      this.container.env = keep.concat(add.map((e) => `${e.key}=${e.value}`));
    }
  }

  private adjustHooks(hooks: nri.Hooks, plugin: string): void {
    const names = ['prestart', 'createRuntime', 'createContainer', 'startContainer', 'poststart', 'poststop'] as const;
    let any = false;
    const dst = (this.adjust.hooks ??= emptyHooks());
    for (const n of names) {
      const h = hooks[n] ?? [];
      if (h.length === 0) continue;
      any = true;
      dst[n] = [...dst[n], ...h];
      if (this.container) {
        this.container.hooks ??= emptyHooks();
        this.container.hooks[n] = [...this.container.hooks[n], ...h];
      }
    }
    if (any) this.owners.addHooksOwner(this.id, plugin);
  }

  private adjustRlimits(rlimits: nri.POSIXRlimit[], plugin: string): void {
    if (rlimits.length === 0) return;
    // The last entry of a type wins and goes to the end, as if set one by one.
    const byType = new Map<string, nri.POSIXRlimit>();
    for (const r of rlimits) {
      this.claim('Rlimits', plugin, r.type);
      byType.delete(r.type);
      byType.set(r.type, r);
    }
    const merged = [...byType.values()];
    this.adjust.rlimits = this.adjust.rlimits.filter((x) => !byType.has(x.type)).concat(merged);
    if (this.container) this.container.rlimits = this.container.rlimits.filter((x) => !byType.has(x.type)).concat(merged);
  }

  private adjustLinux(src: LinuxAdjustment, plugin: string): void {
    if (src.devices?.length) {
      const linux = this.linux();
      const { list, del, mod, add } = mergeKeyed(linux.devices, src.devices, (d) => d.path, (key) => ({ path: REMOVAL_PREFIX + key, type: '', major: '0', minor: '0', fileMode: null, uid: null, gid: null }));
      for (const key of del) this.claim('Devices', plugin, key);
      for (const d of add) this.claim('Devices', plugin, d.path);
      linux.devices = list;
      const target = this.container?.linux;
      if (target) target.devices = target.devices.filter((d) => !del.has(d.path) && !mod.has(d.path)).concat(add);
    }
    if (src.resources) {
      const linux = this.linux();
      mergeResources((linux.resources ??= emptyResources()), src.resources, (f, k) => this.claim(f, plugin, k));
      const target = this.container?.linux;
      if (target) mergeResources((target.resources ??= emptyResources()), src.resources, () => undefined);
    }
    if (src.cgroupsPath) {
      this.claim('CgroupsPath', plugin);
      this.linux().cgroupsPath = src.cgroupsPath;
    }
    if (src.oomScoreAdj) {
      this.claim('OomScoreAdj', plugin);
      this.linux().oomScoreAdj = src.oomScoreAdj;
    }
    if (src.ioPriority) {
      this.claim('IoPriority', plugin);
      this.linux().ioPriority = src.ioPriority;
    }
    if (src.seccompPolicy) {
      this.claim('SeccompPolicy', plugin);
      this.linux().seccompPolicy = src.seccompPolicy;
    }
    for (const ns of src.namespaces ?? []) {
      const [type] = isMarkedForRemoval(ns.type);
      this.claim('Namespace', plugin, type);
      const linux = this.linux();
      linux.namespaces = [...linux.namespaces.filter((x) => isMarkedForRemoval(x.type)[0] !== type), ns];
    }
    for (const [k, v] of Object.entries(src.sysctl ?? {})) {
      const [key, removed] = isMarkedForRemoval(k);
      this.claim('Sysctl', plugin, key);
      const sysctl = this.linux().sysctl;
      delete sysctl[removed ? key : REMOVAL_PREFIX + key];
      sysctl[k] = removed ? '' : v;
    }
    for (const [k, v] of Object.entries(src.netDevices ?? {})) {
      this.claim('LinuxNetDevices', plugin, isMarkedForRemoval(k)[0]);
      this.linux().netDevices[k] = v;
    }
    if (src.scheduler) {
      this.claim('LinuxSched', plugin);
      this.linux().scheduler = src.scheduler;
    }
    if (src.rdt) {
      if (src.rdt.closId) this.claim('RdtClosID', plugin);
      if (src.rdt.schemata) this.claim('RdtSchemata', plugin);
      if (src.rdt.enableMonitoring) this.claim('RdtEnableMonitoring', plugin);
      this.linux().rdt = src.rdt;
    }
    if (src.memoryPolicy) {
      this.claim('MemoryPolicy', plugin);
      this.linux().memoryPolicy = src.memoryPolicy;
    }
  }
}
