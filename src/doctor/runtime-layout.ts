// Where the runtime keeps things, learnt from the runtime itself: the
// embedded engine's options, an isulats daemon's Info (its admin service), or
// containerd's verbose Status (its CRI config as JSON). Flags win over all.
import type { CriBackend } from '../client/backend.js';
import type { CgroupDriver } from './checks/cgroups.js';

export type RuntimeKind = 'embedded' | 'isulats-daemon' | 'other';

export interface RuntimeLayout {
  kind: RuntimeKind;
  cniConfDir: string;
  cniBinDirs: string[];
  /** Root/state dirs of isulats' engine (embedded or daemon). */
  root?: string;
  state?: string;
  /** The engine's process (the daemon, or this one when embedded): its cgroup is checked. */
  pid?: number;
  /** The engine's parent for pods without a cgroup_parent, when configured. */
  cgroupParent?: string;
  /** CDI spec dirs (lowest priority first) and whether CDI is on. */
  cdiSpecDirs?: string[];
  cdiEnabled?: boolean;
  /** The cgroup driver its configuration names, when the config tells. */
  configDriver?: { driver: CgroupDriver; source: string };
}

export const DEFAULT_CNI_CONF_DIR = '/etc/cni/net.d';
export const DEFAULT_CNI_BIN_DIRS = ['/opt/cni/bin', '/usr/lib/cni'];
export const DEFAULT_CDI_SPEC_DIRS = ['/etc/cdi', '/var/run/cdi'];

/** containerd's verbose Status info: `config` is its CRI plugin config as JSON. */
export function layoutFromContainerdInfo(info: Record<string, string> | undefined): Partial<RuntimeLayout> {
  let cfg: any;
  try {
    cfg = info?.config ? JSON.parse(info.config) : undefined;
  } catch {
    return {};
  }
  if (!cfg) return {};
  const out: Partial<RuntimeLayout> = {};
  if (typeof cfg.cni?.confDir === 'string') out.cniConfDir = cfg.cni.confDir;
  const bins = cfg.cni?.binDirs ?? (cfg.cni?.binDir ? [cfg.cni.binDir] : undefined);
  if (Array.isArray(bins)) out.cniBinDirs = bins;
  if (Array.isArray(cfg.cdiSpecDirs)) out.cdiSpecDirs = cfg.cdiSpecDirs;
  if (typeof cfg.enableCDI === 'boolean') out.cdiEnabled = cfg.enableCDI;
  const ctd = cfg.containerd ?? {};
  const opts = ctd.runtimes?.[ctd.defaultRuntimeName ?? 'runc']?.options;
  if (opts && 'SystemdCgroup' in opts) out.configDriver = { driver: opts.SystemdCgroup ? 'systemd' : 'cgroupfs', source: 'containerd config SystemdCgroup' };
  return out;
}

export async function runtimeLayout(backend: CriBackend | undefined, statusInfo: Record<string, string> | undefined, timeoutMs: number): Promise<RuntimeLayout> {
  const base: RuntimeLayout = { kind: 'other', cniConfDir: DEFAULT_CNI_CONF_DIR, cniBinDirs: DEFAULT_CNI_BIN_DIRS, cdiSpecDirs: DEFAULT_CDI_SPEC_DIRS, cdiEnabled: true };
  if (!backend) return base;
  if (backend.kind === 'embedded') {
    const ctx = (backend as unknown as { engine: { ctx: { options: any; paths: any; cgroupManager: CgroupDriver } } }).engine.ctx;
    return {
      kind: 'embedded',
      cniConfDir: ctx.options.cniConfDir ?? DEFAULT_CNI_CONF_DIR,
      cniBinDirs: ctx.options.cniBinDirs ?? DEFAULT_CNI_BIN_DIRS,
      cdiSpecDirs: ctx.options.cdiSpecDirs ?? DEFAULT_CDI_SPEC_DIRS,
      cdiEnabled: true,
      root: ctx.paths.root,
      state: ctx.paths.state,
      pid: process.pid,
      ...(ctx.options.cgroupParent ? { cgroupParent: ctx.options.cgroupParent } : {}),
      configDriver: { driver: ctx.cgroupManager, source: 'engine config' },
    };
  }
  const { adminInfo } = await import('../client/admin-client.js');
  const daemon = await adminInfo(backend.target, timeoutMs).catch(() => undefined);
  if (daemon) {
    const c = daemon.config as Record<string, any>;
    return {
      kind: 'isulats-daemon',
      cniConfDir: c.cniConfDir ?? DEFAULT_CNI_CONF_DIR,
      cniBinDirs: c.cniBinDirs ?? DEFAULT_CNI_BIN_DIRS,
      cdiSpecDirs: c.cdiSpecDirs ?? DEFAULT_CDI_SPEC_DIRS,
      cdiEnabled: true,
      root: c.root,
      state: c.state,
      pid: daemon.pid,
      ...(c.cgroupManager ? { configDriver: { driver: c.cgroupManager, source: 'daemon.json cgroup-manager' } } : {}),
    };
  }
  return { ...base, ...layoutFromContainerdInfo(statusInfo) };
}
