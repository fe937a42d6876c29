// The daemon's lifecycle as named steps: lock, open the backend, build the
// gRPC server, listen (sockets appear only now), then serve until stop().
// Each step registers its undo at once, so a failure part way (or stop())
// releases exactly what was acquired, in reverse order. Stopping leaves
// containers running: the backend is closed, never told to stop anything.
import { join } from 'node:path';
import { cjs } from '../util/cjs.js';
import type { CriBackend } from '../client/backend.js';
import { LOG_LEVELS, type DaemonConfig } from '../runtime/config/daemon-config.js';
import { addCriServices, MAX_MESSAGE_BYTES } from './cri-server.js';
import { addAdminService } from './admin-service.js';
import { ConnectionLimit } from './connection-limit.js';
import { createClampedInjector } from './deadline-clamp.js';
import { installUnaryFastPath, type FastPath } from './unary-fast-path.js';
import { raiseEventLoop } from './event-loop-priority.js';
import { residentKb, startIdleTrim } from './idle-trim.js';
import { acquireInstanceLock } from './instance-lock.js';
import { daemonLimits, h2Limits, type DaemonLimits } from './limits.js';
import { createH2Transport, type H2Transport } from './h2/transport.js';
import { listenTcp, listenUnix, type ConnectionBounds, type Listener } from './listeners.js';
import { openLogFile } from './log-file.js';
import { createLogger, dropRefusedLines, stdoutWriter, type Logger } from './logger.js';
import { guardProcess } from './process-guard.js';
import { StreamingServer } from './streaming/server.js';
import { streamingRuntimeOf, withStreamingServer } from './streaming/streaming-backend.js';

export interface DaemonOptions {
  config: DaemonConfig;
  /** Makes the backend the daemon serves (the embedded engine, or a proxy to another runtime); its warnings belong in `log`. */
  backendFactory: (config: DaemonConfig, log: Logger) => Promise<CriBackend>;
  log?: Logger;
  /** How long in-flight calls may take to finish on stop (default 10 s). */
  shutdownGraceMs?: number;
  /**
   * Install SIGTERM/SIGINT (stop) and SIGHUP (reload) handlers, and log-and-survive handlers for
   * uncaught exceptions and unhandled rejections (process-guard.ts); the CLI does, tests do not.
   */
  handleSignals?: boolean;
  /** Connection, time and size bounds (default: limits.ts, with its environment overrides). */
  limits?: DaemonLimits;
  /** Streaming server settings beyond daemon.json (tests shorten the token lifetime). */
  streaming?: { tokenTtlMs?: number };
  /** Re-reads the configuration for SIGHUP; only what can change live is applied (the log level). */
  reloadConfig?: () => Promise<DaemonConfig>;
  /** Set the calling thread's nice to config.eventLoopNice (the daemon process does; tests in a shared process do not). */
  raiseEventLoop?: boolean;
  /** Serve unary CRI calls on the HTTP/2 stream (unary-fast-path.ts); default: unless ISULATS_GRPC_FAST_PATH=0. Off, every call goes to grpc-js. */
  grpcFastPath?: boolean;
  /** Unix connections on the hand-framed HTTP/2 transport (h2/); default: unless ISULATS_H2_TRANSPORT=0. Needs grpcFastPath. */
  h2Transport?: boolean;
}

export interface Daemon {
  readonly config: DaemonConfig;
  readonly backend: CriBackend;
  readonly log: Logger;
  /** Endpoints actually listening (`unix:///...`, `tcp://host:port`). */
  readonly endpoints: string[];
  /** CRI versions served. */
  readonly apiVersions: string[];
  /** Base URL of the streaming server (exec/attach/port-forward), when the backend streams in-process. */
  readonly streamingUrl?: string;
  /** Where Prometheus scrapes (http://host:port/metrics), when `metrics-address` is set. */
  readonly metricsUrl?: string;
  /** Stops accepting, lets in-flight calls finish within the grace, removes sockets and pid file. Idempotent. */
  stop(reason?: string): Promise<void>;
  /** Applies a reloaded configuration's live settings (SIGHUP). */
  reload(): Promise<void>;
  /** Settles when the daemon has stopped. */
  readonly stopped: Promise<void>;
  /** Unary calls the fast path or the hand-framed transport served (tests tell which server answered); 0 when both are off. */
  fastPathCalls(): number;
}

/** Where the logs go: stdout (journald under systemd), or a rotated file (log-driver "file"). */
export function daemonLogger(config: DaemonConfig): Logger {
  if (config.logDriver === 'file') {
    const o = config.logOpts;
    const file = openLogFile({ dir: o.logPath ?? join(config.state, 'logs'), mode: o.logFileMode, maxSize: o.maxSize, maxFile: o.maxFile });
    return createLogger(config.logLevel, dropRefusedLines((line) => file.write(line)));
  }
  return createLogger(config.logLevel, dropRefusedLines(stdoutWriter()));
}

export async function startDaemon(opts: DaemonOptions): Promise<Daemon> {
  const { config } = opts;
  const log = opts.log ?? daemonLogger(config);
  const grace = opts.shutdownGraceMs ?? 10_000;
  const limits = opts.limits ?? daemonLimits();
  const undo: Array<{ what: string; run: () => Promise<void> | void }> = [];
  const unwind = async () => {
    while (undo.length > 0) {
      const step = undo.pop()!;
      try {
        await step.run();
      } catch (err) {
        log.warn(`cleanup failed: ${step.what}`, { error: err });
      }
    }
  };

  try {
    if (opts.raiseEventLoop) await raiseEventLoop(config.eventLoopNice, log);
    const lock = await acquireInstanceLock(config.pidfile);
    undo.push({ what: 'remove pid file', run: () => lock.release() });

    const backend = await opts.backendFactory(config, log);
    undo.push({ what: 'close backend', run: () => backend.close() });

    // Metrics: loaded only when asked for (the idle daemon's memory); served once the daemon answers.
    let metrics: import('./metrics/daemon-metrics.js').DaemonMetrics | undefined;
    if (config.metricsAddress) {
      const { DaemonMetrics } = await import('./metrics/daemon-metrics.js');
      const { metricsSourceOf } = await import('./metrics/metrics-source.js');
      const m = new DaemonMetrics(metricsSourceOf(backend));
      metrics = m;
      undo.push({ what: 'stop metrics', run: () => m.close() });
    }

    // Streaming server: only for a backend that streams in-process (the engine);
    // a proxied runtime's Exec/Attach/PortForward URLs pass through unchanged.
    let served = backend;
    let streaming: StreamingServer | undefined;
    let streamingRuntime = streamingRuntimeOf(backend);
    if (streamingRuntime && metrics) {
      const { countedSessions } = await import('./metrics/metrics-source.js');
      streamingRuntime = countedSessions(streamingRuntime, metrics);
    }
    if (streamingRuntime) {
      const server = await StreamingServer.start({
        runtime: streamingRuntime, port: config.websocketServerListeningPort, tokenTtlMs: opts.streaming?.tokenTtlMs, log,
        maxConnections: limits.maxStreamingConnections, idleTimeoutMs: limits.streamIdleTimeoutMs,
      });
      streaming = server;
      undo.push({ what: 'close streaming server', run: () => server.close() });
      served = withStreamingServer(backend, server);
    }

    const grpc = cjs(await import('@grpc/grpc-js'));
    const server = new grpc.Server({
      'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
      'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
      // A connection without calls is closed (GOAWAY; clients reconnect at their next call), and a
      // peer that stopped answering is found by a PING (limits.ts).
      'grpc.max_connection_idle_ms': limits.grpcIdleTimeoutMs,
      'grpc.keepalive_time_ms': limits.grpcKeepaliveTimeMs,
      'grpc.keepalive_timeout_ms': limits.grpcKeepaliveTimeoutMs,
      // Channelz stays on although nothing reads it: grpc-js 1.14 keeps the session list its
      // forceShutdown() closes only in its channelz handler, so without it a call still running
      // after the shutdown grace would hold its connection open (daemon-lifecycle's drain test).
      // Unary CRI calls skip its per-call handler anyway (unary-fast-path.ts).
    });
    const onCall = metrics ? metrics.observeCall.bind(metrics) : undefined;
    const cri = await addCriServices(server, { backend: served, enableCriV1: config.enableCriV1, log, onCall });
    const apiVersions = cri.versions;
    const listeners: Listener[] = [];
    addAdminService(server, {
      backend,
      config,
      log,
      state: () => ({ endpoints: listeners.map((l) => l.endpoint), apiVersions, streamingUrl: streaming?.url }),
    });
    // Unary CRI calls are answered on the HTTP/2 stream (unary-fast-path.ts); ISULATS_GRPC_FAST_PATH=0
    // leaves every call to grpc-js.
    let fastPath: FastPath | undefined;
    const fastPathOn = opts.grpcFastPath ?? process.env.ISULATS_GRPC_FAST_PATH !== '0';
    const injector = createClampedInjector(server, grpc.ServerCredentials.createInsecure(), fastPathOn
      ? (http2Server) => void (fastPath = installUnaryFastPath(server, http2Server, cri.unary, log))
      : undefined);
    // Unix connections are framed by hand (h2/transport.ts): unary CRI calls answered there, other
    // streams relayed to grpc-js through the same injector. ISULATS_H2_TRANSPORT=0 leaves them to grpc-js.
    const transport: H2Transport | undefined = fastPathOn && (opts.h2Transport ?? process.env.ISULATS_H2_TRANSPORT !== '0')
      ? createH2Transport({ methods: cri.unary, inject: (socket) => injector.injectConnection(socket), limits: h2Limits(limits), log })
      : undefined;
    undo.push({
      what: 'stop gRPC server',
      run: () => {
        cri.endStreams();
        return shutdownServer(server, injector, grace, log, transport);
      },
    });

    const bounds: ConnectionBounds = {
      limit: new ConnectionLimit(limits.maxGrpcConnections, (refused) => log.warn('refused connections: too many open', { refused, max: limits.maxGrpcConnections })),
      handshakeTimeoutMs: limits.grpcHandshakeTimeoutMs,
    };
    for (const host of config.hosts) {
      const l = host.startsWith('unix://')
        ? await listenUnix(host.slice('unix://'.length), injector, log, bounds, undefined, transport)
        : await listenTcp(host.slice('tcp://'.length), injector, log, bounds);
      listeners.push(l);
      undo.push({ what: `close ${l.endpoint}`, run: () => l.close() });
    }

    let metricsUrl: string | undefined;
    if (metrics) {
      const { startMetricsServer } = await import('./metrics/metrics-server.js');
      const ms = await startMetricsServer(config.metricsAddress!, metrics, log);
      metricsUrl = ms.url;
      undo.push({ what: 'close metrics server', run: () => ms.close() });
    }

    const { mallocTrim } = await import('../runtime/native.js');
    const trim = () => {
      const before = residentKb();
      mallocTrim();
      log.debug('returned free heap memory to the kernel', { rssKb: before, freedKb: before - residentKb() });
    };
    undo.push({ what: 'stop idle trim', run: startIdleTrim({ trim, onError: (err) => log.warn('idle trim failed; trying again next period', { error: err }) }) });

    let resolveStopped!: () => void;
    const stopped = new Promise<void>((r) => (resolveStopped = r));
    let stopping: Promise<void> | undefined;
    const daemon: Daemon = {
      config,
      backend,
      log,
      endpoints: listeners.map((l) => l.endpoint),
      apiVersions,
      streamingUrl: streaming?.url,
      metricsUrl,
      stopped,
      fastPathCalls: () => (fastPath?.served() ?? 0) + (transport?.served() ?? 0),
      stop(reason = 'stop requested') {
        stopping ??= (async () => {
          log.info('shutting down', { reason, graceMs: grace });
          await unwind();
          log.info('stopped');
          resolveStopped();
        })();
        return stopping;
      },
      async reload() {
        if (!opts.reloadConfig) return;
        try {
          const next = await opts.reloadConfig();
          if (next.logLevel !== log.level) {
            // Said under the more verbose of the two levels, so that warn -> info shows it too.
            const from = log.level;
            if (LOG_LEVELS.indexOf(next.logLevel) > LOG_LEVELS.indexOf(from)) log.level = next.logLevel;
            log.info('log level changed', { from, to: next.logLevel });
            log.level = next.logLevel;
          }
        } catch (err) {
          log.error('reload failed; keeping the running configuration', { error: err });
        }
      },
    };

    if (opts.handleSignals) {
      installSignals(daemon, undo);
      undo.push({ what: 'remove the process guard', run: guardProcess(log) });
    }
    log.info('daemon ready', { endpoints: daemon.endpoints, api: apiVersions, backend: backend.target, streaming: streaming?.url, metrics: metricsUrl, pid: process.pid });
    return daemon;
  } catch (err) {
    await unwind();
    throw err;
  }
}

function installSignals(daemon: Daemon, undo: Array<{ what: string; run: () => void }>): void {
  const onStop = (sig: NodeJS.Signals) => void daemon.stop(`signal ${sig}`);
  const onHup = () => void daemon.reload();
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);
  process.on('SIGHUP', onHup);
  undo.push({
    what: 'remove signal handlers',
    run: () => {
      process.off('SIGTERM', onStop);
      process.off('SIGINT', onStop);
      process.off('SIGHUP', onHup);
    },
  });
}

/** Graceful first (GOAWAY on grpc-js's and the hand transport's connections, in-flight calls finish), forced after `graceMs`. */
async function shutdownServer(
  server: import('@grpc/grpc-js').Server,
  injector: import('@grpc/grpc-js').ConnectionInjector,
  graceMs: number,
  log: Logger,
  transport?: H2Transport,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const graceful = Promise.all([
    transport?.shutdown(),
    new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  ]).then(() => true);
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
  const clean = await Promise.race([graceful, timeout]);
  clearTimeout(timer);
  if (!clean) {
    log.warn('in-flight calls did not finish within the grace period; closing connections', { graceMs });
    transport?.destroy();
    server.forceShutdown();
  }
  injector.destroy();
}
