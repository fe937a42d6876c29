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
  // grpc-js words a refused connect as its own internals ("... Resolution note: "): the cause is the one line.
  if (kind === 'unavailable' && /\bEACCES\b/.test(text)) return new IsulatsError(kind, `permission denied on ${socketPath(target)}`, { cause: err });
  if (kind === 'unavailable') text = `cannot connect to ${target}: ${connectCause(text)}`;
  // Only grpc-js's own deadline ("Deadline exceeded after 2.001s") is the client's; a runtime's
  // DeadlineExceeded (an ExecSync timeout: "... context deadline exceeded") keeps its own words.
  if (kind === 'deadline-exceeded' && /^Deadline exceeded\b/.test(text)) text = `no answer from ${target} within the timeout (${text})`;
  return new IsulatsError(kind, text, { cause: err });
}

/** The socket file of a unix endpoint (unix:///run/x.sock, unix:/run/x.sock, /run/x.sock); other targets as given. */
export function socketPath(target: string): string {
  return target.replace(/^unix:(\/\/)?/, '');
}

/** What a connect errno means to whoever runs the CLI (the words crictl's Go dialer prints, plus the likely reason). */
const CONNECT_ERRNO: Record<string, string> = {
  ENOENT: 'no such file or directory (is the runtime running?)',
  ECONNREFUSED: 'connection refused (nothing listens on the socket: is the runtime running?)',
  ENOTSOCK: 'not a socket',
  ENOTDIR: 'not a directory in the socket path',
  ECONNRESET: 'connection reset by the runtime',
  ETIMEDOUT: 'connection timed out',
};

/**
 * grpc-js's connect failure ("No connection established. Last error: Error: connect ENOENT /x.sock
 * (time). Resolution note: ") as its cause alone; other texts as they are, without the resolver's note.
 */
function connectCause(text: string): string {
  const errno = /\bconnect (E[A-Z]+)\b/.exec(text)?.[1];
  if (errno && CONNECT_ERRNO[errno]) return CONNECT_ERRNO[errno];
  if (errno) return `connect: ${errno}`;
  return text.replace(/\s*Resolution note:\s*$/, '').trim();
}
