// Where the daemon's metrics read the engine from: the embedded backend's
// engine when the daemon serves one (a proxied runtime has only the CRI lists),
// and the streaming runtime wrapped to count sessions.
import type { Duplex } from 'node:stream';
import type { CriBackend } from '../../client/backend.js';
import type { Engine } from '../../runtime/engine.js';
import type { StreamingRuntime } from '../streaming/types.js';
import type { DaemonMetrics, MetricsSource } from './daemon-metrics.js';

export function metricsSourceOf(backend: CriBackend): MetricsSource {
  const engine = (backend as { engine?: Engine }).engine;
  return {
    containers: async () => (await backend.listContainers({})).containers ?? [],
    pods: async () => (await backend.listPodSandbox({})).items ?? [],
    pulledBytes: engine ? () => engine.ctx.images.ctx.pulled.bytes : undefined,
    nriPlugins: engine ? () => engine.ctx.nri?.plugins().length ?? 0 : undefined,
    nriFailures: engine ? () => engine.ctx.nri?.pluginFailures() ?? [] : undefined,
  };
}

/** The same runtime, each exec and attach session and each port-forward connection counted while open. */
export function countedSessions(runtime: StreamingRuntime, metrics: DaemonMetrics): StreamingRuntime {
  return {
    exec: async (req, io) => {
      const end = metrics.sessionStarted('exec');
      try {
        return await runtime.exec(req, io);
      } finally {
        end();
      }
    },
    attach: async (req, io) => {
      const end = metrics.sessionStarted('attach');
      try {
        return await runtime.attach(req, io);
      } finally {
        end();
      }
    },
    portForward: async (pod, port): Promise<Duplex> => {
      const conn = await runtime.portForward(pod, port);
      const end = metrics.sessionStarted('portforward');
      conn.once('close', end);
      return conn;
    },
  };
}
