// Serves GET /metrics over plain HTTP on `metrics-address` (host:port), as
// containerd's `metrics.address` does. Bounded like every other listener: a few
// connections at once, short header and request timeouts, no request bodies.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { splitHostPort } from '../../runtime/config/daemon-config.js';
import type { Logger } from '../logger.js';
import type { DaemonMetrics } from './daemon-metrics.js';

/** Scrapers are few (Prometheus, an agent, an operator's curl). */
export const MAX_METRICS_CONNECTIONS = 16;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9090/metrics */
  readonly url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(address: string, metrics: DaemonMetrics, log: Logger): Promise<MetricsServer> {
  const where = splitHostPort(address);
  if (!where) throw new Error(`metrics-address: expected host:port, got "${address}"`);
  const server = http.createServer((req, res) => {
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
  server.maxConnections = MAX_METRICS_CONNECTIONS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
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
