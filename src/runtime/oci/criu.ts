// Checkpoint/restore needs CRIU. isulats does not implement it; the CRI
// calls answer Unimplemented with why, which on most sandboxes and some
// kernels is that CRIU itself cannot run (`criu check` fails, e.g. on the
// vDSO layout). The answer is worked out once per process: `criu check`
// takes a third of a second.
import { unimplemented, type IsulatsError } from '../errors.js';
import type { ProcessRunner } from './process-runner.js';

let verdict: Promise<string> | undefined;

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

/** Why checkpoint/restore is not available (verbose Status and doctor say it too). */
export function checkpointReason(runner: ProcessRunner): Promise<string> {
  verdict ??= criuProblem(runner).then((problem) =>
    problem ? `checkpoint needs CRIU, which cannot run on this host: ${problem}` : 'isulats does not implement checkpoint/restore yet (CRIU itself works on this host)',
  );
  return verdict;
}

/** The Unimplemented error for a checkpoint or restore request. */
export async function checkpointUnavailable(runner: ProcessRunner, what: string): Promise<IsulatsError> {
  return unimplemented(`${what}: ${await checkpointReason(runner)}`);
}
