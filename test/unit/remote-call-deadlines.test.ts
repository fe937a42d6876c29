// The CLI's remote client gives each call the deadline crictl's (and kubelet's) CRI client gives
// it: the connection timeout, and twice that for RunPodSandbox, whose network set-up and infra
// container may take longer on a busy node. A fake backend behind a real daemon socket answers
// after a fixed delay between the two.
import { mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CriBackend } from '../../src/client/backend.js';
import { RemoteBackend } from '../../src/client/remote.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';

const TIMEOUT_MS = 1000;
/** Past the connection timeout, well inside twice it. */
const DELAY_MS = 1500;

function slowBackend(): CriBackend {
  return {
    kind: 'remote', target: 'fake', apiVersion: async () => 'v1', close: async () => undefined,
    version: async () => ({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1', runtimeApiVersion: 'v1' }),
    runPodSandbox: async () => (await sleep(DELAY_MS), { podSandboxId: 'p1' }),
    listPodSandbox: async () => (await sleep(DELAY_MS), { items: [] }),
  } as unknown as CriBackend;
}

let daemon: Daemon;
let dir: string;
let remote: RemoteBackend;

beforeAll(async () => {
  dir = mkdtempSync('/tmp/ist-rcd-');
  const base = resolveDaemonConfig({}, { socket: `${dir}/d.sock`, pidfile: `${dir}/d.pid`, root: dir, state: dir });
  daemon = await startDaemon({
    config: { ...base, websocketServerListeningPort: 0 },
    backendFactory: async () => slowBackend(),
    log: createLogger('error', () => undefined),
    shutdownGraceMs: 2000,
  });
  remote = new RemoteBackend({ runtimeEndpoint: daemon.endpoints[0]!, timeoutMs: TIMEOUT_MS });
  await remote.version({});
});
afterAll(async () => {
  await remote?.close();
  await daemon?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('remote call deadlines, as crictl\'s CRI client sets them', () => {
  it('RunPodSandbox has twice the connection timeout', async () => {
    await expect(remote.runPodSandbox({ config: { metadata: { name: 'p', namespace: 'n', uid: 'u' } } })).resolves.toMatchObject({ podSandboxId: 'p1' });
  });

  it('other calls have the connection timeout', async () => {
    await expect(remote.listPodSandbox({})).rejects.toThrow(/deadline|timeout/i);
  });
});
