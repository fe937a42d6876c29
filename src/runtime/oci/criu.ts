// Checkpoint/restore needs CRIU, which runc runs. Where CRIU cannot run (`criu check` fails, as on
// many sandboxes and on some kernels, e.g. over the vDSO layout, or it is not installed), the CRI
// calls answer with why. The answer is worked out once per process: `criu check` takes a third of
// a second.
import { failedPrecondition, unimplemented, type IsulatsError } from '../errors.js';
import type { ProcessRunner } from './process-runner.js';

let verdict: Promise<string | undefined> | undefined;

/** Why CRIU cannot serve here: the first error `criu check` prints, or that it is missing. */
export async function criuProblem(runner: ProcessRunner, criuPath = 'criu'): Promise<string | undefined> {
  const result = await runner.run({ cmd: criuPath, args: ['check'], timeoutMs: 10_000, maxOutput: 64 * 1024 }).catch((err: NodeJS.ErrnoException) => err);
  if (result instanceof Error) return result.code === 'ENOENT' ? `${criuPath} is not installed` : result.message;
  if (result.code === 0 && !result.timedOut) return undefined;
  const output = `${result.stderr.toString()}\n${result.stdout.toString()}`;
  // "Error (criu/vdso.c:381): vdso: Unexpected rt vDSO area bounds" -> "vdso: Unexpected rt vDSO area bounds"
  const first = /^Error \([^)]*\):\s*(.+)$/m.exec(output)?.[1] ?? output.trim().split('\n')[0];
  return `criu check failed${result.timedOut ? ' (timed out)' : ''}: ${first || `exit ${result.code}`}`;
}

/** Why checkpoint/restore is not available here (verbose Status and doctor say it too); undefined when it is. */
export function checkpointReason(runner: ProcessRunner): Promise<string | undefined> {
  verdict ??= criuProblem(runner).then((problem) => (problem ? `checkpoint needs CRIU, which cannot run on this host: ${problem}` : undefined));
  return verdict;
}

/** The Unimplemented error for a checkpoint request where CRIU cannot run; undefined where it can. */
export async function checkpointUnavailable(runner: ProcessRunner, what: string): Promise<IsulatsError | undefined> {
  const reason = await checkpointReason(runner);
  return reason ? unimplemented(`${what}: ${reason}`) : undefined;
}

/** A restore (CreateContainer from an archive) where CRIU cannot run: FailedPrecondition with why. */
export async function restoreUnavailable(runner: ProcessRunner, archive: string): Promise<IsulatsError | undefined> {
  const reason = await checkpointReason(runner);
  return reason ? failedPrecondition(`restoring from checkpoint ${archive}: ${reason}`) : undefined;
}
