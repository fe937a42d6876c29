// Does a CRI runtime answer on this endpoint? One CRI Version call over
// node:http2, written by hand: grpc-js costs tens of milliseconds to load, and
// a probe runs before every call that names no endpoint. VersionRequest with an
// empty version field encodes to zero bytes, so the body is only the 5-byte
// gRPC message prefix. Any status other than UNIMPLEMENTED means a gRPC server
// that has the service; UNIMPLEMENTED on v1 is tried again on v1alpha2.
import { existsSync } from 'node:fs';
import { socketPath } from './endpoint.js';

const EMPTY_MESSAGE = Buffer.alloc(5);
const UNIMPLEMENTED = 12;

export type ProbeResult = { ok: true } | { ok: false; reason: string };

/** Probes `endpoint` (unix:// or tcp://) within `timeoutMs`; a socket file with no listener fails at once. */
export async function probeCri(endpoint: string, timeoutMs: number): Promise<ProbeResult> {
  let path: string | undefined;
  try {
    path = socketPath(endpoint);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  if (path !== undefined && !existsSync(path)) return { ok: false, reason: 'no such socket' };
  const http2 = await import('node:http2');
  const net = await import('node:net');
  return new Promise<ProbeResult>((resolve) => {
    let settled = false;
    const authority = path === undefined ? `http://${endpoint.replace(/^tcp:\/\//, '')}` : 'http://localhost';
    const session = http2.connect(authority, path === undefined ? {} : { createConnection: () => net.connect(path!) });
    const timer = setTimeout(() => finish({ ok: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
    function finish(r: ProbeResult) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.destroy();
      resolve(r);
    }
    session.on('error', (err) => finish({ ok: false, reason: why(err) }));
    const call = (service: string, next?: () => void) => {
      const req = session.request({ ':method': 'POST', ':path': `/${service}/Version`, 'content-type': 'application/grpc', te: 'trailers' });
      let status: string | undefined;
      const note = (h: Record<string, unknown>) => {
        if (h['grpc-status'] !== undefined) status = String(h['grpc-status']);
      };
      req.on('response', note);
      req.on('trailers', note);
      req.on('data', () => undefined);
      req.on('error', (err) => finish({ ok: false, reason: why(err) }));
      req.on('close', () => {
        if (status === undefined) return finish({ ok: false, reason: 'not a gRPC server' });
        if (Number(status) === UNIMPLEMENTED && next) return next();
        if (Number(status) === UNIMPLEMENTED) return finish({ ok: false, reason: 'no CRI runtime service' });
        finish({ ok: true });
      });
      req.end(EMPTY_MESSAGE);
    };
    call('runtime.v1.RuntimeService', () => call('runtime.v1alpha2.RuntimeService'));
  });
}

/** Plain words for the usual connection failures (a stale socket file is ECONNREFUSED). */
export const STALE_SOCKET = 'nothing listens on it';

function why(err: Error & { code?: string; cause?: { code?: string } }): string {
  const code = err.code === 'ERR_HTTP2_STREAM_CANCEL' ? err.cause?.code : err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED') return STALE_SOCKET;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied (run as root, or as a member of the socket\'s group)';
  if (code === 'ENOENT') return 'no such socket';
  return err.message;
}
