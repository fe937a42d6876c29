// The pod's own cgroup: the cgroup parent kubelet gives each pod
// (/kubepods/burstable/pod<uid>, or kubepods-burstable-pod<uid>.slice under
// systemd). Pods without one run under the engine's shared parent, whose
// limits are no single pod's to change.
import type { SandboxRecord } from './sandbox-record.js';

/** The cgroupfs path of a cgroup parent; systemd slices expand as systemd nests them (a-b-c.slice -> /a.slice/a-b.slice/a-b-c.slice). */
export function podCgroupPath(parent: string, manager: 'cgroupfs' | 'systemd'): string {
  if (manager !== 'systemd' || !parent.endsWith('.slice')) return parent;
  const name = parent.slice(0, -'.slice'.length);
  if (name === '-' || name === '') return '/';
  const parts = name.split('-');
  return `/${parts.map((_, i) => `${parts.slice(0, i + 1).join('-')}.slice`).join('/')}`;
}

/** Why `record` has no cgroup of its own to update, or undefined when it has one. */
export function sharedCgroupProblem(record: SandboxRecord, all: SandboxRecord[], engineParent: string): string | undefined {
  const own = record.config.linux?.cgroupParent ?? '';
  const hint = 'give the pod its own linux.cgroup_parent, as kubelet does';
  if (!own || own === engineParent) return `pod ${record.id} runs under the shared cgroup parent ${record.cgroupParent}, not a cgroup of its own: ${hint}`;
  const other = all.find((s) => s.id !== record.id && s.cgroupParent === record.cgroupParent);
  if (other) return `pod ${record.id} shares its cgroup parent ${record.cgroupParent} with pod ${other.id}: ${hint}`;
  return undefined;
}
