// gRPC status codes <-> engine error kinds, so that a remote runtime's error
// and the embedded engine's print the same way.
import { IsulatsError, type ErrorKind } from '../runtime/errors.js';

const CODE_TO_KIND: Record<number, ErrorKind> = {
  3: 'invalid-argument',
  4: 'deadline-exceeded',
  5: 'not-found',
  6: 'already-exists',
  9: 'failed-precondition',
  12: 'unimplemented',
  14: 'unavailable',
};

export const KIND_TO_CODE: Record<ErrorKind, number> = {
  'invalid-argument': 3,
  'deadline-exceeded': 4,
  'not-found': 5,
  'already-exists': 6,
  'failed-precondition': 9,
  unimplemented: 12,
  unavailable: 14,
  internal: 13,
};

export interface GrpcLikeError {
  code?: number;
  details?: string;
  message?: string;
}

export function fromGrpcError(err: GrpcLikeError, target: string): IsulatsError {
  const kind = (err.code !== undefined && CODE_TO_KIND[err.code]) || 'internal';
  let text = err.details || err.message || 'unknown error';
  if (kind === 'unavailable') text = `cannot connect to ${target}: ${text}`;
  if (kind === 'deadline-exceeded' && /Deadline exceeded/i.test(text)) text = `no answer from ${target} within the timeout (${text})`;
  return new IsulatsError(kind, text, { cause: err });
}
