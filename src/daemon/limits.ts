// Every bound the daemon puts on what a client can hold: connections, sizes, time spent waiting
// on a peer. Each value matches the runtime kubelet already talks to where one has it
// (containerd's CRI server on grpc-go, kubelet's streaming server); docs/architecture.md
// ("Limits") has the table with the references. The environment can change the time and count
// bounds (tests shorten them; a node may need more connections); sizes are fixed.

/** grpc-go's default ConnectionTimeout (containerd sets none): a connection must finish its HTTP/2 handshake in this time. */
export const GRPC_HANDSHAKE_TIMEOUT_MS = 120_000;
/** A connection without a call for this long is closed with GOAWAY (clients reconnect at their next call). */
export const GRPC_IDLE_TIMEOUT_MS = 3_600_000;
/** grpc-go's server keepalive defaults (containerd keeps them): a PING after 2 h without frames, 20 s for its answer. */
export const GRPC_KEEPALIVE_TIME_MS = 7_200_000;
export const GRPC_KEEPALIVE_TIMEOUT_MS = 20_000;
/** gRPC connections open at once (unix and TCP together); more are refused with GOAWAY ENHANCE_YOUR_CALM. */
export const MAX_GRPC_CONNECTIONS = 1024;
/** Streaming server connections open at once; more are answered 503. */
export const MAX_STREAMING_CONNECTIONS = 1024;
/** kubelet's StreamIdleTimeout default (containerd's stream_idle_timeout): a session without a byte either way for this long is closed. */
export const STREAM_IDLE_TIMEOUT_MS = 4 * 3_600_000;

/**
 * The largest WebSocket message a streaming client may send: golang.org/x/net/websocket's
 * DefaultMaxPayloadBytes, which kubelet's wsstream keeps (ws's own default is 100 MiB). A larger
 * one closes that session with 1009 before its payload is buffered.
 */
export const MAX_WEBSOCKET_MESSAGE_BYTES = 32 << 20;

export interface DaemonLimits {
  grpcHandshakeTimeoutMs: number;
  grpcIdleTimeoutMs: number;
  grpcKeepaliveTimeMs: number;
  grpcKeepaliveTimeoutMs: number;
  maxGrpcConnections: number;
  maxStreamingConnections: number;
  streamIdleTimeoutMs: number;
}

/** The environment variable that overrides each bound, next to it. */
const VARIABLES: Record<keyof DaemonLimits, string> = {
  grpcHandshakeTimeoutMs: 'ISULATS_GRPC_HANDSHAKE_TIMEOUT_MS',
  grpcIdleTimeoutMs: 'ISULATS_GRPC_IDLE_TIMEOUT_MS',
  grpcKeepaliveTimeMs: 'ISULATS_GRPC_KEEPALIVE_TIME_MS',
  grpcKeepaliveTimeoutMs: 'ISULATS_GRPC_KEEPALIVE_TIMEOUT_MS',
  maxGrpcConnections: 'ISULATS_MAX_GRPC_CONNECTIONS',
  maxStreamingConnections: 'ISULATS_MAX_STREAMING_CONNECTIONS',
  streamIdleTimeoutMs: 'ISULATS_STREAM_IDLE_TIMEOUT_MS',
};

export const DEFAULT_LIMITS: Readonly<DaemonLimits> = Object.freeze({
  grpcHandshakeTimeoutMs: GRPC_HANDSHAKE_TIMEOUT_MS,
  grpcIdleTimeoutMs: GRPC_IDLE_TIMEOUT_MS,
  grpcKeepaliveTimeMs: GRPC_KEEPALIVE_TIME_MS,
  grpcKeepaliveTimeoutMs: GRPC_KEEPALIVE_TIMEOUT_MS,
  maxGrpcConnections: MAX_GRPC_CONNECTIONS,
  maxStreamingConnections: MAX_STREAMING_CONNECTIONS,
  streamIdleTimeoutMs: STREAM_IDLE_TIMEOUT_MS,
});

/** The defaults, each overridden by its variable when set; a value that is not a positive integer is an error naming it. */
export function daemonLimits(env: NodeJS.ProcessEnv = process.env): DaemonLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(VARIABLES) as Array<keyof DaemonLimits>) {
    const text = env[VARIABLES[key]];
    if (text === undefined || text === '') continue;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${VARIABLES[key]}=${text}: must be a positive integer`);
    out[key] = n;
  }
  return out;
}
