// Gathers the facts each check evaluates, from the runtime (through the
// backend) and the host (through a HostProbe). Each gatherer answers for
// itself: one that throws becomes that check's failure, not the doctor's.
import { join } from 'node:path';
import type { CriBackend } from '../client/backend.js';
import type { HostProbe } from './host-probe.js';
import type { EndpointFacts } from './checks/endpoint.js';
import type { StatusFacts } from './checks/runtime-status.js';
import { asCgroupDriver, enabledV1Controllers, type CgroupDriver, type CgroupFacts } from './checks/cgroups.js';
import { kubeletPresent, readKubeletSetting, type KubeletPaths } from './kubelet-settings.js';
import type { ToolFacts } from './checks/oci-tools.js';
import { CNI_CONF_EXTENSIONS, parseProcNetRoute, type CniFacts } from './checks/cni.js';
import type { KernelFacts } from './checks/kernel.js';
import type { DiskFacts } from './checks/disk-space.js';
import type { NriFacts } from './checks/nri.js';
import type { CdiFacts } from './checks/cdi.js';
import type { SysctlFacts } from './checks/sysctls.js';
import type { ClockFacts } from './checks/clock.js';
import { CLOCK_FLOOR } from './checks/clock.js';
import { engineConmons, mountsUnder, type LeftoverFacts } from './checks/leftovers.js';
import { DEFAULT_CDI_SPEC_DIRS, type RuntimeLayout } from './runtime-layout.js';
import { unifiedCgroupOf, type NodeLayoutFacts } from './checks/node-layout.js';
import { unpackCandidates } from '../sea/extract.js';
import { onNoexecMount } from '../util/mount-of.js';
import { INSTALL_ROOT_VARIABLE } from '../util/repo-root.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function gatherEndpoint(backend: CriBackend | undefined, target: string, openError?: string): Promise<EndpointFacts> {
  if (!backend) return { target, error: openError ?? 'no backend' };
  try {
    const version = await backend.version({ version: 'v1' });
    return { target, version, api: await backend.apiVersion() };
  } catch (err) {
    return { target, error: message(err) };
  }
}

export async function gatherStatus(backend: CriBackend | undefined): Promise<StatusFacts & { info?: Record<string, string> }> {
  if (!backend) return { error: 'runtime not reachable' };
  try {
    const r = await backend.status({ verbose: true });
    return { conditions: r.status?.conditions ?? [], info: r.info as Record<string, string> };
  } catch (err) {
    return { error: message(err) };
  }
}

export async function gatherCgroups(probe: HostProbe, backend: CriBackend | undefined, layout: RuntimeLayout, kubelet: KubeletPaths): Promise<CgroupFacts> {
  // Unified (v2) only when /sys/fs/cgroup itself is cgroup2; a hybrid host mounts it at .../unified.
  const v2 = await probe.readText('/sys/fs/cgroup/cgroup.controllers');
  const version: 1 | 2 = v2 !== undefined ? 2 : 1;
  const controllers = version === 2 ? (v2 ?? '').trim().split(/\s+/).filter(Boolean) : enabledV1Controllers((await probe.readText('/proc/cgroups')) ?? '');
  const systemdIsInit = (await probe.list('/run/systemd/system')) !== undefined;
  let runtimeDriver: CgroupFacts['runtimeDriver'];
  if (backend) {
    try {
      const r = await backend.runtimeConfig({});
      const d = String(r.linux?.cgroupDriver ?? '').toLowerCase();
      if (d === 'systemd' || d === 'cgroupfs') runtimeDriver = { driver: d as CgroupDriver, source: 'RuntimeConfig' };
    } catch {
      // Older runtimes (containerd 1.6) do not serve RuntimeConfig; fall back to their config.
    }
  }
  runtimeDriver ??= layout.configDriver;
  return { version, controllers, systemdIsInit, runtimeDriver, ...(await kubeletDriverOf(probe, kubelet)) };
}

/** kubelet's cgroup driver as kubelet resolves it (flags over config over its cgroupfs default). */
async function kubeletDriverOf(probe: HostProbe, kubelet: KubeletPaths): Promise<Pick<CgroupFacts, 'kubeletDriver'>> {
  const set = await readKubeletSetting(probe, kubelet, 'cgroupDriver', 'cgroup-driver');
  const driver = asCgroupDriver(set?.value);
  if (set && driver) return { kubeletDriver: { driver, source: set.source, from: set.from } };
  if (await kubeletPresent(probe, kubelet)) return { kubeletDriver: { driver: 'cgroupfs', source: kubelet.config, from: 'default' } };
  return {};
}

export async function gatherTools(probe: HostProbe): Promise<ToolFacts[]> {
  const out: ToolFacts[] = [];
  for (const name of ['runc', 'crun', 'conmon'] as const) {
    const path = await probe.which(name);
    out.push({ name, ...(path ? { path, version: await probe.versionOf(path) } : {}) });
  }
  return out;
}

export async function gatherCni(probe: HostProbe, layout: RuntimeLayout): Promise<CniFacts> {
  const names = ((await probe.list(layout.cniConfDir)) ?? []).filter((n) => CNI_CONF_EXTENSIONS.some((e) => n.endsWith(e))).sort();
  const files: CniFacts['files'] = [];
  for (const name of names) files.push({ name, text: (await probe.readText(join(layout.cniConfDir, name))) ?? '' });
  const binaries: CniFacts['binaries'] = {};
  for (const dir of layout.cniBinDirs) {
    const entries = (await probe.list(dir)) ?? [];
    const exec: string[] = [];
    for (const e of entries) if (await probe.isExecutable(join(dir, e))) exec.push(e);
    binaries[dir] = exec;
  }
  return { confDir: layout.cniConfDir, files, binDirs: layout.cniBinDirs, binaries, routes: parseProcNetRoute((await probe.readText('/proc/net/route')) ?? '') };
}

export async function gatherKernel(probe: HostProbe): Promise<KernelFacts> {
  const release = ((await probe.readText('/proc/sys/kernel/osrelease')) ?? '').trim();
  const moduleDir = `/lib/modules/${release}/kernel/fs/overlayfs`;
  return {
    filesystems: (await probe.readText('/proc/filesystems')) ?? '',
    overlayModule: ((await probe.list(moduleDir)) ?? []).some((n) => n.startsWith('overlay.ko')),
    namespaces: (await probe.list('/proc/self/ns')) ?? [],
    procStatus: (await probe.readText('/proc/self/status')) ?? '',
  };
}

/** The image file system (ImageFsInfo's mount point, else the engine's root) and the state one. */
export async function gatherDisks(probe: HostProbe, backend: CriBackend | undefined, layout: RuntimeLayout, extraPaths: string[]): Promise<DiskFacts[]> {
  const targets: Array<{ role: string; path: string }> = [];
  let imagePath: string | undefined;
  if (backend) {
    try {
      const r = await backend.imageFsInfo({});
      imagePath = r.imageFilesystems?.[0]?.fsId?.mountpoint || undefined;
    } catch {
      // Reported through the other checks; fall back to the layout.
    }
  }
  imagePath ??= layout.root;
  if (imagePath) targets.push({ role: 'image', path: imagePath });
  if (layout.state) targets.push({ role: 'state', path: layout.state });
  extraPaths.forEach((path, i) => targets.push({ role: extraPaths.length > 1 ? `path${i + 1}` : 'path', path }));
  const out: DiskFacts[] = [];
  for (const t of targets) {
    try {
      out.push({ ...t, usage: await probe.statfs(t.path) });
    } catch (err) {
      out.push({ ...t, error: message(err) });
    }
  }
  return out;
}

export async function gatherNri(probe: HostProbe, backend: CriBackend | undefined, layout: RuntimeLayout): Promise<NriFacts> {
  if (!backend || layout.kind === 'other') return { skipped: 'only isulats (daemon or embedded) reports its NRI state' };
  const extras = backend.extras;
  if (!extras?.nriConfig || !extras.nriPlugins) return { skipped: 'this runtime does not report NRI' };
  try {
    const config = await extras.nriConfig();
    const plugins = config.enabled ? await extras.nriPlugins() : [];
    const dir = config.socket.replace(/\/[^/]*$/, '') || '/';
    const socketExists = ((await probe.list(dir)) ?? []).includes(config.socket.slice(dir.length + 1));
    return { config, plugins, socketExists };
  } catch (err) {
    return { error: message(err) };
  }
}

export async function gatherSysctls(probe: HostProbe): Promise<SysctlFacts> {
  const ipForward = await probe.readText('/proc/sys/net/ipv4/ip_forward');
  const bridgeNfCallIptables = await probe.readText('/proc/sys/net/bridge/bridge-nf-call-iptables');
  return { ...(ipForward !== undefined ? { ipForward } : {}), ...(bridgeNfCallIptables !== undefined ? { bridgeNfCallIptables } : {}) };
}

export async function gatherClock(probe: HostProbe): Promise<ClockFacts> {
  // systemd-timesyncd touches this file once synchronized; without timesyncd we do not know.
  const timesync = await probe.list('/run/systemd/timesync');
  return { now: probe.now(), floor: CLOCK_FLOOR, ...(timesync ? { ntpSynchronized: timesync.includes('synchronized') } : {}) };
}

export async function gatherLeftovers(probe: HostProbe, backend: CriBackend, layout: RuntimeLayout): Promise<LeftoverFacts> {
  // By their real paths: mountinfo lists mounts so, and a state under /var/run is under /run there.
  const root = (await probe.realpath(layout.root!)) ?? layout.root!;
  const state = (await probe.realpath(layout.state!)) ?? layout.state!;
  const pods = await backend.listPodSandbox({});
  const ctrs = await backend.listContainers({});
  return {
    root,
    state,
    mounts: mountsUnder((await probe.readText('/proc/self/mountinfo')) ?? '', [root, state]),
    netnsFiles: (await probe.list(join(state, 'netns'))) ?? [],
    conmons: engineConmons(await probe.processes(), state),
    podIds: new Set(pods.items.map((p) => p.id)),
    containerIds: new Set(ctrs.containers.map((c) => c.id)),
  };
}

export async function gatherNodeLayout(probe: HostProbe, layout: RuntimeLayout, kubelet: KubeletPaths, env: NodeJS.ProcessEnv = process.env, uid = process.getuid?.() ?? 0): Promise<NodeLayoutFacts> {
  const cgroupVersion: 1 | 2 = (await probe.readText('/sys/fs/cgroup/cgroup.controllers')) !== undefined ? 2 : 1;
  const ours = layout.kind !== 'other';
  let daemonCgroup: NodeLayoutFacts['daemonCgroup'];
  if (cgroupVersion === 2 && ours && layout.pid) {
    const path = unifiedCgroupOf((await probe.readText(`/proc/${layout.pid}/cgroup`)) ?? '');
    const controllers = path === undefined ? undefined : await probe.readText(join('/sys/fs/cgroup', path, 'cgroup.controllers'));
    if (path !== undefined) daemonCgroup = { pid: layout.pid, path, controllers: (controllers ?? '').trim().split(/\s+/).filter(Boolean) };
  }
  const root = await readKubeletSetting(probe, kubelet, 'cgroupRoot', 'cgroup-root');
  const dirs: NodeLayoutFacts['dirs'] = [];
  for (const role of ['root', 'state'] as const) {
    const path = ours ? layout[role] : undefined;
    if (path) dirs.push({ role, path, real: await probe.realpath(path) });
  }
  const mountinfo = (await probe.readText('/proc/self/mountinfo')) ?? '';
  const candidates = unpackCandidates(env, uid).map((dir) => ({ dir, noexec: onNoexecMount(dir, mountinfo) }));
  const installRoot = env[INSTALL_ROOT_VARIABLE];
  const inUse = installRoot ? candidates.find((c) => installRoot.startsWith(`${c.dir}/`))?.dir : undefined;
  return {
    cgroupVersion,
    ...(ours && layout.configDriver ? { manager: layout.configDriver.driver } : {}),
    ...(daemonCgroup ? { daemonCgroup } : {}),
    ...(layout.cgroupParent ? { cgroupParent: layout.cgroupParent } : {}),
    ...(root ? { kubeletCgroupRoot: { value: root.value, source: root.from === 'flag' ? `${root.source} --cgroup-root` : root.source } } : {}),
    dirs,
    sea: { candidates, override: Boolean(env.ISULATS_SEA_DIR), ...(inUse ? { inUse } : {}) },
  };
}

/** Read here, on this host, with the engine's own loader: the specs are files the runtime reads the same way. */
export async function gatherCdi(probe: HostProbe, layout: RuntimeLayout): Promise<CdiFacts> {
  const { CdiRegistry } = await import('../runtime/cdi/spec-registry.js');
  const specDirs = layout.cdiSpecDirs ?? DEFAULT_CDI_SPEC_DIRS;
  const snap = await new CdiRegistry(specDirs).snapshot();
  const dirs = await Promise.all(specDirs.map(async (path) => ({ path, exists: (await probe.list(path)) !== undefined })));
  return { enabled: layout.cdiEnabled !== false, dirs, specs: snap.specs.length, devices: snap.devices.size, errors: [...snap.errors] };
}
