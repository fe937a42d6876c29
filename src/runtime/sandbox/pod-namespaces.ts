// A pod's own network, IPC and UTS namespaces, made and pinned by one run of
// the pinns helper (build/pinns/pinns): it unshares them, brings lo up, sets
// the pod's hostname, applies the pod's namespaced sysctls and bind-mounts
// each namespace on a file named by the pod's ID. Containers (and the pause
// container, when there is one) join those files, so a pod needs no process
// to keep its namespaces: they live until releasePins. A pod with a user
// namespace of its own gets it pinned too, made first: it owns the others.
import { join } from 'node:path';
import type { EnginePaths } from '../config/engine-config.js';
import type { NsMode } from '../container/cri-values.js';
import { internal, invalidArgument } from '../errors.js';
import type { ProcessRunner } from '../oci/process-runner.js';
import { releasePins } from '../network/netns.js';
import { repoPath } from '../../util/repo-root.js';
import { mapArg, type PodUserns } from './pod-userns.js';

export const PINNS_BINARY = repoPath('build', 'pinns', 'pinns');

export interface PodPins {
  net?: string;
  ipc?: string;
  uts?: string;
  /** The pod's user namespace (userns mode POD): made first, and owner of the others. */
  user?: string;
}

type Modes = { network: NsMode; ipc: NsMode };

/** The pins a pod with these modes gets: net and UTS unless host network, IPC unless host IPC. */
export function podPinPaths(paths: EnginePaths, id: string, modes: Modes, userns?: PodUserns): PodPins {
  const pins: PodPins = {};
  if (userns) pins.user = join(paths.usernsDir, id);
  if (modes.network !== 'NODE') {
    pins.net = join(paths.netnsDir, id);
    pins.uts = join(paths.utsnsDir, id);
  }
  if (modes.ipc !== 'NODE') pins.ipc = join(paths.ipcnsDir, id);
  return pins;
}

/** Every pin file a pod with this ID may have: what a crashed RunPodSandbox may have left. */
export function allPinPaths(paths: EnginePaths, id: string): string[] {
  return [join(paths.netnsDir, id), join(paths.ipcnsDir, id), join(paths.utsnsDir, id), join(paths.usernsDir, id)];
}

export function pinList(pins: PodPins): string[] {
  return [pins.net, pins.ipc, pins.uts, pins.user].filter((p): p is string => !!p);
}

const IPC_SYSCTLS = new Set(['kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced']);

/** The namespace a sysctl lives in, as runc decides it; undefined for sysctls that are the node's. */
export function sysctlNamespace(key: string): 'net' | 'ipc' | 'uts' | undefined {
  if (IPC_SYSCTLS.has(key) || key.startsWith('fs.mqueue.')) return 'ipc';
  if (key.startsWith('net.')) return 'net';
  if (key === 'kernel.domainname') return 'uts';
  return undefined;
}

/**
 * Throws InvalidArgument for a sysctl the pod cannot set (runc's rules): one outside any
 * namespace, or one of a namespace the pod shares with the node.
 */
export function checkPodSysctls(sysctls: Record<string, string> | undefined, modes: Modes): void {
  for (const [key, value] of Object.entries(sysctls ?? {})) {
    const ns = sysctlNamespace(key);
    if (!ns || !/^[a-z0-9_.-]+$/i.test(key) || key.includes('..')) throw invalidArgument(`sysctl "${key}" is not in a separate kernel namespace`);
    const hostNs = ns === 'ipc' ? modes.ipc === 'NODE' : modes.network === 'NODE';
    if (hostNs) throw invalidArgument(`sysctl "${key}" is not allowed in the host's ${ns === 'ipc' ? 'IPC' : 'network'} namespace`);
    if (/[\0\n]/.test(value)) throw invalidArgument(`sysctl "${key}": value must be one line`);
  }
}

export interface PinRequest {
  pins: PodPins;
  /** Set in the new UTS namespace; unset: it keeps the node's name. */
  hostname?: string;
  sysctls?: Record<string, string>;
  /** With pins.user: the mappings written for the pod's user namespace. */
  userns?: PodUserns;
}

/** Runs pinns. On failure nothing is left pinned (pinns undoes its own steps; this releases what a kill left). */
export async function pinPodNamespaces(runner: ProcessRunner, binary: string, req: PinRequest): Promise<void> {
  const args: string[] = [];
  for (const kind of ['net', 'ipc', 'uts'] as const) if (req.pins[kind]) args.push(`--${kind}=${req.pins[kind]}`);
  if (!args.length) return;
  if (req.pins.user && req.userns) args.push(`--user=${req.pins.user}`, `--uid-map=${mapArg(req.userns.uid)}`, `--gid-map=${mapArg(req.userns.gid)}`);
  if (req.hostname && req.pins.uts) args.push(`--hostname=${req.hostname}`);
  for (const [key, value] of Object.entries(req.sysctls ?? {})) args.push(`--sysctl=${key}=${value}`);
  try {
    await runner.check({ cmd: binary, args, timeoutMs: 30_000 });
  } catch (error) {
    await releasePins(pinList(req.pins)).catch(() => undefined);
    throw internal(`pinning the pod's namespaces failed: ${(error as Error).message}`, error);
  }
}
