// A real daemon (gRPC socket and all) in front of a fake backend: for tests of what the daemon
// and the remote client do with a call, with the backend's answers and timing in the test's hands.
import { mkdtempSync, rmSync } from 'node:fs';
import type { CriBackend } from '../../src/client/backend.js';
import { startDaemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';

export interface FakeBackendDaemon {
  /** The daemon's CRI endpoint (unix://…). */
  endpoint: string;
  stop(): Promise<void>;
}

/** Only the calls a test gives are there; the rest of CriBackend is left out on purpose. */
export function fakeBackend(calls: Record<string, unknown>): CriBackend {
  return {
    kind: 'remote', target: 'fake', apiVersion: async () => 'v1', close: async () => undefined,
    version: async () => ({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1', runtimeApiVersion: 'v1' }),
    ...calls,
  } as unknown as CriBackend;
}

export async function startFakeBackendDaemon(backend: CriBackend, prefix: string): Promise<FakeBackendDaemon> {
  const dir = mkdtempSync(`/tmp/${prefix}`);
  try {
    const base = resolveDaemonConfig({}, { socket: `${dir}/d.sock`, pidfile: `${dir}/d.pid`, root: dir, state: dir });
    const daemon = await startDaemon({
      config: { ...base, websocketServerListeningPort: 0 },
      backendFactory: async () => backend,
      log: createLogger('error', () => undefined),
      shutdownGraceMs: 2000,
    });
    return {
      endpoint: daemon.endpoints[0]!,
      async stop() {
        await daemon.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
