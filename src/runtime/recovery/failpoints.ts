// Crash-test points of the pod and container lifecycle. Same mechanism as the
// image service's (src/runtime/image/failpoint.ts): when ISULATS_FAILPOINT
// names the point reached, the process SIGKILLs itself there.
// Each list is in the order the operation reaches its points.
export const RUNP_FAILPOINTS = [
  'runp-after-record',
  'runp-after-name',
  'runp-after-shm',
  'runp-after-rootfs',
  'runp-after-netns',
  'runp-after-cni-add',
  'runp-after-pod-files',
  'runp-after-pause-run',
  'runp-after-ready-write',
] as const;

export const CREATE_FAILPOINTS = [
  'create-after-record',
  'create-after-name',
  'create-after-rootfs',
  'create-after-bundle',
  'create-after-record-write',
] as const;

export const START_FAILPOINTS = ['start-before-conmon', 'start-after-conmon', 'start-after-runc-start', 'start-after-record-write'] as const;

export const RM_FAILPOINTS = ['rm-after-stop', 'rm-after-runtime-delete', 'rm-after-snapshot-remove', 'rm-after-record-remove'] as const;

/** The release of an exited container (stopped or exited by itself), which comes before its EXITED record. */
export const EXIT_FAILPOINTS = ['exit-before-release', 'exit-after-release'] as const;

/** Pod release steps, shared by StopPodSandbox (`stopp-`) and RemovePodSandbox (`rmp-`). */
const RELEASE_STEPS = ['after-containers', 'after-pause-delete', 'after-cni-del', 'after-netns-remove', 'after-unmount'] as const;

export const STOPP_FAILPOINTS = [...RELEASE_STEPS.map((s) => `stopp-${s}` as const), 'stopp-after-record-write'] as const;

export const RMP_FAILPOINTS = [...RELEASE_STEPS.map((s) => `rmp-${s}` as const), 'rmp-after-snapshot-remove', 'rmp-after-record-remove'] as const;

/** Inside the mount of an idmapped rootfs (a pod with a user namespace): layer clones attached, no overlay yet. */
export const IDMAP_FAILPOINTS = ['idmap-after-layers'] as const;

export type PodReleaseOp = 'stopp' | 'rmp';
export type PodReleaseStep = (typeof RELEASE_STEPS)[number];

export type RuntimeFailpoint =
  | (typeof RUNP_FAILPOINTS)[number]
  | (typeof CREATE_FAILPOINTS)[number]
  | (typeof START_FAILPOINTS)[number]
  | (typeof RM_FAILPOINTS)[number]
  | (typeof EXIT_FAILPOINTS)[number]
  | (typeof STOPP_FAILPOINTS)[number]
  | (typeof RMP_FAILPOINTS)[number]
  | (typeof IDMAP_FAILPOINTS)[number];

export function runtimeFailpoint(name: RuntimeFailpoint): void {
  if (process.env.ISULATS_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}
