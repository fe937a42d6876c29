// The HTTP/1.1 upgrade to SPDY/3.1 as kubectl and crictl do it: Connection:
// Upgrade, Upgrade: SPDY/3.1 and one X-Stream-Protocol-Version per offered
// protocol; the server answers 101 naming the protocol it chose.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { SpdyConnection } from '../../protocols/spdy/index.js';
import { HEADER_PROTOCOL_VERSION, SPDY_UPGRADE } from '../../protocols/remotecommand/index.js';
import { StreamingError, UpgradeRefusedError } from './errors.js';

export interface SpdyUpgradeOptions {
  method?: 'GET' | 'POST';
  timeoutMs?: number;
  /** Skip TLS verification of https streaming URLs (crictl does; the URL comes from the trusted CRI). */
  tlsInsecure?: boolean;
  pingIntervalMs?: number;
}

export interface SpdyUpgradeResult {
  connection: SpdyConnection;
  /** The negotiated protocol, or '' when the server named none. */
  protocol: string;
}

export function upgradeToSpdy(url: string, protocols: readonly string[], opts: SpdyUpgradeOptions = {}): Promise<SpdyUpgradeResult> {
  const target = new URL(url);
  const isTls = target.protocol === 'https:';
  if (!isTls && target.protocol !== 'http:') return Promise.reject(new StreamingError(`unsupported streaming URL scheme ${target.protocol}`));
  const request = (isTls ? https : http).request;
  return new Promise((resolve, reject) => {
    const req = request(target, {
      method: opts.method ?? 'POST',
      headers: {
        Connection: 'Upgrade',
        Upgrade: SPDY_UPGRADE,
        [HEADER_PROTOCOL_VERSION]: [...protocols],
        'Content-Length': '0',
      },
      ...(isTls ? { rejectUnauthorized: !(opts.tlsInsecure ?? true) } : {}),
      timeout: opts.timeoutMs ?? 30_000,
    });
    req.on('timeout', () => req.destroy(new StreamingError(`SPDY upgrade to ${target.host} timed out`)));
    req.on('error', (err) => reject(err instanceof StreamingError ? err : new StreamingError(`SPDY upgrade to ${target.host} failed: ${err.message}`, { cause: err })));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => { if (chunks.length < 64) chunks.push(c); });
      res.on('end', () => reject(new UpgradeRefusedError('spdy', res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('upgrade', (res, socket: Socket, head: Buffer) => {
      if (String(res.headers.upgrade ?? '').toLowerCase() !== SPDY_UPGRADE.toLowerCase()) {
        socket.destroy();
        reject(new StreamingError(`server upgraded to ${String(res.headers.upgrade)} instead of ${SPDY_UPGRADE}`));
        return;
      }
      socket.setTimeout(0);
      socket.setNoDelay(true);
      // Bytes that arrived with the 101 response belong to the SPDY session: put them back first.
      if (head.length > 0) socket.unshift(head);
      const connection = new SpdyConnection(socket, { role: 'client', pingIntervalMs: opts.pingIntervalMs });
      const chosen = res.headers[HEADER_PROTOCOL_VERSION.toLowerCase()];
      resolve({ connection, protocol: Array.isArray(chosen) ? (chosen[0] ?? '') : (chosen ?? '') });
    });
    req.end();
  });
}
