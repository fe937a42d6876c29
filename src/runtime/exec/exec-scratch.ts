// The two small files a `runc exec` needs: the process spec it reads (--process) and the pid file
// it writes (--pid-file). They live in the container's runc state dir; when that file system refuses
// writes (full, over quota, read-only) they go to a private temp dir on /dev/shm instead, so an
// operator can still `exec rm` in a container to free space on a full disk. runc kills the process
// it started when it cannot write the pid file, so both files must go where writes succeed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isWriteRefused } from '../store/write-refused.js';
import { joinPath } from '../store/path-join.js';
import { currentCreator } from '../recovery/creator.js';
import { sessionPrefix } from './session-dir.js';

/** Memory-backed on every Linux node, and rarely full when the disk holding the state dir is. */
export const EXEC_SCRATCH_FALLBACK = '/dev/shm';

/**
 * Fallback dirs are named `isulats-exec-` and their owner (as exec session dirs are: PID, start
 * time, boot ID), so that what a killed process left is removed once it is dead
 * (recovery/exec-sessions.ts, removeDeadExecScratch).
 */
export const EXEC_SCRATCH_PREFIX = 'isulats-exec-';

export interface ExecScratch {
  specFile: string;
  pidFile: string;
  /** Removes what was made (both files, or the fallback dir). */
  release(): void;
}

/**
 * Writes the spec as `exec-<token>.json` in `dir` (its pid file beside it), or, when `dir`'s file
 * system refuses the write, in a new dir under `fallbackRoot` (0700, made by mkdtemp). Other errors
 * are thrown.
 */
export function writeExecScratch(dir: string, token: string, spec: string | Buffer, fallbackRoot = EXEC_SCRATCH_FALLBACK): ExecScratch {
  const specFile = joinPath(dir, `exec-${token}.json`);
  const pidFile = joinPath(dir, `exec-${token}.pid`);
  try {
    writeFileSync(specFile, spec);
    return { specFile, pidFile, release: () => (rmSync(specFile, { force: true }), rmSync(pidFile, { force: true })) };
  } catch (error) {
    rmSync(specFile, { force: true }); // made empty before the write was refused
    if (!isWriteRefused(error)) throw error;
  }
  // mkdtemp: a new 0700 dir of ours in the sticky /dev/shm, which no other user can rename or fill.
  const scratch = mkdtempSync(joinPath(fallbackRoot, `${EXEC_SCRATCH_PREFIX}${sessionPrefix(currentCreator())}`));
  try {
    writeFileSync(joinPath(scratch, 'process.json'), spec);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return { specFile: joinPath(scratch, 'process.json'), pidFile: joinPath(scratch, 'pid'), release: () => rmSync(scratch, { recursive: true, force: true }) };
}
