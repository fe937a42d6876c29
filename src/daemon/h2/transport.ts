// The daemon's hand-framed HTTP/2 transport for unix connections: each accepted socket becomes
// an H2Connection; a unary CRI call is answered on its stream (grpc-unary.ts), every other stream
// relayed to grpc-js (grpc-relay.ts). Stop: GOAWAY on every connection, which ends once its
// streams have; destroy() drops what is left after the grace.
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { UnaryMethod } from '../cri-server.js';
import type { Logger } from '../logger.js';
import { H2Connection, type H2Limits } from './connection.js';
import { GrpcJsRelay } from './grpc-relay.js';
import { serveUnaryOnStream, unaryMethodFor } from './grpc-unary.js';

export interface H2TransportOptions {
  methods: ReadonlyMap<string, UnaryMethod>;
  /** Hands a connection to grpc-js (its connection injector): the relay's server end. */
  inject: (socket: Duplex) => void;
  limits: H2Limits;
  log: Logger;
}

export interface H2Transport {
  /** Serves an accepted connection until it closes. */
  accept(socket: Socket): void;
  /** Unary calls answered by the transport itself. */
  served(): number;
  /** Connections open now. */
  connections(): number;
  /** GOAWAY everywhere; settles once every connection has closed. */
  shutdown(): Promise<void>;
  /** Closes every connection now. */
  destroy(): void;
}

export function createH2Transport(opts: H2TransportOptions): H2Transport {
  const { methods, log } = opts;
  const open = new Set<H2Connection>();
  let served = 0;
  let stopping = false;
  let allClosed: (() => void) | undefined;
  return {
    accept(socket) {
      if (stopping) {
        socket.destroy();
        return;
      }
      const relay = new GrpcJsRelay(opts.inject);
      const conn = new H2Connection(socket, opts.limits, {
        onStream(stream) {
          const method = unaryMethodFor(methods, stream);
          if (!method) return relay.relay(stream);
          served++;
          try {
            serveUnaryOnStream(stream, method, log);
          } catch (err) {
            // A bug here must not take the daemon down; the client sees the call fail.
            log.error('unary call on the HTTP/2 transport failed', { path: method.path, error: err instanceof Error ? err.message : String(err) });
            stream.reset(0x2 /* INTERNAL_ERROR */);
          }
        },
        onError(err) {
          log.warn('closing connection: HTTP/2 protocol error', { code: err.code, error: err.message });
        },
        onTimeout(what) {
          log.debug(`closing connection: ${what} timeout`, {});
        },
        onClose() {
          relay.close();
          open.delete(conn);
          if (open.size === 0) allClosed?.();
        },
      });
      open.add(conn);
    },
    served: () => served,
    connections: () => open.size,
    shutdown() {
      stopping = true;
      if (open.size === 0) return Promise.resolve();
      const done = new Promise<void>((resolve) => (allClosed = resolve));
      for (const c of open) c.shutdown();
      return done;
    },
    destroy() {
      stopping = true;
      for (const c of [...open]) c.destroy();
    },
  };
}
