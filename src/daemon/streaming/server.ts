// The streaming server (kubelet's pkg/kubelet/cri/streaming): the CRI
// Exec/Attach/PortForward calls get a one-time URL from here,
// http://<address>:<port>/{exec,attach,portforward}/<token>, and the client
// then upgrades that URL to WebSocket or SPDY/3.1. A token works once and
// expires unused after a minute.
//
// This file listens and hands out URLs; the sessions (sessions.ts: WebSocket
// through ws, SPDY/3.1 and the remotecommand and port-forward protocols) load
// with the first upgrade: a node whose kubelet never execs never holds them.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type * as cri from '../../api/cri.js';
// status.js, not the index: this runs at GetExec, before any stream (the SPDY code loads with the first).
import { failureStatus } from '../../protocols/remotecommand/status.js';
import { runCommand } from './command-session.js';
import { EarlySession } from './early-session.js';
import { MAX_STREAMING_CONNECTIONS } from '../limits.js';
import type { Sessions } from './sessions.js';
import { KeyedStartGate } from './start-gate.js';
import { TokenCache, DEFAULT_TOKEN_TTL_MS, DEFAULT_MAX_IN_FLIGHT } from './token-cache.js';
import type { StreamingServerOptions, StreamKind, StreamRequest } from './types.js';

export type { StreamingServerOptions } from './types.js';

export const DEFAULT_STREAMING_ADDRESS = '127.0.0.1';
export const DEFAULT_STREAMING_PORT = 10350;

export class StreamingServer {
  private readonly cache: TokenCache<StreamRequest>;
  private readonly http: http.Server;
  private sessions?: Promise<Sessions>;
  private readonly sockets = new Set<Duplex>();
  private readonly gate: KeyedStartGate;
  private readonly prestarted = new Set<EarlySession>();
  private baseUrl = '';

  private constructor(private readonly opts: StreamingServerOptions) {
    this.gate = new KeyedStartGate(opts.maxStarting ?? MAX_STARTING, START_WINDOW_MS);
    this.cache = new TokenCache(opts.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS, opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.http = http.createServer((req, res) => {
      // Streaming URLs serve upgrades only.
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('streaming URLs need an upgrade to SPDY/3.1 or WebSocket\n');
    });
    this.http.on('upgrade', (req: http.IncomingMessage, socket: Socket, head: Buffer) => this.onUpgrade(req, socket, head));
    const max = opts.maxConnections ?? MAX_STREAMING_CONNECTIONS;
    this.http.on('connection', (socket: Socket) => {
      if (this.sockets.size >= max) {
        socket.on('error', () => undefined);
        refuse(socket, 503, `too many streaming connections (at most ${max} at once); try again later`);
        setTimeout(() => socket.destroy(), 1_000).unref();
        return;
      }
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  static async start(opts: StreamingServerOptions): Promise<StreamingServer> {
    const server = new StreamingServer(opts);
    const address = opts.address ?? DEFAULT_STREAMING_ADDRESS;
    await new Promise<void>((resolve, reject) => {
      server.http.once('error', reject);
      server.http.listen(opts.port ?? DEFAULT_STREAMING_PORT, address, () => {
        server.http.off('error', reject);
        resolve();
      });
    });
    const info = server.http.address() as AddressInfo;
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    server.baseUrl = `http://${host}:${info.port}`;
    return server;
  }

  /** e.g. http://127.0.0.1:10350 */
  get url(): string {
    return this.baseUrl;
  }

  /** Tokens handed out and not yet used or expired. */
  get pendingTokens(): number {
    return this.cache.size;
  }

  getExec(req: cri.ExecRequestIn): cri.ExecResponse {
    const request: StreamRequest = { kind: 'exec', req };
    const url = this.issue(request);
    // A TTY exec starts once this answer is out: its monitor boots while the client comes (see EarlySession).
    if (req.tty && this.prestarted.size < MAX_PRESTARTED) request.early = this.prestart(request);
    return { url };
  }

  getAttach(req: cri.AttachRequestIn): cri.AttachResponse {
    return { url: this.issue({ kind: 'attach', req }) };
  }

  getPortForward(req: cri.PortForwardRequestIn): cri.PortForwardResponse {
    return { url: this.issue({ kind: 'portforward', req }) };
  }

  /** Stops listening and drops every open session (the processes behind them keep running). */
  async close(): Promise<void> {
    this.cache.clear();
    for (const early of this.prestarted) early.abandon('the streaming server closed');
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    (await this.sessions)?.close();
    await closed;
  }

  private issue(request: StreamRequest): string {
    return `${this.baseUrl}/${request.kind}/${this.cache.insert(request)}`;
  }

  /**
   * Starts an exec session whose URL was just handed out; abandoned unless opened within the token's
   * life. Its start (the session's files and console socket, the monitor's spawn: milliseconds of
   * this thread) waits until the Exec answer is out, so the client is not kept waiting for it.
   */
  private prestart(request: Extract<StreamRequest, { kind: 'exec' }>): EarlySession {
    const early: EarlySession = new EarlySession(!!request.req.tty, (io) => afterAnswer().then(() => (early.abandoned
      ? failureStatus('the session was given up before it started') // e.g. the server closed meanwhile: nothing runs
      : runCommand(this.opts.runtime, request, io))));
    this.prestarted.add(early);
    const timer = setTimeout(() => early.abandon('the streaming URL was not used in time'), this.opts.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS);
    timer.unref();
    const settled = (): void => {
      clearTimeout(timer);
      this.prestarted.delete(early);
    };
    early.io.opened!.then(settled, settled);
    return early;
  }

  private onUpgrade(req: http.IncomingMessage, socket: Socket, head: Buffer): void {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'http://streaming');
    const match = /^\/(exec|attach|portforward)\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (!match) {
      refuse(socket, 404, 'not found');
      return;
    }
    const kind = match[1] as StreamKind;
    const request = this.cache.consume(match[2]!);
    if (!request || request.kind !== kind) {
      if (request?.kind === 'exec') request.early?.abandon(`its URL was used for ${kind}`);
      refuse(socket, 404, `token not found or expired: the ${kind} URL can be used once, within ${Math.round((this.opts.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS) / 1000)}s`);
      return;
    }
    // The token is taken at once (its lifetime ends when the client comes); the session then waits
    // its turn to start among its container's (its pod's, for a port-forward) sessions only.
    this.sessions ??= import('./sessions.js').then((m) => new m.Sessions(this.opts));
    void this.sessions.then((sessions) => this.gate.enter(startKey(request)).then((release) => {
      socket.once('close', release);
      if (socket.destroyed) {
        release();
        if (request.kind === 'exec') request.early?.abandon('the client left before its session started');
      } else sessions.serve(req, socket, head, request, url);
    }));
  }
}

/**
 * Resolves once a unary answer given now has gone out whole: grpc-js writes the message, and its
 * trailers (which end the call for the client) only from that write's callback, one turn of the
 * event loop later; each turn's writes go out before its immediates run.
 */
function afterAnswer(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** TTY exec sessions started with their URLs and not yet opened: more wait for their clients to start. */
const MAX_PRESTARTED = 4;

/** Sessions of one container (or pod) starting at once, and how long one counts as starting (unless it ended before). */
const MAX_STARTING = 2;
const START_WINDOW_MS = 1_000;

/** Whose turn a session waits for: its container's for exec and attach, its pod's for port-forward. */
function startKey(request: StreamRequest): string {
  return request.kind === 'portforward' ? `pod:${request.req.podSandboxId ?? ''}` : `container:${request.req.containerId ?? ''}`;
}

function refuse(socket: Duplex, code: number, message: string): void {
  const body = `${message}\n`;
  socket.end(`HTTP/1.1 ${code} ${http.STATUS_CODES[code]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
