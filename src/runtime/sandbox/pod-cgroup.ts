// The pod's own cgroup: the cgroup parent kubelet gives each pod
// (/kubepods/burstable/pod<uid>, or kubepods-burstable-pod<uid>.slice under
// systemd). Pods without one run under the engine's shared parent, whose
// limits are no single pod's to change.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxRecord } from './sandbox-record.js';
import { DEFAULT_SYSTEMD_SLICE, expandSlice, sliceNameProblem, sliceOf } from '../oci/systemd-cgroup.js';

/** Where cgroupfs pods without a cgroup_parent go. */
export const DEFAULT_CGROUPFS_PARENT = '/isulats';

/** The parent of pods without a cgroup_parent: the configured one, else the manager's default (systemd: system.slice, as CRI-O). */
export function engineCgroupParent(configured: string | undefined, manager: 'cgroupfs' | 'systemd'): string {
  return configured || (manager === 'systemd' ? DEFAULT_SYSTEMD_SLICE : DEFAULT_CGROUPFS_PARENT);
}

/**
 * The parent a pod's record keeps: under systemd the slice a parent names (kubelet sends the path
 * of slices, containerd and CRI-O take its base name), else the parent as given.
 */
export function podCgroupParent(parent: string, manager: 'cgroupfs' | 'systemd'): string {
  return manager === 'systemd' ? sliceOf(parent) : parent;
}

/** Why the systemd manager cannot put a pod under `parent` (runc would say "invalid slice name"), or undefined. */
export function cgroupParentProblem(parent: string, manager: 'cgroupfs' | 'systemd'): string | undefined {
  if (manager !== 'systemd') return undefined;
  const problem = sliceNameProblem(sliceOf(parent));
  return problem && `cgroup parent "${parent}" is not a systemd slice (${problem}), which the systemd cgroup manager needs: e.g. kubepods-burstable-pod<uid>.slice or a path ending in one`;
}

/** The cgroupfs path of a cgroup parent; under systemd, the parent's slice expanded as systemd nests it (a-b-c.slice -> /a.slice/a-b.slice/a-b-c.slice). */
export function podCgroupPath(parent: string, manager: 'cgroupfs' | 'systemd'): string {
  if (manager !== 'systemd') return parent;
  const slice = sliceOf(parent);
  return slice.endsWith('.slice') ? expandSlice(slice) : parent;
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

/**
 * Makes the pod's cgroup (a cgroupfs path, see podCgroupPath) where it is missing, as runc made
 * it for the pause container: a pod without one would otherwise have none until its first
 * container starts, and UpdatePodSandboxResources writes there. kubelet makes it before
 * RunPodSandbox; it stays its to remove, as with a pause. v1: the path in every hierarchy but the
 * hybrid mode's unified one; v2: the path, each level's controllers enabled for its children.
 * These stay on libuv's pool, off the event loop: a cgroupfs mkdir takes the kernel's cgroup mutex,
 * which every `runc init` starting meanwhile holds too. v1's hierarchies are made at once.
 */
export async function ensurePodCgroup(path: string, version: 1 | 2, root = '/sys/fs/cgroup'): Promise<void> {
  const rel = path.replace(/^\/+|\/+$/g, '');
  if (!rel) return;
  if (version === 1) {
    const hierarchies = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name !== 'unified');
    await Promise.all(hierarchies.map((e) => mkdir(join(root, e.name, rel), { recursive: true })));
    return;
  }
  let dir = root;
  for (const part of rel.split('/')) {
    const child = join(dir, part);
    if (!existsSync(child)) {
      const available = (await readFile(join(dir, 'cgroup.controllers'), 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean);
      const enabled = new Set((await readFile(join(dir, 'cgroup.subtree_control'), 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean));
      const missing = available.filter((c) => !enabled.has(c));
      if (missing.length) await writeFile(join(dir, 'cgroup.subtree_control'), missing.map((c) => `+${c}`).join(' '));
      await mkdir(child).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
    }
    dir = child;
  }
}
