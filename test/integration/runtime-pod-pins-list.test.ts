// ListPodSandbox takes a no-infra pod's namespace pins as a list saw them up to 2 s ago
// (sandbox-service.ts, pinsMountedAsListed); everything else looks afresh. A stop in this process
// shows at once; a pin unmounted by hand shows in PodSandboxStatus at once and in the list within
// the recheck.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../rig/proc.js';
import { waitFor } from '../rig/wait.js';
import { openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

/** A pod whose containers each have their own PID namespace: no infra container, its namespaces pinned (kubelet's default). */
const noInfraPod = (name: string) => podConfig(name, { linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } } });

describe('pod readiness in lists', () => {
  let fx: RuntimeFixture;
  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);
  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  const listed = async (id: string) => (await fx.engine.listPodSandbox({})).items.find((p) => p.id === id)?.state;

  it('a stop shows in the next list, even right after a list saw the pod ready', async () => {
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: noInfraPod('pins-stop') });
    expect(await listed(podSandboxId)).toBe('SANDBOX_READY');
    await fx.engine.stopPodSandbox({ podSandboxId });
    expect(await listed(podSandboxId)).toBe('SANDBOX_NOTREADY');
    await fx.engine.removePodSandbox({ podSandboxId });
  }, 60_000);

  it('a pin unmounted by hand: status says so at once, the list within its recheck', async () => {
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: noInfraPod('pins-hand') });
    expect(await listed(podSandboxId)).toBe('SANDBOX_READY');
    const record = JSON.parse(readFileSync(join(fx.options.root, 'sandboxes', podSandboxId, 'meta.json'), 'utf8')) as { noInfra?: boolean; ipcnsPath: string };
    expect(record.noInfra).toBe(true);
    await run('umount', ['-l', record.ipcnsPath]);
    expect((await fx.engine.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_NOTREADY');
    await waitFor(async () => (await listed(podSandboxId)) === 'SANDBOX_NOTREADY' || undefined, { timeoutMs: 10_000, intervalMs: 100, what: 'the list to see the pin gone' });
    await fx.engine.stopPodSandbox({ podSandboxId });
    await fx.engine.removePodSandbox({ podSandboxId });
  }, 60_000);
});
