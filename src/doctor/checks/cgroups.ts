// cgroup version and controllers, and the runtime's cgroup driver against the
// host (systemd driver needs systemd as init) and kubelet's configuration.
import { fail, ok, warn, type CheckResult } from '../check-result.js';

export type CgroupDriver = 'systemd' | 'cgroupfs';

export interface CgroupFacts {
  version: 1 | 2;
  /** Controllers usable for containers (v2: cgroup.controllers; v1: enabled in /proc/cgroups). */
  controllers: string[];
  systemdIsInit: boolean;
  /** The runtime's driver and where it came from; undefined when the runtime does not say. */
  runtimeDriver?: { driver: CgroupDriver; source: string };
  /** kubelet's cgroupDriver from its config file, when there is one. */
  kubeletDriver?: { driver: CgroupDriver; source: string };
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
    out.push(fail('cgroup.driver', title, `runtime uses ${rt.driver} (${rt.source}), cgroup v${f.version}, kubelet ${f.kubeletDriver.driver} (${f.kubeletDriver.source})`,
      `make them agree: set cgroupDriver: ${rt.driver} in ${f.kubeletDriver.source}, or change the runtime's`));
  } else {
    const kube = f.kubeletDriver ? `, kubelet agrees (${f.kubeletDriver.source})` : ', no kubelet config to compare';
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
  const m = /^cgroupDriver:\s*["']?(systemd|cgroupfs)["']?\s*$/m.exec(configYaml);
  return m ? (m[1] as CgroupDriver) : undefined;
}
