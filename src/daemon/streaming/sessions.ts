// One streaming connection once server.ts took its token: a WebSocket upgrade (through ws) or
// SPDY/3.1, then exec, attach or port-forward over the protocol the client chose. Loaded with
// the first upgrade (server.ts), with everything these protocols need.
import type http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { channelProtocol, REMOTECOMMAND_WS_PROTOCOLS } from '../../protocols/k8s-channel/index.js';
import {
  acceptSpdyUpgrade, PORTFORWARD_PROTOCOL, PORTFORWARD_WS_PROTOCOLS, SPDY_REMOTECOMMAND_PROTOCOLS,
} from '../../protocols/remotecommand/index.js';
import type { StreamIO } from '../../client/backend.js';
import { MAX_WEBSOCKET_MESSAGE_BYTES, STREAM_IDLE_TIMEOUT_MS } from '../limits.js';
import { runCommand, type CommandRequest } from './command-session.js';
import { EarlySession } from './early-session.js';
import { servePortForwardSpdy, servePortForwardWebSocket } from './port-forward.js';
import { serveCommandSpdy, STREAM_CREATION_TIMEOUT_MS } from './spdy-command.js';
import { streamOptions, type StreamingServerOptions, type StreamRequest } from './types.js';
import { serveCommandWebSocket } from './ws-command.js';

/** Every WebSocket subprotocol we serve, best first (the client's order decides). */
const WS_PROTOCOLS = new Set<string>([...REMOTECOMMAND_WS_PROTOCOLS, ...PORTFORWARD_WS_PROTOCOLS]);

export class Sessions {
  private readonly wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES,
    // The client's order decides, as in kubelet's wsstream handshake.
    handleProtocols: (offered) => [...offered].find((p) => WS_PROTOCOLS.has(p)) ?? false,
  });

  constructor(private readonly opts: StreamingServerOptions) {}

  close(): void {
    this.wss.close();
  }

  serve(req: http.IncomingMessage, socket: Socket, head: Buffer, request: StreamRequest, url: URL): void {
    const { kind } = request;
    this.opts.log?.debug('streaming session', { kind, transport: isWebSocket(req) ? 'websocket' : 'spdy' });
    const sessionDone = (p: Promise<void>): void => {
      p.then(() => releaseSocket(socket, this.opts.lingerMs ?? SOCKET_LINGER_MS), (err: unknown) => {
        this.opts.log?.warn('streaming session failed', { kind, error: err });
        socket.destroy();
      }).finally(() => {
        // A session that ended (or failed) before handing its streams over runs nothing.
        if (request.kind === 'exec') request.early?.abandon('the streaming session ended before its streams opened');
      });
    };
    // Time spent waiting on the peer is bounded for the session's whole life: no byte either way
    // for this long (a client gone without a FIN, or one that stopped reading) closes it, which
    // ends the work it started. Set once upgraded: ws clears a socket's timeout when it takes it.
    const boundIdle = (): void => {
      socket.setTimeout(this.opts.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS, () => socket.destroy());
    };
    if (isWebSocket(req)) {
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        boundIdle();
        sessionDone(this.serveWebSocket(ws, request, url));
      });
      return;
    }
    const isPortForward = request.kind === 'portforward';
    const accepted = acceptSpdyUpgrade(req, socket, head, isPortForward ? [PORTFORWARD_PROTOCOL] : SPDY_REMOTECOMMAND_PROTOCOLS);
    if (!accepted) {
      if (request.kind === 'exec') request.early?.abandon('the SPDY upgrade was refused');
      return;
    }
    socket.setNoDelay(true);
    boundIdle();
    const { connection, protocol } = accepted;
    connection.on('error', () => {});
    if (request.kind === 'portforward') {
      const pod = request.req.podSandboxId ?? '';
      sessionDone(servePortForwardSpdy(connection, pod, (port) => this.opts.runtime.portForward(pod, port),
        this.opts.streamCreationTimeoutMs ?? STREAM_CREATION_TIMEOUT_MS));
      return;
    }
    const run = (io: StreamIO) => runCommand(this.opts.runtime, request, io);
    // A TTY exec not started with its URL starts now, while the client opens its streams.
    const early = request.kind === 'exec' ? (request.early ?? (request.req.tty ? new EarlySession(true, run) : undefined)) : undefined;
    if (request.kind === 'exec') request.early = early;
    sessionDone(serveCommandSpdy(connection, protocol, streamOptions(request.req), run,
      this.opts.streamCreationTimeoutMs ?? STREAM_CREATION_TIMEOUT_MS, early));
  }

  private async serveWebSocket(ws: WebSocket, request: StreamRequest, url: URL): Promise<void> {
    const proto = channelProtocol(ws.protocol);
    if (!proto) {
      ws.close(1002, 'unsupported subprotocol');
      return;
    }
    if (request.kind === 'portforward') {
      const pod = request.req.podSandboxId ?? '';
      const ports = request.req.port?.length ? request.req.port.map(Number) : url.searchParams.getAll('port').map(Number);
      if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
        ws.close(1008, 'port-forward needs valid ports');
        return;
      }
      await servePortForwardWebSocket(ws, proto, ports, pod, (port) => this.opts.runtime.portForward(pod, port));
      return;
    }
    const early = request.kind === 'exec' ? request.early : undefined;
    await serveCommandWebSocket(ws, proto, streamOptions(request.req), (io) => early?.open(io) ?? runCommand(this.opts.runtime, request as CommandRequest, io));
  }
}

/** A finished session's socket waits this long, after our last byte went out, for the client to close it. */
export const SOCKET_LINGER_MS = 30_000;

/**
 * Ends a finished session's socket without dropping what is still queued for a client that reads
 * slowly: destroying it at once would discard the output not yet written (and a close with
 * unread input would reset the connection). The client closes once it has read everything; one
 * that does not is dropped `lingerMs` after the last byte went out.
 */
function releaseSocket(socket: Duplex, lingerMs: number): void {
  if (socket.destroyed) return;
  let timer: NodeJS.Timeout | undefined;
  const linger = (): void => {
    timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
  };
  socket.once('close', () => clearTimeout(timer));
  if (socket.writableFinished) linger();
  else socket.once('finish', linger);
  // Keep reading so the client's last frames (and its FIN) are taken, not left to reset the connection.
  socket.resume();
  if (!socket.writableEnded) socket.end();
}

function isWebSocket(req: http.IncomingMessage): boolean {
  return String(req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}
