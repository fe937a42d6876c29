// The parts of an OCI runtime spec (config.json) that NRI adjustments touch.
// Structural, so the engine's own spec type can be passed in.

export interface OciHook {
  path: string;
  args?: string[];
  env?: string[];
  timeout?: number;
}

export interface OciMount {
  destination: string;
  type?: string;
  source?: string;
  options?: string[];
}

export interface OciRlimit {
  type: string;
  hard: number;
  soft: number;
}

export interface OciDevice {
  path: string;
  type: string;
  major: number;
  minor: number;
  fileMode?: number;
  uid?: number;
  gid?: number;
}

export interface OciDeviceCgroup {
  allow: boolean;
  type?: string;
  major?: number;
  minor?: number;
  access?: string;
}

export interface OciResources {
  devices?: OciDeviceCgroup[];
  memory?: {
    limit?: number;
    reservation?: number;
    swap?: number;
    kernel?: number;
    kernelTCP?: number;
    swappiness?: number;
    disableOOMKiller?: boolean;
    useHierarchy?: boolean;
  };
  cpu?: {
    shares?: number;
    quota?: number;
    period?: number;
    realtimeRuntime?: number;
    realtimePeriod?: number;
    cpus?: string;
    mems?: string;
  };
  pids?: { limit: number };
  hugepageLimits?: { pageSize: string; limit: number }[];
  unified?: Record<string, string>;
  [key: string]: unknown;
}

export interface OciSeccomp {
  defaultAction: string;
  defaultErrnoRet?: number;
  architectures?: string[];
  flags?: string[];
  listenerPath?: string;
  listenerMetadata?: string;
  syscalls?: { names: string[]; action: string; errnoRet?: number; args?: { index: number; value: number; valueTwo?: number; op: string }[] }[];
}

export interface OciSpec {
  ociVersion?: string;
  process?: {
    args?: string[];
    env?: string[];
    rlimits?: OciRlimit[];
    oomScoreAdj?: number;
    ioPriority?: { class: string; priority: number };
    scheduler?: Record<string, unknown>;
    [key: string]: unknown;
  };
  mounts?: OciMount[];
  hooks?: Partial<Record<'prestart' | 'createRuntime' | 'createContainer' | 'startContainer' | 'poststart' | 'poststop', OciHook[]>>;
  annotations?: Record<string, string>;
  linux?: {
    devices?: OciDevice[];
    resources?: OciResources;
    cgroupsPath?: string;
    namespaces?: { type: string; path?: string }[];
    seccomp?: OciSeccomp;
    sysctl?: Record<string, string>;
    intelRdt?: { closID?: string; schemata?: string[]; enableMonitoring?: boolean; [key: string]: unknown };
    netDevices?: Record<string, { name?: string }>;
    memoryPolicy?: { mode: string; nodes: string; flags?: string[] };
    [key: string]: unknown;
  };
  [key: string]: unknown;
}
