// Every bound the daemon puts on what a client can hold: connections, sizes, time spent waiting
// on a peer. Each value matches the runtime kubelet already talks to where one has it
// (containerd's CRI server on grpc-go, kubelet's streaming server); docs/architecture.md
// ("Limits") has the table with the references. The environment can change the time and count
// bounds (tests shorten them; a node may need more connections); sizes are fixed.
import type { H2Limits } from './h2/connection.js';

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

/**
 * The hand-framed HTTP/2 transport's bounds (src/daemon/h2/connection.ts), each a peer could
 * otherwise grow without end. Streams open at once: golang.org/x/net/http2's server default
 * (defaultMaxStreams), advertised as SETTINGS_MAX_CONCURRENT_STREAMS; past it REFUSED_STREAM.
 */
export const H2_MAX_CONCURRENT_STREAMS = 250;
/** One request header block, encoded (HEADERS + CONTINUATION) and decoded (SETTINGS_MAX_HEADER_LIST_SIZE): node:http2's default maxHeaderListSize, what grpc-js accepted. */
export const H2_MAX_HEADER_LIST_BYTES = 65_535;
/** Stream resets by the peer (rapid reset, CVE-2023-44487): nghttp2 1.57's token bucket, 1000 at once, 33 a second after. */
export const H2_RESET_BURST = 1000;
export const H2_RESETS_PER_SECOND = 33;
/** Output a peer leaves unread (PING and SETTINGS floods answered into a shut socket): nghttp2 caps 1000 queued ACKs; we cap their bytes. */
export const H2_MAX_QUEUED_OUTPUT_BYTES = 1 << 20;
/** Answer DATA held for streams whose window the peer keeps shut: ours, two of the largest messages (grpc-go holds each unsent message too, unbounded in count). */
export const H2_MAX_QUEUED_DATA_BYTES = 32 << 20;
/** Settings in one SETTINGS frame: nghttp2's NGHTTP2_DEFAULT_MAX_SETTINGS. */
export const H2_MAX_SETTINGS_ENTRIES = 32;

export interface DaemonLimits {
  grpcHandshakeTimeoutMs: number;
  grpcIdleTimeoutMs: number;
  grpcKeepaliveTimeMs: number;
  grpcKeepaliveTimeoutMs: number;
  maxGrpcConnections: number;
  maxStreamingConnections: number;
  streamIdleTimeoutMs: number;
  h2MaxConcurrentStreams: number;
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
  h2MaxConcurrentStreams: 'ISULATS_H2_MAX_CONCURRENT_STREAMS',
};

export const DEFAULT_LIMITS: Readonly<DaemonLimits> = Object.freeze({
  grpcHandshakeTimeoutMs: GRPC_HANDSHAKE_TIMEOUT_MS,
  grpcIdleTimeoutMs: GRPC_IDLE_TIMEOUT_MS,
  grpcKeepaliveTimeMs: GRPC_KEEPALIVE_TIME_MS,
  grpcKeepaliveTimeoutMs: GRPC_KEEPALIVE_TIMEOUT_MS,
  maxGrpcConnections: MAX_GRPC_CONNECTIONS,
  maxStreamingConnections: MAX_STREAMING_CONNECTIONS,
  streamIdleTimeoutMs: STREAM_IDLE_TIMEOUT_MS,
  h2MaxConcurrentStreams: H2_MAX_CONCURRENT_STREAMS,
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

/** The hand-framed transport's bounds under `limits` (its time bounds are the gRPC connection's). */
export function h2Limits(limits: DaemonLimits): H2Limits {
  return {
    maxConcurrentStreams: limits.h2MaxConcurrentStreams,
    maxHeaderBlockBytes: H2_MAX_HEADER_LIST_BYTES,
    maxHeaderListBytes: H2_MAX_HEADER_LIST_BYTES,
    resetBurst: H2_RESET_BURST,
    resetsPerSecond: H2_RESETS_PER_SECOND,
    maxQueuedOutputBytes: H2_MAX_QUEUED_OUTPUT_BYTES,
    maxQueuedDataBytes: H2_MAX_QUEUED_DATA_BYTES,
    maxSettingsEntries: H2_MAX_SETTINGS_ENTRIES,
    handshakeTimeoutMs: limits.grpcHandshakeTimeoutMs,
    idleTimeoutMs: limits.grpcIdleTimeoutMs,
    keepaliveTimeMs: limits.grpcKeepaliveTimeMs,
    keepaliveTimeoutMs: limits.grpcKeepaliveTimeoutMs,
  };
}
