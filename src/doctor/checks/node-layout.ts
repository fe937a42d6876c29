// What a systemd node does differently, in rows: the daemon's cgroup has the controllers delegated
// to it (cgroup v2), the parent pods without one go to is a slice the systemd driver can use (and
// kubelet's cgroupRoot too), root and state reached through links (resolved at start, so fine, but
// said), and where the single executable unpacks its files (a noexec mount cannot run them).
import { fail, ok, warn, type CheckResult } from '../check-result.js';
import { REQUIRED_CONTROLLERS, type CgroupDriver } from './cgroups.js';
import { cgroupParentProblem, engineCgroupParent } from '../../runtime/sandbox/pod-cgroup.js';
import { kubeletConfigValue } from '../kubelet-settings.js';

export interface NodeLayoutFacts {
  cgroupVersion: 1 | 2;
  /** The runtime's cgroup manager, when isulats' own config tells. */
  manager?: CgroupDriver;
  /** v2: the cgroup of the daemon (or of this process, embedded) and the controllers it was given. */
  daemonCgroup?: { pid: number; path: string; controllers: string[] };
  /** The engine's parent for pods without a cgroup_parent, as configured (undefined: the manager's default). */
  cgroupParent?: string;
  /** kubelet's `cgroupRoot`, when its config sets one. */
  kubeletCgroupRoot?: { value: string; source: string };
  /** The engine's dirs as configured and the real path each resolves to. */
  dirs: Array<{ role: 'root' | 'state'; path: string; real?: string }>;
  /** The single executable's unpack candidates, best first, and the one a running executable uses. */
  sea: { candidates: Array<{ dir: string; noexec: boolean }>; override: boolean; inUse?: string };
}

export function evaluateNodeLayout(f: NodeLayoutFacts): CheckResult[] {
  const out: CheckResult[] = [];
  if (f.cgroupVersion === 2 && f.daemonCgroup) {
    const { pid, path, controllers } = f.daemonCgroup;
    const missing = REQUIRED_CONTROLLERS.filter((c) => !controllers.includes(c));
    const evidence = `process ${pid} in ${path}: ${controllers.join(' ') || 'no controllers'}`;
    out.push(missing.length === 0
      ? ok('cgroup.delegation', 'cgroup v2 delegation', `${evidence} delegated`)
      : warn('cgroup.delegation', 'cgroup v2 delegation', `${evidence} (missing ${missing.join(', ')})`,
        `give the daemon its controllers: Delegate=yes in its unit (contrib/systemd/isulats.service has it), or enable them in the parent's cgroup.subtree_control`));
  }
  if (f.manager) {
    const parent = engineCgroupParent(f.cgroupParent, f.manager);
    const problem = cgroupParentProblem(parent, f.manager);
    out.push(problem
      ? fail('cgroup.parent', 'default cgroup parent', problem, `set the engine's cgroup parent to a slice (e.g. system.slice), or leave it unset`)
      : ok('cgroup.parent', 'default cgroup parent', `pods without a cgroup_parent go to ${parent} (${f.manager})`));
    const root = f.kubeletCgroupRoot;
    if (root && root.value !== '/' && root.value !== '') {
      const rootProblem = cgroupParentProblem(root.value, f.manager);
      if (rootProblem) out.push(fail('cgroup.kubelet-root', "kubelet's cgroupRoot", `${root.source}: ${rootProblem}`, `set cgroupRoot in ${root.source} to a slice, or "/"`));
    }
  }
  for (const d of f.dirs) {
    const title = `${d.role} dir`;
    if (d.real === undefined) out.push(ok(`dirs.${d.role}`, title, `${d.path}: not made yet (made at start)`));
    else if (d.real !== d.path) out.push(ok(`dirs.${d.role}`, title, `${d.path} is reached through a link: resolved to ${d.real} at start`));
    else out.push(ok(`dirs.${d.role}`, title, d.path));
  }
  const { candidates, override, inUse } = f.sea;
  const fit = candidates.find((c) => !c.noexec);
  const skipped = candidates.filter((c) => c.noexec).map((c) => c.dir);
  const title = 'single executable unpack dir';
  if (!fit) {
    out.push(fail('sea.unpack', title, `${skipped.join(', ')}: on a noexec mount, where the executable's addon and helpers cannot run`,
      `set ISULATS_SEA_DIR to a directory on a mount without noexec${override ? '' : ' (root default: /var/lib/isulats/sea)'}`));
  } else {
    const note = skipped.length ? ` (${skipped.join(', ')} skipped: noexec)` : '';
    out.push(ok('sea.unpack', title, `${fit.dir}${override ? ' (ISULATS_SEA_DIR)' : ''}${inUse === fit.dir ? ', in use' : ''}${note}`));
  }
  return out;
}

/** kubelet's config file (YAML): its top-level `cgroupRoot`. */
export function kubeletCgroupRoot(configYaml: string): string | undefined {
  return kubeletConfigValue(configYaml, 'cgroupRoot');
}

/** The v2 cgroup of a process from its /proc/<pid>/cgroup text (the `0::` line). */
export function unifiedCgroupOf(procCgroup: string): string | undefined {
  const line = procCgroup.split('\n').find((l) => l.startsWith('0::'));
  return line ? line.slice(3) : undefined;
}
