// The embedded engine as read-only verbs see it before anything was made: its
// root does not exist. Opening the real engine would create the root and state
// trees (and take locks) just to answer "nothing"; this answers the reads
// straight away and creates nothing: empty lists, "not found" for an object.
import type * as cri from '../api/cri.js';
import type { CriBackend } from './backend.js';
import { notFound } from '../runtime/errors.js';

/** The engine's answers with no state at `root`; every call that would create or change something is refused. */
export function statelessEmbeddedBackend(root: string, engineVersion: string): CriBackend {
  const missing = (what: string) => () => Promise.reject(notFound(`${what}: not found (the embedded engine has no state at ${root} yet)`));
  const notReady = { status: false, reason: 'NoEngineState', message: `no engine state at ${root}: the first command that creates something makes it` };
  const reads: Partial<Record<keyof CriBackend, unknown>> = {
    version: async () => ({ version: '0.1.0', runtimeName: 'isulats', runtimeVersion: engineVersion, runtimeApiVersion: 'v1' }),
    listPodSandbox: async () => ({ items: [] }),
    listContainers: async () => ({ containers: [] }),
    listImages: async () => ({ images: [] }),
    listContainerStats: async () => ({ stats: [] }),
    listPodSandboxStats: async () => ({ stats: [] }),
    listMetricDescriptors: async () => ({ descriptors: [] }),
    listPodSandboxMetrics: async () => ({ podMetrics: [] }),
    imageFsInfo: async () => ({ imageFilesystems: [], containerFilesystems: [] }),
    imageStatus: async () => ({ info: {} }),
    status: async () => ({
      status: { conditions: [{ type: 'RuntimeReady', ...notReady }, { type: 'NetworkReady', ...notReady }] },
      info: {},
      runtimeHandlers: [],
    }),
    podSandboxStatus: (req: cri.PodSandboxStatusRequestIn) => missing(`pod sandbox "${req.podSandboxId}"`)(),
    containerStatus: (req: cri.ContainerStatusRequestIn) => missing(`container "${req.containerId}"`)(),
    containerStats: (req: cri.ContainerStatsRequestIn) => missing(`container "${req.containerId}"`)(),
    podSandboxStats: (req: cri.PodSandboxStatsRequestIn) => missing(`pod sandbox "${req.podSandboxId}"`)(),
  };
  const backend = {
    kind: 'embedded' as const,
    target: `embedded (${root})`,
    apiVersion: async () => 'v1' as const,
    close: async () => undefined,
    extras: {
      topContainer: (id: string) => missing(`container "${id}"`)(),
    },
    ...reads,
  };
  // Anything else a read-only verb might reach: a clear refusal rather than "undefined is not a function".
  return new Proxy(backend, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && !(prop in target) && prop !== 'then' && prop !== 'streamInProcess') {
        return () => Promise.reject(notFound(`${prop}: the embedded engine has no state at ${root} yet`));
      }
      return Reflect.get(target, prop, receiver);
    },
  }) as unknown as CriBackend;
}
