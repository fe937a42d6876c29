// The Container Device Interface's spec file, as the CDI spec (SPEC.md of
// cncf-tags/container-device-interface) defines it for cdiVersion 0.3.0–0.8.0.

export interface CdiDeviceNode {
  path: string;
  hostPath?: string;
  /** b, c, u or p; read from the host node when left out. */
  type?: string;
  major?: number;
  minor?: number;
  fileMode?: number;
  /** cgroup access: a subset of "rwm"; "none" for no rule access. */
  permissions?: string;
  uid?: number;
  gid?: number;
}

export interface CdiMount {
  hostPath: string;
  containerPath: string;
  options?: string[];
  type?: string;
}

export type CdiHookName = 'prestart' | 'createRuntime' | 'createContainer' | 'startContainer' | 'poststart' | 'poststop';
export const CDI_HOOK_NAMES: readonly CdiHookName[] = ['prestart', 'createRuntime', 'createContainer', 'startContainer', 'poststart', 'poststop'];

export interface CdiHook {
  hookName: CdiHookName;
  path: string;
  args?: string[];
  env?: string[];
  timeout?: number;
}

export interface CdiIntelRdt {
  closID?: string;
  l3CacheSchema?: string;
  memBwSchema?: string;
}

export interface CdiContainerEdits {
  env?: string[];
  deviceNodes?: CdiDeviceNode[];
  hooks?: CdiHook[];
  mounts?: CdiMount[];
  intelRdt?: CdiIntelRdt;
  additionalGids?: number[];
}

export interface CdiDevice {
  name: string;
  annotations?: Record<string, string>;
  containerEdits: CdiContainerEdits;
}

export interface CdiSpec {
  cdiVersion: string;
  /** vendor.com/class */
  kind: string;
  annotations?: Record<string, string>;
  devices: CdiDevice[];
  containerEdits?: CdiContainerEdits;
}

/** A spec as loaded: where from, and its priority (the index of its dir: later dirs win). */
export interface LoadedSpec {
  path: string;
  priority: number;
  spec: CdiSpec;
}

/** A device resolved by its fully qualified name, with the spec that holds it. */
export interface ResolvedCdiDevice {
  name: string;
  device: CdiDevice;
  from: LoadedSpec;
}

/** What a host device node is, as lstat tells (major/minor only for b and c). */
export interface HostDeviceInfo {
  type: 'b' | 'c' | 'p';
  major: number;
  minor: number;
  fileMode: number;
}
