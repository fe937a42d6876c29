// How errors become one line on stderr and an exit code, in one place.
// crictl exits 1 on any error; `exec` passes the remote process's code through
// (ExitCodeError), which prints nothing of its own.
import { IsulatsError } from '../runtime/errors.js';
import { oneLine } from './one-line.js';

export class ExitCodeError extends Error {
  constructor(readonly code: number) {
    super(`exit status ${code}`);
  }
}

/** A usage mistake found by the command itself (bad flag combination, missing argument). */
export class UsageError extends Error {}

/** The one line to print for an error; empty for an exit code passed through. */
export function formatError(err: unknown): string {
  if (err instanceof ExitCodeError) return '';
  if (err instanceof IsulatsError) return oneLine(err.message);
  if (err instanceof Error) {
    const oclif = (err as { oclif?: { exit?: number } }).oclif;
    if (oclif) return oneLine(err.message.replace(/\n\s*See more help with --help$/, ''));
    return oneLine(err.message);
  }
  return oneLine(String(err));
}



export function exitCodeFor(err: unknown): number {
  if (err instanceof ExitCodeError) return err.code;
  return 1;
}
