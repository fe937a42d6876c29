// Incoming RPC deadlines beyond what a Node timer holds. grpc-js turns a request's grpc-timeout
// header into `setTimeout((n * unit) | 0)`: from 2^31 ms on (`crictl -t 2147484s` sends
// "2147484S") the delay wraps and the call fails at once with DEADLINE_EXCEEDED. grpc-go decodes
// such a header as the longest duration it can hold; we rewrite it, on every incoming stream and
// before grpc-js reads it, to the longest timeout its timer holds.
import type { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http2';
import type * as grpc from '@grpc/grpc-js';
import { MAX_RPC_TIMEOUT_MS } from '../util/timer-delay.js';

/** Milliseconds per grpc-timeout unit. */
export const UNIT_MS: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/** MAX_RPC_TIMEOUT_MS as a header: 8 digits at most, as the gRPC spec (and grpc-js's parser) wants. */
const MAX_HEADER = `${MAX_RPC_TIMEOUT_MS / 1000}S`;

/** A grpc-timeout header value whose timeout a Node timer can hold; other values are returned as they are. */
export function clampTimeoutHeader(value: string): string {
  const match = /^\s*(\d+)\s*([HMSmun])\s*$/.exec(value);
  if (!match) return value; // grpc-js answers a malformed one itself
  return Number(match[1]) * UNIT_MS[match[2]!]! > MAX_RPC_TIMEOUT_MS ? MAX_HEADER : value;
}

/** Rewrites out-of-range grpc-timeout headers on `http2Server`'s streams before any other listener sees them. */
export function clampIncomingDeadlines(http2Server: EventEmitter): void {
  http2Server.prependListener('stream', (_stream: unknown, headers: IncomingHttpHeaders) => {
    const value = headers['grpc-timeout'];
    if (typeof value === 'string') headers['grpc-timeout'] = clampTimeoutHeader(value);
  });
}

/**
 * `server.createConnectionInjector(credentials)`, with incoming deadlines clamped. grpc-js keeps
 * the HTTP/2 server it makes for an injector in a private map (`http2Servers`); the version is
 * pinned, and a layout change fails the daemon's start here rather than letting deadlines misfire.
 * `wrap`, if given, is handed that HTTP/2 server before the clamp goes in, so the clamp's listener
 * runs before any listener `wrap` installs (the unary fast path's dispatcher).
 */
export function createClampedInjector(
  server: grpc.Server, credentials: grpc.ServerCredentials, wrap?: (http2Server: EventEmitter) => void,
): grpc.ConnectionInjector {
  const servers = (server as unknown as { http2Servers?: unknown }).http2Servers;
  if (!(servers instanceof Map)) throw new Error('grpc-js changed: Server.http2Servers is gone (needed to clamp RPC deadlines)');
  const before = new Set(servers.keys());
  const injector = server.createConnectionInjector(credentials);
  const made = [...servers.keys()].filter((s) => !before.has(s));
  if (made.length !== 1 || typeof (made[0] as EventEmitter).prependListener !== 'function') {
    injector.destroy();
    throw new Error('grpc-js changed: no HTTP/2 server found for the connection injector (needed to clamp RPC deadlines)');
  }
  try {
    wrap?.(made[0] as EventEmitter);
  } catch (err) {
    injector.destroy();
    throw err;
  }
  clampIncomingDeadlines(made[0] as EventEmitter);
  return injector;
}
