import { Code, MESSAGE_LENGTH_MAX } from './constants.js';

const CODE_NAMES: Record<number, string> = Object.fromEntries(Object.entries(Code).map(([k, v]) => [v, k]));

/** An RPC that ended with a non-OK google.rpc.Status (either side). */
export class TtrpcStatusError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`ttrpc: ${CODE_NAMES[code] ?? `code ${code}`}: ${details}`);
    this.name = 'TtrpcStatusError';
  }
}

/** A message larger than the 4 MiB limit, refused before it was sent or after its header was read. */
export class OversizedMessageError extends TtrpcStatusError {
  constructor(
    readonly length: number,
    readonly maximum = MESSAGE_LENGTH_MAX,
  ) {
    super(Code.RESOURCE_EXHAUSTED, `message length ${length} exceeds maximum message size of ${maximum}`);
    this.name = 'OversizedMessageError';
  }
}

/** The connection is gone: pending and later calls fail with this. */
export class TtrpcClosedError extends Error {
  constructor(reason = 'ttrpc: closed') {
    super(reason);
    this.name = 'TtrpcClosedError';
  }
}

/** The peer broke the framing rules; the connection cannot continue. */
export class TtrpcProtocolError extends Error {
  constructor(message: string) {
    super(`ttrpc: protocol error: ${message}`);
    this.name = 'TtrpcProtocolError';
  }
}

export function statusCodeOf(err: unknown): number {
  if (err instanceof TtrpcStatusError) return err.code;
  if (err instanceof TtrpcClosedError) return Code.UNAVAILABLE;
  return Code.UNKNOWN;
}
