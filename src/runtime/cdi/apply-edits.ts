// Applies CDI container edits to an OCI spec, as the reference's
// ContainerEdits.Apply: env replaces same-named vars, a device node replaces
// one at the same path and gets a cgroup allow rule (b and c only), a mount
// replaces one at the same destination (mounts then sorted by depth, stable),
// hooks append, intelRdt replaces, additional GIDs append (0 skipped).
// Pure apart from `hostDevice`, which the caller passes (lstat on the host).
import type { OciSpec } from '../container/spec.js';
import type { CdiContainerEdits, CdiDeviceNode, HostDeviceInfo, ResolvedCdiDevice } from './cdi-types.js';

export type HostDeviceLookup = (path: string) => HostDeviceInfo | Error;

/** Spec-level edits once per spec used, then each device's own, in request order. */
export function collectEdits(devices: ResolvedCdiDevice[]): CdiContainerEdits[] {
  const seen = new Set<string>();
  const out: CdiContainerEdits[] = [];
  for (const d of devices) {
    if (!seen.has(d.from.path)) {
      seen.add(d.from.path);
      if (d.from.spec.containerEdits) out.push(d.from.spec.containerEdits);
    }
    out.push(d.device.containerEdits);
  }
  return out;
}

/** Type, major, minor and mode a node leaves out, from the host's node (the reference's fillMissingInfo). */
export function completeDeviceNode(node: CdiDeviceNode, hostDevice: HostDeviceLookup): CdiDeviceNode {
  const out = { ...node, hostPath: node.hostPath || node.path };
  const minimal = !!out.type && (!!out.major || out.type === 'p');
  const host = hostDevice(out.hostPath);
  if (host instanceof Error) {
    // A vendor may describe a node fully without it existing on this host.
    if (minimal) return out;
    throw new Error(`CDI device node ${out.hostPath}: ${host.message}`);
  }
  out.fileMode ??= host.fileMode;
  if (minimal) return out;
  out.type ??= host.type;
  // 'u' (unbuffered char) is a char node on the host.
  if ((out.type === 'u' ? 'c' : out.type) !== host.type) throw new Error(`CDI device node ${out.path} (${out.hostPath}): type ${out.type} does not match the host's ${host.type}`);
  if (out.type !== 'p' && !out.major) {
    out.major = host.major;
    out.minor = host.minor;
  }
  return out;
}

const depth = (p: string) => p.replace(/\/+$/, '').split('/').filter(Boolean).length;

export function applyEdits(spec: OciSpec, all: CdiContainerEdits[], hostDevice: HostDeviceLookup): OciSpec {
  spec.process ??= {};
  spec.linux ??= {};
  const user = (spec.process.user ??= { uid: 0, gid: 0 });
  for (const e of all) {
    for (const kv of e.env ?? []) {
      const key = kv.slice(0, kv.indexOf('=') + 1);
      const envs: string[] = (spec.process.env ??= []);
      const at = envs.findIndex((x) => x.startsWith(key));
      if (at >= 0) envs[at] = kv;
      else envs.push(kv);
    }
    for (const raw of e.deviceNodes ?? []) {
      const n = completeDeviceNode(raw, hostDevice);
      const dev: OciSpec = { path: n.path, type: n.type, major: n.major ?? 0, minor: n.minor ?? 0 };
      if (n.fileMode !== undefined) dev.fileMode = n.fileMode;
      const uid = n.uid ?? (user.uid > 0 ? user.uid : undefined);
      const gid = n.gid ?? (user.gid > 0 ? user.gid : undefined);
      if (uid !== undefined) dev.uid = uid;
      if (gid !== undefined) dev.gid = gid;
      spec.linux.devices = [...(spec.linux.devices ?? []).filter((d: OciSpec) => d.path !== n.path), dev];
      if (n.type === 'b' || n.type === 'c') {
        const access = n.permissions === 'none' ? '' : n.permissions || 'rwm';
        const resources = (spec.linux.resources ??= {});
        (resources.devices ??= []).push({ allow: true, type: n.type, major: dev.major, minor: dev.minor, access });
      }
    }
    if (e.mounts?.length) {
      let mounts: OciSpec[] = spec.mounts ?? [];
      for (const m of e.mounts) {
        mounts = mounts.filter((x) => x.destination !== m.containerPath);
        const mount: OciSpec = { destination: m.containerPath, source: m.hostPath };
        if (m.type) mount.type = m.type;
        if (m.options) mount.options = [...m.options];
        mounts.push(mount);
      }
      // Array.prototype.sort is stable: equal depths keep their order.
      spec.mounts = mounts.sort((a, b) => depth(a.destination) - depth(b.destination));
    }
    for (const h of e.hooks ?? []) {
      const hook: OciSpec = { path: h.path };
      if (h.args) hook.args = [...h.args];
      if (h.env) hook.env = [...h.env];
      if (h.timeout !== undefined) hook.timeout = h.timeout;
      ((spec.hooks ??= {})[h.hookName] ??= []).push(hook);
    }
    if (e.intelRdt) spec.linux.intelRdt = { ...e.intelRdt };
    for (const gid of e.additionalGids ?? []) {
      if (gid === 0) continue;
      const gids: number[] = (user.additionalGids ??= []);
      if (!gids.includes(gid)) gids.push(gid);
    }
  }
  return spec;
}
