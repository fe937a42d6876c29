// The CLI's remote client gives each call the deadline crictl's (and kubelet's) CRI client gives
// it: the connection timeout, and twice that for RunPodSandbox, whose network set-up and infra
// container may take longer on a busy node. A fake backend behind a real daemon socket answers
// after a fixed delay between the two.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteBackend } from '../../src/client/remote.js';
import { fakeBackend, startFakeBackendDaemon, type FakeBackendDaemon } from '../rig/fake-backend-daemon.js';

const TIMEOUT_MS = 1000;
/** Past the connection timeout, well inside twice it. */
const DELAY_MS = 1500;

let daemon: FakeBackendDaemon;
let remote: RemoteBackend;

beforeAll(async () => {
  daemon = await startFakeBackendDaemon(
    fakeBackend({
      runPodSandbox: async () => (await sleep(DELAY_MS), { podSandboxId: 'p1' }),
      listPodSandbox: async () => (await sleep(DELAY_MS), { items: [] }),
    }),
    'ist-rcd-',
  );
  remote = new RemoteBackend({ runtimeEndpoint: daemon.endpoint, timeoutMs: TIMEOUT_MS });
  await remote.version({});
});
afterAll(async () => {
  await remote?.close();
  await daemon?.stop();
});

describe('remote call deadlines, as crictl\'s CRI client sets them', () => {
  it('RunPodSandbox has twice the connection timeout', async () => {
    await expect(remote.runPodSandbox({ config: { metadata: { name: 'p', namespace: 'n', uid: 'u' } } })).resolves.toMatchObject({ podSandboxId: 'p1' });
  });

  it('other calls have the connection timeout', async () => {
    await expect(remote.listPodSandbox({})).rejects.toThrow(/deadline|timeout/i);
  });
});
