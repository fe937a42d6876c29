// Serves GET /metrics over plain HTTP on `metrics-address` (host:port), as
// containerd's `metrics.address` does. Bounded like every other listener: a few
// connections at once, short header and request timeouts, no request bodies.
// A connection past the cap takes the place of the oldest one that has no request
// in progress (opened and silent, half-sent headers, idle keep-alive), so
// half-open connections cannot keep a scraper out; with none to take, it is closed.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { splitHostPort } from '../../runtime/config/daemon-config.js';
import type { Logger } from '../logger.js';
import type { DaemonMetrics } from './daemon-metrics.js';

/** Scrapers are few (Prometheus, an agent, an operator's curl). */
export const MAX_METRICS_CONNECTIONS = 16;
/** A connection must send its whole request head within this (Node checks every CHECK_INTERVAL_MS). */
export const METRICS_HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
const CHECK_INTERVAL_MS = 1_000;
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9090/metrics */
  readonly url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(address: string, metrics: DaemonMetrics, log: Logger): Promise<MetricsServer> {
  const where = splitHostPort(address);
  if (!where) throw new Error(`metrics-address: expected host:port, got "${address}"`);
  // Node's default check interval is 30 s: a head timeout would then hold a place up to 35 s.
  const server = http.createServer({ connectionsCheckingInterval: CHECK_INTERVAL_MS }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found: the metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
      return;
    }
    metrics.render().then(
      (body) => res.writeHead(200, { 'Content-Type': CONTENT_TYPE, 'Content-Length': Buffer.byteLength(body) }).end(req.method === 'HEAD' ? undefined : body),
      (err: unknown) => {
        log.warn('metrics scrape failed', { error: err });
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  limitConnections(server, MAX_METRICS_CONNECTIONS);
  server.headersTimeout = METRICS_HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = 5_000;
  // A peer's socket error ends that connection only.
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log.warn('metrics server error', { error: err }));
  const info = server.address() as AddressInfo;
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  return {
    url: `http://${host}:${info.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * At most `max` connections; one more closes the oldest connection without a request in progress
 * (never answered one, or idle between two), or itself when every connection has one.
 */
function limitConnections(server: http.Server, max: number): void {
  let open = 0;
  // Insertion order is age: a connection goes back to the end when it finishes a request.
  const waiting = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      const oldest = waiting.values().next().value as Socket | undefined;
      if (!oldest) {
        socket.destroy();
        return;
      }
      waiting.delete(oldest);
      oldest.destroy();
    }
    open++;
    waiting.add(socket);
    socket.once('close', () => {
      open--;
      waiting.delete(socket);
    });
  });
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    waiting.delete(socket);
    res.once('finish', () => {
      if (!socket.destroyed) waiting.add(socket);
    });
  });
}
