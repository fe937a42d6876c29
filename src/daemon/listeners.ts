// Where clients connect. The daemon accepts connections itself. A unix connection goes to the
// hand-framed HTTP/2 transport (h2/transport.ts) when the daemon has one; otherwise, and for TCP,
// it is handed to grpc-js through a connection injector: as it is, or through
// AuthorityFixStream when their client sends the socket path as `:authority` (see
// routeUnixConnection in authority-fix.ts). With `ConnectionBounds` (the daemon's), a
// connection past the cap is refused, and one that sends no request within the handshake
// timeout is closed before grpc-js ever sees it.
// A unix socket is bound under a temporary name and renamed into place once
// it listens, so its path appears only when the daemon can answer.
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import type { ConnectionInjector } from '@grpc/grpc-js';
import { socketAnswers } from '../client/resolve.js';
import { failedPrecondition } from '../runtime/errors.js';
import { routeUnixConnection } from './authority-fix.js';
import type { ConnectionLimit } from './connection-limit.js';
import type { H2Transport } from './h2/transport.js';
import type { Logger } from './logger.js';

/** What every accepted connection is held to (limits.ts). */
export interface ConnectionBounds {
  limit: ConnectionLimit;
  /** Time to send the HTTP/2 preface and the first request. */
  handshakeTimeoutMs: number;
}

export interface Listener {
  /** `unix:///path` or `tcp://host:port` (the real port when 0 was asked). */
  readonly endpoint: string;
  /** Stops accepting and removes the socket file; open connections stay. */
  close(): Promise<void>;
}

/** Stops accepting at once; connections already made are the gRPC server's to drain. */
function stopAccepting(server: Server): void {
  server.close();
}

/**
 * Takes one accepted connection: counts it against the cap, then serves it on `transport` (which
 * keeps the handshake timeout itself) or routes it to grpc-js by its first request.
 */
function acceptor(injector: ConnectionInjector, log: Logger, bounds?: ConnectionBounds, transport?: H2Transport): (socket: Socket) => void {
  return (socket) => {
    if (bounds && !bounds.limit.admit(socket)) return;
    if (transport) return transport.accept(socket);
    routeUnixConnection(socket, {
      direct: (s) => injector.injectConnection(s),
      rewritten: (stream) => {
        stream.on('error', () => undefined);
        injector.injectConnection(stream);
      },
      error: (err) => log.warn('dropping connection: malformed HTTP/2 request headers', { error: err.message }),
      timedOut: () => log.debug('dropping connection: no request within the handshake timeout', { timeoutMs: bounds?.handshakeTimeoutMs }),
    }, bounds?.handshakeTimeoutMs);
  };
}

export async function listenUnix(
  path: string, injector: ConnectionInjector, log: Logger, bounds?: ConnectionBounds, mode = 0o660, transport?: H2Transport,
): Promise<Listener> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o755 });
  if (await socketAnswers(path)) throw failedPrecondition(`${path} is already served by another process`);
  await rm(path, { force: true });
  // Temp name in the same directory (rename(2) stays on one filesystem), short for the 108-byte
  // limit; when even that does not fit, bind the final path directly.
  let temp = join(dir, `.i${process.pid.toString(36)}${Math.random().toString(36).slice(2, 6)}`);
  if (Buffer.byteLength(temp) >= 108) temp = path;
  const server = createServer({ pauseOnConnect: false });
  server.on('connection', acceptor(injector, log, bounds, transport));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(temp, () => {
      server.off('error', reject);
      resolve();
    });
  });
  try {
    await chmod(temp, mode);
    if (temp !== path) await rename(temp, path);
  } catch (err) {
    stopAccepting(server);
    await rm(temp, { force: true });
    throw err;
  }
  server.on('error', (err) => log.error('unix listener error', { socket: path, error: err }));
  return {
    endpoint: `unix://${path}`,
    async close() {
      stopAccepting(server);
      await rm(path, { force: true });
    },
  };
}

export async function listenTcp(hostPort: string, injector: ConnectionInjector, log: Logger, bounds?: ConnectionBounds): Promise<Listener> {
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(hostPort);
  if (!m) throw new Error(`bad tcp address ${hostPort}`);
  const host = m[1].replace(/^\[|\]$/g, '');
  // Bounded: routed as unix connections are (a TCP client's authority is valid, so it goes direct).
  const server = createServer(bounds ? acceptor(injector, log, bounds) : (socket) => injector.injectConnection(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(m[2]), host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log.error('tcp listener error', { address: hostPort, error: err }));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : Number(m[2]);
  return {
    endpoint: `tcp://${m[1]}:${port}`,
    async close() {
      stopAccepting(server);
    },
  };
}
