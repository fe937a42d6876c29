// Applies a merged NRI ContainerAdjustment to an OCI spec. Pure: returns a
// new spec and never touches the input. What a spec cannot express by itself
// comes back beside it: CDI device names (the engine resolves them) and the
// block I/O class (the engine maps it to weights, if it knows the class).
import type * as nri from '../../api/nri.js';
import { KeyedList } from './keyed-list.js';
import { isMarkedForRemoval } from './result.js';
import type { OciHook, OciResources, OciSeccomp, OciSpec } from './oci-spec.js';

export interface AppliedAdjustment {
  spec: OciSpec;
  cdiDevices: string[];
  blockioClass?: string;
}

type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;
/** An adjustment in either the decoded (all fields present) or a sparse form. */
export type AdjustmentLike = DeepPartial<nri.ContainerAdjustment>;

const num = (v: string | number | undefined | null): number => Number(v ?? 0);

function hook(h: DeepPartial<nri.Hook> | null | undefined): OciHook {
  const out: OciHook = { path: h?.path ?? '' };
  if (h?.args?.length) out.args = [...(h.args as string[])];
  if (h?.env?.length) out.env = [...(h.env as string[])];
  if (h?.timeout) out.timeout = num(h.timeout.value as string);
  return out;
}

/** Applies NRI LinuxResources onto OCI resources (in place on the clone). */
export function applyResources(dst: OciResources, src: DeepPartial<nri.LinuxResources>): void {
  const m = src.memory;
  if (m) {
    const mem = (dst.memory ??= {});
    if (m.limit) mem.limit = num(m.limit.value);
    if (m.reservation) mem.reservation = num(m.reservation.value);
    if (m.swap) mem.swap = num(m.swap.value);
    if (m.kernel) mem.kernel = num(m.kernel.value);
    if (m.kernelTcp) mem.kernelTCP = num(m.kernelTcp.value);
    if (m.swappiness) mem.swappiness = num(m.swappiness.value);
    if (m.disableOomKiller) mem.disableOOMKiller = !!m.disableOomKiller.value;
    if (m.useHierarchy) mem.useHierarchy = !!m.useHierarchy.value;
  }
  const c = src.cpu;
  if (c) {
    const cpu = (dst.cpu ??= {});
    if (c.shares) cpu.shares = num(c.shares.value);
    if (c.quota) cpu.quota = num(c.quota.value);
    if (c.period) cpu.period = num(c.period.value);
    if (c.realtimeRuntime) cpu.realtimeRuntime = num(c.realtimeRuntime.value);
    if (c.realtimePeriod) cpu.realtimePeriod = num(c.realtimePeriod.value);
    if (c.cpus) cpu.cpus = c.cpus;
    if (c.mems) cpu.mems = c.mems;
  }
  if (src.hugepageLimits?.length) {
    const limits = new KeyedList(dst.hugepageLimits ?? [], (x) => x.pageSize);
    for (const h of src.hugepageLimits) if (h?.pageSize) limits.append(h.pageSize, { pageSize: h.pageSize, limit: num(h.limit) });
    dst.hugepageLimits = limits.toArray();
  }
  for (const [k, v] of Object.entries(src.unified ?? {})) (dst.unified ??= {})[k] = v as string;
  const rules: NonNullable<OciResources['devices']> = [];
  for (const d of src.devices ?? []) {
    if (!d) continue;
    const rule: { allow: boolean; type?: string; major?: number; minor?: number; access?: string } = { allow: !!d.allow };
    if (d.type) rule.type = d.type;
    if (d.major) rule.major = num(d.major.value);
    if (d.minor) rule.minor = num(d.minor.value);
    if (d.access) rule.access = d.access;
    rules.push(rule);
  }
  if (rules.length) dst.devices = (dst.devices ?? []).concat(rules);
  if (src.pids) dst.pids = { limit: num(src.pids.limit) };
}

function seccomp(p: DeepPartial<nri.LinuxSeccomp>): OciSeccomp {
  const out: OciSeccomp = { defaultAction: p.defaultAction ?? '' };
  if (p.defaultErrno) out.defaultErrnoRet = num(p.defaultErrno.value);
  if (p.architectures?.length) out.architectures = [...(p.architectures as string[])];
  if (p.flags?.length) out.flags = [...(p.flags as string[])];
  if (p.listenerPath) out.listenerPath = p.listenerPath;
  if (p.listenerMetadata) out.listenerMetadata = p.listenerMetadata;
  if (p.syscalls?.length) {
    out.syscalls = p.syscalls.map((s) => {
      const sc: NonNullable<OciSeccomp['syscalls']>[number] = { names: [...((s?.names ?? []) as string[])], action: s?.action ?? '' };
      if (s?.errnoRet) sc.errnoRet = num(s.errnoRet.value);
      if (s?.args?.length) sc.args = s.args.map((a) => ({ index: a?.index ?? 0, value: num(a?.value), valueTwo: num(a?.valueTwo), op: a?.op ?? '' }));
      return sc;
    });
  }
  return out;
}

export function applyAdjustment(input: OciSpec, adj: AdjustmentLike | null | undefined): AppliedAdjustment {
  const spec = structuredClone(input);
  const out: AppliedAdjustment = { spec, cdiDevices: [] };
  if (!adj) return out;

  for (const [k, v] of Object.entries(adj.annotations ?? {})) {
    const [key, removed] = isMarkedForRemoval(k);
    spec.annotations ??= {};
    if (removed) delete spec.annotations[key];
    else spec.annotations[key] = v as string;
  }

  // Keyed parts go through a KeyedList: one pass, whatever their size.
  if (adj.mounts?.length) {
    const mounts = new KeyedList(spec.mounts ?? [], (x) => x.destination);
    for (const m of adj.mounts) {
      if (!m?.destination) continue;
      const [dest, removed] = isMarkedForRemoval(m.destination);
      if (removed) mounts.remove(dest);
      else mounts.append(dest, { destination: dest, type: m.type ?? '', source: m.source ?? '', options: [...((m.options ?? []) as string[])] });
    }
    spec.mounts = mounts.toArray();
  }

  if (adj.env?.length) {
    const proc = (spec.process ??= {});
    // A variable set again keeps its place; a new one goes last.
    const env = new KeyedList(proc.env ?? [], (s) => s.split('=', 1)[0]);
    for (const e of adj.env) {
      if (!e?.key) continue;
      const [key, removed] = isMarkedForRemoval(e.key);
      if (removed) env.remove(key);
      else env.replace(key, `${key}=${e.value ?? ''}`);
    }
    proc.env = env.toArray();
  }

  if (adj.args?.length) (spec.process ??= {}).args = [...(adj.args as string[])];

  if (adj.hooks) {
    for (const name of ['prestart', 'createRuntime', 'createContainer', 'startContainer', 'poststart', 'poststop'] as const) {
      const hooks = adj.hooks[name] ?? [];
      if (hooks.length === 0) continue;
      spec.hooks ??= {};
      spec.hooks[name] = [...(spec.hooks[name] ?? []), ...hooks.map(hook)];
    }
  }

  if (adj.rlimits?.length) {
    const proc = (spec.process ??= {});
    const rlimits = new KeyedList(proc.rlimits ?? [], (x) => x.type);
    for (const r of adj.rlimits) if (r?.type) rlimits.append(r.type, { type: r.type, hard: num(r.hard), soft: num(r.soft) });
    proc.rlimits = rlimits.toArray();
  }

  for (const d of adj.CDIDevices ?? []) if (d?.name) out.cdiDevices.push(d.name);

  const l = adj.linux;
  if (!l) return out;
  const linux = (spec.linux ??= {});

  if (l.devices?.length) {
    const devices = new KeyedList(linux.devices ?? [], (x) => x.path);
    const rules: NonNullable<OciResources['devices']> = [];
    for (const d of l.devices) {
      if (!d?.path) continue;
      const [path, removed] = isMarkedForRemoval(d.path);
      if (removed) {
        devices.remove(path);
        continue;
      }
      const dev: NonNullable<typeof linux.devices>[number] = { path, type: d.type ?? 'c', major: num(d.major), minor: num(d.minor) };
      if (d.fileMode) dev.fileMode = num(d.fileMode.value);
      if (d.uid) dev.uid = num(d.uid.value);
      if (d.gid) dev.gid = num(d.gid.value);
      devices.append(path, dev);
      // The device must also be allowed by the device cgroup.
      rules.push({ allow: true, type: dev.type, major: dev.major, minor: dev.minor, access: 'rwm' });
    }
    linux.devices = devices.toArray();
    if (rules.length) {
      const res = (linux.resources ??= {});
      res.devices = (res.devices ?? []).concat(rules);
    }
  }

  if (l.resources) {
    applyResources((linux.resources ??= {}), l.resources);
    if (l.resources.blockioClass) out.blockioClass = l.resources.blockioClass.value ?? undefined;
    if (l.resources.rdtClass) (linux.intelRdt ??= {}).closID = l.resources.rdtClass.value ?? undefined;
  }
  if (l.cgroupsPath) linux.cgroupsPath = l.cgroupsPath;
  if (l.oomScoreAdj) (spec.process ??= {}).oomScoreAdj = num(l.oomScoreAdj.value);
  if (l.ioPriority) {
    const proc = (spec.process ??= {});
    const cls = String(l.ioPriority.class ?? 'IOPRIO_CLASS_NONE');
    if (cls === 'IOPRIO_CLASS_NONE') delete proc.ioPriority;
    else proc.ioPriority = { class: cls, priority: l.ioPriority.priority ?? 0 };
  }
  if (l.seccompPolicy) linux.seccomp = seccomp(l.seccompPolicy);
  if (l.namespaces?.length) {
    const namespaces = new KeyedList(linux.namespaces ?? [], (x) => x.type);
    for (const ns of l.namespaces) {
      if (!ns?.type) continue;
      const [type, removed] = isMarkedForRemoval(ns.type);
      if (removed) namespaces.remove(type);
      else namespaces.append(type, ns.path ? { type, path: ns.path } : { type });
    }
    linux.namespaces = namespaces.toArray();
  }
  for (const [k, v] of Object.entries(l.sysctl ?? {})) {
    const [key, removed] = isMarkedForRemoval(k);
    linux.sysctl ??= {};
    if (removed) delete linux.sysctl[key];
    else linux.sysctl[key] = v as string;
  }
  for (const [k, v] of Object.entries(l.netDevices ?? {})) {
    const [key, removed] = isMarkedForRemoval(k);
    linux.netDevices ??= {};
    if (removed) delete linux.netDevices[key];
    else linux.netDevices[key] = { name: v?.name ?? '' };
  }
  if (l.rdt) {
    const rdt = (linux.intelRdt ??= {});
    if (l.rdt.remove) delete linux.intelRdt;
    else {
      if (l.rdt.closId) rdt.closID = l.rdt.closId.value ?? undefined;
      if (l.rdt.schemata) rdt.schemata = [...((l.rdt.schemata.value ?? []) as string[])];
      if (l.rdt.enableMonitoring) rdt.enableMonitoring = !!l.rdt.enableMonitoring.value;
    }
  }
  if (l.scheduler) {
    const s = l.scheduler;
    const sched: Record<string, unknown> = { policy: String(s.policy ?? 'SCHED_NONE') };
    if (s.nice) sched.nice = s.nice;
    if (s.priority) sched.priority = s.priority;
    if (s.flags?.length) sched.flags = s.flags.map(String);
    if (s.runtime && s.runtime !== '0') sched.runtime = num(s.runtime);
    if (s.deadline && s.deadline !== '0') sched.deadline = num(s.deadline);
    if (s.period && s.period !== '0') sched.period = num(s.period);
    (spec.process ??= {}).scheduler = sched;
  }
  if (l.memoryPolicy) {
    const mp = l.memoryPolicy;
    linux.memoryPolicy = { mode: String(mp.mode ?? 'MPOL_DEFAULT'), nodes: mp.nodes ?? '', ...(mp.flags?.length ? { flags: mp.flags.map(String) } : {}) };
  }
  return out;
}
