// Error kinds the engine throws. They are mapped once at each edge: the daemon
// turns them into gRPC status codes, the CLI into a one-line message (exit 1),
// and the remote backend turns gRPC codes back into these kinds so that both
// backends print the same error.
export type ErrorKind =
  | 'not-found'
  | 'already-exists'
  | 'invalid-argument'
  | 'failed-precondition'
  | 'unavailable'
  | 'deadline-exceeded'
  | 'unimplemented'
  | 'internal';

export class IsulatsError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'IsulatsError';
  }
}

export const notFound = (what: string) => new IsulatsError('not-found', what);
export const alreadyExists = (what: string) => new IsulatsError('already-exists', what);
export const invalidArgument = (what: string) => new IsulatsError('invalid-argument', what);
export const failedPrecondition = (what: string) => new IsulatsError('failed-precondition', what);
export const unavailable = (what: string, cause?: unknown) => new IsulatsError('unavailable', what, { cause });
export const unimplemented = (what: string) => new IsulatsError('unimplemented', what);
export const internal = (what: string, cause?: unknown) => new IsulatsError('internal', what, { cause });

export function isKind(err: unknown, kind: ErrorKind): boolean {
  return err instanceof IsulatsError && err.kind === kind;
}
