// cgroup version and controllers, and the runtime's cgroup driver against the
// host (systemd driver needs systemd as init) and kubelet's configuration.
import { fail, ok, warn, type CheckResult } from '../check-result.js';
import { kubeletConfigValue } from '../kubelet-settings.js';

export type CgroupDriver = 'systemd' | 'cgroupfs';

export interface CgroupFacts {
  version: 1 | 2;
  /** Controllers usable for containers (v2: cgroup.controllers; v1: enabled in /proc/cgroups). */
  controllers: string[];
  systemdIsInit: boolean;
  /** The runtime's driver and where it came from; undefined when the runtime does not say. */
  runtimeDriver?: { driver: CgroupDriver; source: string };
  /**
   * kubelet's cgroupDriver: its last --cgroup-driver flag (`flag`), else its config file's key
   * (`config`), else kubelet's own default, cgroupfs (`default`: kubelet is configured here but
   * sets none; `source` is then its config file). Absent when no kubelet is configured here.
   */
  kubeletDriver?: { driver: CgroupDriver; source: string; from?: 'config' | 'flag' | 'default' };
}

/** Controllers pods need for their limits and accounting. */
export const REQUIRED_CONTROLLERS = ['cpu', 'memory', 'pids'];

export function evaluateCgroups(f: CgroupFacts): CheckResult[] {
  const out: CheckResult[] = [];
  const missing = REQUIRED_CONTROLLERS.filter((c) => !f.controllers.includes(c));
  const evidence = `cgroup v${f.version}, controllers: ${f.controllers.join(' ') || 'none'}`;
  out.push(missing.length === 0
    ? ok('cgroup.controllers', 'cgroup controllers', evidence)
    : fail('cgroup.controllers', 'cgroup controllers', `${evidence} (missing ${missing.join(', ')})`,
      f.version === 2 ? `enable them for children: echo "+${missing.join(' +')}" > /sys/fs/cgroup/cgroup.subtree_control` : `mount the v1 hierarchies of ${missing.join(', ')} under /sys/fs/cgroup`));

  const title = 'cgroup driver';
  const rt = f.runtimeDriver;
  if (!rt) {
    out.push(warn('cgroup.driver', title, `cgroup v${f.version}; the runtime does not tell its cgroup driver (no RuntimeConfig answer); can't compare`));
    return out;
  }
  if (rt.driver === 'systemd' && !f.systemdIsInit) {
    out.push(fail('cgroup.driver', title, `runtime uses systemd (${rt.source}), cgroup v${f.version}, but systemd is not PID 1`, 'set the runtime\'s cgroup driver to cgroupfs'));
  } else if (f.kubeletDriver && f.kubeletDriver.driver !== rt.driver) {
    const k = f.kubeletDriver;
    const ours = `runtime uses ${rt.driver} (${rt.source}), cgroup v${f.version}`;
    if (k.from === 'default') {
      // kubelet 1.31+ (KubeletCgroupDriverFromCRI) takes the runtime's driver from RuntimeConfig when
      // its config sets none; older kubelets use cgroupfs.
      out.push(warn('cgroup.driver', title, `${ours}, kubelet sets no cgroupDriver (${k.source}): cgroupfs before kubelet 1.31, the runtime's from 1.31`,
        `set cgroupDriver: ${rt.driver} in ${k.source}`));
    } else {
      const fix = k.from === 'flag' ? `set --cgroup-driver=${rt.driver} in ${k.source}` : `set cgroupDriver: ${rt.driver} in ${k.source}`;
      out.push(fail('cgroup.driver', title, `${ours}, kubelet ${k.driver} (${k.source}${k.from === 'flag' ? ' --cgroup-driver' : ''})`, `make them agree: ${fix}, or change the runtime's`));
    }
  } else {
    const k = f.kubeletDriver;
    const kube = !k ? ', no kubelet config to compare' : k.from === 'default' ? `, kubelet agrees (its default; ${k.source} sets none)` : `, kubelet agrees (${k.source}${k.from === 'flag' ? ' --cgroup-driver' : ''})`;
    out.push(ok('cgroup.driver', title, `runtime uses ${rt.driver} (${rt.source}), cgroup v${f.version}${kube}`));
  }
  return out;
}

/** Parses /proc/cgroups (v1): the enabled controllers. */
export function enabledV1Controllers(procCgroups: string): string[] {
  const out: string[] = [];
  for (const line of procCgroups.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [name, , , enabled] = line.split(/\s+/);
    if (name && enabled === '1') out.push(name);
  }
  return out;
}

/** kubelet's config file (YAML): its top-level `cgroupDriver`. */
export function kubeletCgroupDriver(configYaml: string): CgroupDriver | undefined {
  return asCgroupDriver(kubeletConfigValue(configYaml, 'cgroupDriver'));
}

/** A driver name as kubelet accepts it; undefined for anything else. */
export function asCgroupDriver(value: string | undefined): CgroupDriver | undefined {
  return value === 'systemd' || value === 'cgroupfs' ? value : undefined;
}
