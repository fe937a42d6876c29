// The systemd cgroup driver's names. runc takes `slice:prefix:name` as cgroupsPath and asks systemd
// for the unit `prefix-name.scope` in `slice`; kubelet sends the pod's parent as a cgroupfs-style
// path of slices (/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid>.slice), of
// which containerd and CRI-O hand runc the base name. systemd nests a slice in the slices its name's
// dashes spell (a-b-c.slice lives at a.slice/a-b.slice/a-b-c.slice), which is where its cgroup is.

/** The slice pods without a cgroup_parent go to (CRI-O's default parent; runc's too). */
export const DEFAULT_SYSTEMD_SLICE = 'system.slice';

/** The scope prefix of isulats' containers (containerd: cri-containerd, CRI-O: crio). */
export const SYSTEMD_SCOPE_PREFIX = 'isulats';

/** systemd's longest unit name (UNIT_NAME_MAX - 1). */
const UNIT_NAME_MAX = 255;

/** The slice a parent names: its last path element (kubelet sends the whole path of slices). */
export function sliceOf(parent: string): string {
  const parts = parent.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

/** Why `name` is not a slice systemd (and runc's ExpandSlice) accepts, or undefined when it is one. */
export function sliceNameProblem(name: string): string | undefined {
  if (!name.endsWith('.slice') || name === '.slice') return 'a slice name ends in ".slice"';
  if (name.length > UNIT_NAME_MAX) return `a unit name has at most ${UNIT_NAME_MAX} characters`;
  if (!/^[A-Za-z0-9:_.\\-]+$/.test(name)) return 'a unit name has only letters, digits and ":_.\\-"';
  const stem = name.slice(0, -'.slice'.length);
  if (stem === '-') return undefined; // the root slice
  if (stem.split('-').some((part) => part === '')) return 'the dashes of a slice name separate non-empty parents (no leading, trailing or double "-")';
  return undefined;
}

/** The cgroupfs path (from the hierarchy's root) of a slice: a-b-c.slice -> /a.slice/a-b.slice/a-b-c.slice; -.slice -> /. */
export function expandSlice(slice: string): string {
  const stem = slice.slice(0, -'.slice'.length);
  if (stem === '-' || stem === '') return '/';
  const parts = stem.split('-');
  return `/${parts.map((_, i) => `${parts.slice(0, i + 1).join('-')}.slice`).join('/')}`;
}

/** runc's systemd cgroupsPath for a container or pause of pod parent `parent` (a slice, or a path ending in one). */
export function systemdCgroupsPath(parent: string, id: string): string {
  return `${sliceOf(parent) || DEFAULT_SYSTEMD_SLICE}:${SYSTEMD_SCOPE_PREFIX}:${id}`;
}

const SYSTEMD_PATH = /^([^/:]*):([^/:]*):([^/:]+)$/;

/** Whether a cgroupsPath is runc's systemd form (`slice:prefix:name`), not a cgroupfs path. */
export function isSystemdCgroupsPath(cgroupsPath: string): boolean {
  return SYSTEMD_PATH.test(cgroupsPath);
}

/**
 * The cgroupfs path of a cgroupsPath as runc resolves it: `slice:prefix:name` is the scope
 * prefix-name.scope (or the slice `name` itself when it names one) under the slice's expansion;
 * an empty slice is runc's default, system.slice. Anything else is a cgroupfs path already.
 */
export function cgroupfsPathOf(cgroupsPath: string): string {
  const m = SYSTEMD_PATH.exec(cgroupsPath);
  if (!m) return cgroupsPath;
  const [, slice, prefix, name] = m as unknown as [string, string, string, string];
  const unit = name.endsWith('.slice') ? name : prefix ? `${prefix}-${name}.scope` : `${name}.scope`;
  const parent = expandSlice(slice || DEFAULT_SYSTEMD_SLICE);
  return `${parent === '/' ? '' : parent}/${unit}`;
}
