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

export type FailpointName = (typeof PULL_FAILPOINTS)[number];

export function failpoint(name: FailpointName): void {
  if (process.env.ISULATS_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}
