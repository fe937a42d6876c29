// What is kept on disk for a container (root/containers/<id>/meta.json).
//
//   (create) --creating--> CREATED --start--> RUNNING --exit/stop--> EXITED --remove--> (gone)
//
// The EXITED transition is observed from conmon's exit file (the container
// may exit while no engine process runs) and written once the exited container
// is released (runc delete, rootfs unmount): by the daemon as the file
// appears, or by the next read.
import type * as cri from '../../api/cri.js';
import type { Creator } from '../recovery/creator.js';

export type ContainerStateName = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

export interface ContainerRecord {
  id: string;
  sandboxId: string;
  name: string;
  config: cri.ContainerConfigIn;
  state: ContainerStateName;
  creating?: Creator;
  createdAt: string;
  startedAt: string;
  finishedAt: string;
  exitCode: number;
  reason: string;
  message: string;
  imageRef: string;
  imageId: string;
  imageName: string;
  logPath: string;
  bundle: string;
  pid: number;
  cgroupsPath: string;
  stopSignal: string;
  /** uid/gid the process runs as (ContainerStatus.user). */
  user: { uid: number; gid: number; supplementalGroups: number[] };
  /** The runtime handler its pod resolved to, copied at create (absent in older records: the default). */
  runtimeHandler?: string;
  /** Images its image volumes mount (RemoveImage refuses them while the container exists). */
  volumeImageIds?: string[];
  /** Made from a checkpoint archive: StartContainer restores from the CRIU images unpacked in `dir`. */
  restore?: { dir: string; archive: string };
}

/** What the monitor recorded about an exit; undefined when the monitor died without recording one. */
export interface ObservedExit {
  exitCode: number;
  finishedAt: string;
  oomKilled: boolean;
}

/** RUNNING -> EXITED with the CRI reason: OOMKilled, Completed (0), Error, or Unknown without a record. Other states stay. */
export function exitTransition(record: ContainerRecord, exit: ObservedExit | undefined, now: string): ContainerRecord {
  if (record.state !== 'CONTAINER_RUNNING') return record;
  const code = exit?.exitCode ?? 255;
  return {
    ...record,
    state: 'CONTAINER_EXITED',
    exitCode: code,
    finishedAt: notBefore(exit?.finishedAt ?? now, record.startedAt),
    reason: exit?.oomKilled ? 'OOMKilled' : !exit ? 'Unknown' : code === 0 ? 'Completed' : 'Error',
    message: exit ? '' : 'container monitor exited without recording the exit status',
  };
}

/**
 * The exit file's mtime comes from the kernel's coarse clock (a tick behind), so a process that
 * exits within a tick of its start could show a finish before its start: never earlier.
 */
function notBefore(finishedAt: string, startedAt: string): string {
  try {
    return BigInt(finishedAt) < BigInt(startedAt || '0') ? startedAt : finishedAt;
  } catch {
    return finishedAt;
  }
}
