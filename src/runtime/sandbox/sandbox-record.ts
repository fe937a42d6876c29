// What is kept on disk for a pod sandbox (root/sandboxes/<id>/meta.json).
//
//   (run) --creating--> READY --stop--> NOTREADY --remove--> (gone)
//
// `creating` marks a record whose RunPodSandbox has not finished; if its
// creator died, recovery undoes the acquisitions (all named by the ID).
//
// A pod's network, IPC and UTS namespaces are pinned files (netnsPath,
// ipcnsPath, utsnsPath). A pod with `noInfra` has no pause container (pid 0):
// it is READY while its record says so and its pins hold their namespaces.
import type * as cri from '../../api/cri.js';
import type { NsMode } from '../container/cri-values.js';
import type { Creator } from '../recovery/creator.js';
import type { PodUserns } from './pod-userns.js';

export interface SandboxRecord {
  id: string;
  name: string;
  config: cri.PodSandboxConfigIn;
  state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  /** Set by a completed StopPodSandbox: the pause container and the pod network are gone. */
  released?: boolean;
  createdAt: string;
  creating?: Creator;
  /** The pause container's PID; 0 for a pod without one. */
  pid: number;
  /** No pause container (its PID namespace is not shared): the pins alone hold its namespaces. Absent in older records: a pause. */
  noInfra?: boolean;
  namespaces: { network: NsMode; pid: NsMode; ipc: NsMode };
  netnsPath?: string;
  /** Pinned IPC and UTS namespaces (absent in older records: the pause's /proc/<pid>/ns/*). */
  ipcnsPath?: string;
  utsnsPath?: string;
  /** userns mode POD: the pod's mappings and its pinned user namespace, which owns the other pins. */
  userns?: PodUserns;
  usernsPath?: string;
  /** The pod's /dev/shm (a tmpfs in the sandbox dir, or the host's for host IPC). */
  shmPath?: string;
  ips: string[];
  hostname: string;
  cgroupParent: string;
  cgroupsPath: string;
  pauseImageId: string;
  /** RunPodSandbox's runtime_handler as asked ("" for the default), reported back in status. */
  runtimeHandler: string;
  /** The handler it resolved to at creation, so a later change of default-runtime does not move the pod (absent in older records: the default). */
  runtime?: string;
}
