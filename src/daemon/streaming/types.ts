// What the streaming server needs from the runtime behind it, and what it
// remembers per token. The requests are the ones the CRI Exec/Attach/
// PortForward call carried (IDs already resolved to full IDs).
import type { Duplex } from 'node:stream';
import type * as cri from '../../api/cri.js';
import type { StreamIO } from '../../client/backend.js';
import type { Logger } from '../logger.js';
import type { EarlySession } from './early-session.js';

export interface StreamingRuntime {
  /** Runs the exec session; resolves with the process's exit code. */
  exec(req: cri.ExecRequestIn, io: StreamIO): Promise<number>;
  /** Attaches until the container exits or the client leaves; resolves with the exit code. */
  attach(req: cri.AttachRequestIn, io: StreamIO): Promise<number>;
  /** A connection to `port` in the pod's network namespace. */
  portForward(podSandboxId: string, port: number): Promise<Duplex>;
}

export type StreamRequest =
  /** `early`: the session, started when the URL was handed out (a TTY exec). */
  | { kind: 'exec'; req: cri.ExecRequestIn; early?: EarlySession }
  | { kind: 'attach'; req: cri.AttachRequestIn }
  | { kind: 'portforward'; req: cri.PortForwardRequestIn };

export type StreamKind = StreamRequest['kind'];

/** Which streams a remote command session carries (from the cached request). */
export interface StreamOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

export function streamOptions(req: cri.ExecRequestIn | cri.AttachRequestIn): StreamOptions {
  const tty = !!req.tty;
  // With a TTY the terminal merges stderr into stdout.
  return { stdin: !!req.stdin, stdout: !!req.stdout, stderr: !!req.stderr && !tty, tty };
}

export interface StreamingServerOptions {
  runtime: StreamingRuntime;
  /** Default 127.0.0.1: the URLs are for clients on this node (kubelet, crictl). */
  address?: string;
  /** Default 10350; 0 picks a free port. */
  port?: number;
  tokenTtlMs?: number;
  maxInFlight?: number;
  streamCreationTimeoutMs?: number;
  /** Sessions of one container (or pod) starting at once (default 2; see start-gate.ts). */
  maxStarting?: number;
  /** How long a finished session's socket waits for the client to close it (default 30 s). */
  lingerMs?: number;
  /** Connections open at once; more are answered 503 (default: limits.ts). */
  maxConnections?: number;
  /** An upgraded session without a byte read or written for this long is closed (default: limits.ts, kubelet's 4 h). */
  idleTimeoutMs?: number;
  log?: Logger;
}
