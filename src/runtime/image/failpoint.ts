// Crash-test hook: when ISULATS_FAILPOINT names the point reached, the process
// kills itself with SIGKILL there, as a power cut or an OOM kill would.
// Points along a pull, in order:
export const PULL_FAILPOINTS = [
  'pull-after-manifest',
  'blob-mid-download',
  'blob-before-commit',
  'blob-after-commit',
  'unpack-mid-layer',
  'unpack-before-commit',
  'snapshot-after-commit',
  'record-before-write',
  'record-after-write',
  'index-after-write',
] as const;

// Points along a RemoveImage, in order: the record's removal, then gc's batch renames into a
// deletion dir (blobs, then layers) and the rm -rf of that dir after.
export const REMOVE_FAILPOINTS = [
  'remove-after-untag',
  'remove-after-record',
  'gc-blobs-mid-move',
  'gc-layers-mid-move',
  'gc-batch-before-rm',
] as const;

export type FailpointName = (typeof PULL_FAILPOINTS)[number] | (typeof REMOVE_FAILPOINTS)[number];

export function failpoint(name: FailpointName): void {
  if (process.env.ISULATS_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}
