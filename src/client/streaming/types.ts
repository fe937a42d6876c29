import type { TerminalSize } from '../../protocols/remotecommand/index.js';

export type StreamingTransport = 'auto' | 'websocket' | 'spdy';

export interface RemoteCommandOptions {
  /** Sent to the remote process; give it exactly when the Exec/Attach request had stdin. */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /** Ignored with a TTY: the terminal merges stderr into stdout. */
  stderr?: NodeJS.WritableStream;
  tty: boolean;
  resize?: AsyncIterable<TerminalSize>;
  transport?: StreamingTransport;
  /** Skip TLS verification for https streaming URLs (default true, as crictl). */
  tlsInsecure?: boolean;
  /** How long to wait for the upgrade and for stream replies (ms). */
  timeoutMs?: number;
}

export interface RemoteCommandResult {
  exitCode: number;
  /** The transport the session ran over. */
  transport: 'spdy' | 'websocket';
}
