// Server side of the stream protocol negotiation (apimachinery httpstream
// Handshake): the client lists X-Stream-Protocol-Version values, the server
// takes the first one it supports in the client's order, or answers 403 with
// X-Accepted-Stream-Protocol-Versions.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { SpdyConnection } from '../spdy/index.js';
import { HEADER_PROTOCOL_VERSION, SPDY_UPGRADE } from './constants.js';

export const HEADER_ACCEPTED_PROTOCOL_VERSIONS = 'X-Accepted-Stream-Protocol-Versions';

export type NegotiationResult =
  | { ok: true; protocol: string }
  | { ok: false; statusCode: 400 | 403; message: string };

/** Values of a header that may repeat and may hold comma-separated lists. */
export function headerValues(raw: string | string[] | undefined): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v.length > 0);
}

export function negotiateStreamProtocol(clientProtocols: readonly string[], serverProtocols: readonly string[]): NegotiationResult {
  if (clientProtocols.length === 0) {
    return { ok: false, statusCode: 400, message: `unable to upgrade: ${HEADER_PROTOCOL_VERSION} is required` };
  }
  const protocol = clientProtocols.find((p) => serverProtocols.includes(p));
  if (protocol === undefined) {
    return {
      ok: false,
      statusCode: 403,
      message: `unable to upgrade: unable to negotiate protocol: client supports [${clientProtocols.join(' ')}], server accepts [${serverProtocols.join(' ')}]`,
    };
  }
  return { ok: true, protocol };
}

/**
 * Completes an HTTP upgrade to SPDY/3.1 on a socket handed to an http.Server
 * 'upgrade' listener. On failure it answers with the HTTP error itself and
 * returns undefined.
 */
export function acceptSpdyUpgrade(
  req: IncomingMessage, socket: Duplex, head: Buffer, serverProtocols: readonly string[],
): { connection: SpdyConnection; protocol: string } | undefined {
  const reply = (status: string, headers: string[], body: string): void => {
    socket.end([`HTTP/1.1 ${status}`, ...headers, 'Content-Type: text/plain; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n'));
  };
  if (String(req.headers.upgrade ?? '').toLowerCase() !== SPDY_UPGRADE.toLowerCase()) {
    reply('400 Bad Request', [], `unable to upgrade: expected Upgrade: ${SPDY_UPGRADE}\n`);
    return undefined;
  }
  const result = negotiateStreamProtocol(headerValues(req.headersDistinct[HEADER_PROTOCOL_VERSION.toLowerCase()]), serverProtocols);
  if (!result.ok) {
    const accepted = result.statusCode === 403 ? serverProtocols.map((p) => `${HEADER_ACCEPTED_PROTOCOL_VERSIONS}: ${p}`) : [];
    reply(result.statusCode === 403 ? '403 Forbidden' : '400 Bad Request', accepted, `${result.message}\n`);
    return undefined;
  }
  socket.write([
    'HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', `Upgrade: ${SPDY_UPGRADE}`, `${HEADER_PROTOCOL_VERSION}: ${result.protocol}`, '', '',
  ].join('\r\n'));
  if (head.length > 0) socket.unshift(head);
  return { connection: new SpdyConnection(socket, { role: 'server' }), protocol: result.protocol };
}
