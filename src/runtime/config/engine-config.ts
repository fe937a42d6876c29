// Engine options with their defaults, and the derived on-disk layout.
import { join } from 'node:path';
import type { DefaultValidatorConfig } from '../../nri/adaptation/validator.js';

export interface EngineOptions {
  /** Persistent root (records, bundles, rw layers, CNI result cache). */
  root: string;
  /** Volatile state (runc state, exit files, attach sockets, netns mounts, events). */
  state: string;
  cniConfDir?: string;
  cniBinDirs?: string[];
  pauseImage?: string;
  cgroupManager?: 'cgroupfs' | 'systemd';
  /** Parent cgroup for pods without a cgroup_parent. */
  cgroupParent?: string;
  registryConfigDir?: string;
  registryMirrors?: string[];
  insecureRegistries?: string[];
  authFile?: string;
  /** The runc binary of the built-in "runc" handler (unless `runtimes` redefines "runc"). */
  runcPath?: string;
  /** Runtime handlers (runc-compatible CLIs) beside the built-in "runc", by RunPodSandbox's runtime_handler. */
  runtimes?: Record<string, { path: string; runtimeArgs?: string[] }>;
  /** The handler of pods with runtime_handler "" (default "runc"). */
  defaultRuntime?: string;
  conmonPath?: string;
  /** Max bytes of a container log file before conmon truncates it (0: no cap). */
  logSizeMax?: number;
  /** The static pause binary the default pause image is made of (default: build/pause/pause of the install). */
  pauseBinaryPath?: string;
  /** The helper that makes and pins a pod's namespaces (default: build/pinns/pinns of the install). */
  pinnsPath?: string;
  /**
   * Pods that do not share a PID namespace get no pause container: their namespaces live on as
   * bind mounts only (CRI-O's drop_infra_ctr). false gives every pod a pause container. Default true.
   */
  dropInfraContainer?: boolean;
  /** CDI spec dirs, lowest priority first (default /etc/cdi, /var/run/cdi). */
  cdiSpecDirs?: string[];
  /** NRI (node resource interface); off when unset or not enabled. */
  nri?: NriEngineOptions;
  /**
   * Release each container as its init exits, from a watch on the exit dir (a long-lived engine:
   * the daemon). Otherwise the next call that reads the container does it.
   */
  watchExits?: boolean;
  warn?: (message: string) => void;
  /** Events worth a log line that are not problems (an NRI plugin registered); dropped when unset. */
  info?: (message: string) => void;
  /** Detail for the debug log (runc's warnings on a failed start). */
  debug?: (message: string) => void;
}

export interface NriEngineOptions {
  enabled: boolean;
  socketPath?: string;
  pluginDir?: string;
  pluginConfigDir?: string;
  registrationTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Accept external plugins on socketPath (daemon mode only). */
  enableExternalConnections?: boolean;
  /** daemon: one long-lived NRI with the engine; embedded: pre-installed plugins per CLI operation. */
  mode?: 'daemon' | 'embedded';
  /** The builtin validator and the plugin allow-list (daemon.json `nri-default-validator`). */
  validator?: NriValidatorOptions;
}

/** The adaptation's DefaultValidatorConfig (containerd 2.x's names) plus our own allow-list. */
export type NriValidatorOptions = DefaultValidatorConfig & {
  /** Ours: only plugins of these names may register; any name when unset. */
  allowedPlugins?: string[];
};

export const DEFAULT_PAUSE_IMAGE = 'isulats/pause:3.9';

export interface EnginePaths {
  root: string;
  state: string;
  runcRoot: string;
  exitDir: string;
  socketDir: string;
  netnsDir: string;
  /** Pinned IPC and UTS namespaces of pods, one file per pod ID (as netnsDir for network namespaces). */
  ipcnsDir: string;
  utsnsDir: string;
  /** Pinned user namespaces of pods with userns mode POD, one file per pod ID. */
  usernsDir: string;
  /** Per pod with a user namespace: what its containers reach by path as the pod's root (sandbox/userns-share.ts). */
  usernsShareDir: string;
  cniCacheDir: string;
  eventsFile: string;
  runtimeConfigFile: string;
}

export function enginePaths(opts: Pick<EngineOptions, 'root' | 'state'>): EnginePaths {
  return {
    root: opts.root,
    state: opts.state,
    runcRoot: join(opts.state, 'runc'),
    exitDir: join(opts.state, 'exits'),
    socketDir: join(opts.state, 'sk'),
    netnsDir: join(opts.state, 'netns'),
    ipcnsDir: join(opts.state, 'ipcns'),
    utsnsDir: join(opts.state, 'utsns'),
    usernsDir: join(opts.state, 'userns'),
    usernsShareDir: join(opts.state, 'userns-share'),
    cniCacheDir: join(opts.root, 'cni', 'results'),
    eventsFile: join(opts.state, 'events.log'),
    runtimeConfigFile: join(opts.root, 'runtime-config.json'),
  };
}
