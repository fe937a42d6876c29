// The issue-31 bench code end to end at a tiny size, so it does not rot: bench/daemon/node-scale.ts
// at N = 2 on isulats daemon and on containerd 1.6 (pods up at once, 2 s of relist, stats and
// probes, all removed), and bench/daemon/crictl-client.ts's `crictl run` + `rmp -f` and
// step-by-step lifecycle against the daemon with upstream crictl (skipped without a crictl build:
// scripts/build-critest.sh --crictl-only), and the floor of `crictl run` (bench/daemon/floor.ts: one
// pod by bare runc and CNI, no pause). Only that the work was done and every figure is there; no timed assertions.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crictlBinary } from '../../bench/crictl-binary.js';
import { moveToCpuacctGroup, type CpuacctGroup } from '../../bench/daemon/cpuacct-group.js';
import { CRICTL_STEPS, crictlFor, crictlRunThenRmp, crictlSteps } from '../../bench/daemon/crictl-client.js';
import { goClient } from '../../bench/daemon/go-client.js';
import { prepareFloor } from '../../bench/daemon/floor.js';
import { LISTS, measureNode, type NodeTarget } from '../../bench/daemon/node-scale.js';
import { startContainerd, type Containerd } from '../rig/containerd.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const LABEL = 'scale-run-5b1e9d';

describe('node-scale and crictl bench code at N = 2', () => {
  let daemon: IsulatsDaemon | undefined;
  let ctd: Containerd | undefined;
  let dir = '';
  const groups: CpuacctGroup[] = [];
  const targets: NodeTarget[] = [];

  beforeAll(async () => {
    const env = rigEnv();
    dir = await makeTempDir('ist-nsb-');
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    ctd = await startContainerd({ sandboxImage: env.ISULATS_TEST_PAUSE, plainHttpRegistries: [env.ISULATS_TEST_REGISTRY] });
    for (const [name, endpoint, pid] of [['containerd', ctd.endpoint, ctd.pid], ['isulats', daemon.endpoint, daemon.pid]] as const) {
      for (const image of [env.ISULATS_TEST_BUSYBOX, env.ISULATS_TEST_PAUSE]) await goClient(['pull', '-image', image], { endpoint });
      const group = await moveToCpuacctGroup(pid, `ist-nsb-${name}-${process.pid}`);
      groups.push(group);
      targets.push({ name, endpoint, pid, group });
    }
  }, 120_000);

  afterAll(async () => {
    for (const t of targets) await goClient(['teardown', '-label', LABEL], { endpoint: t.endpoint }).catch(() => undefined);
    for (const g of groups) await g.remove().catch(() => undefined);
    await daemon?.cleanup();
    await ctd?.stop();
    if (dir) await removeTempDir(dir);
  }, 120_000);

  for (const runtime of ['isulats', 'containerd']) {
    it(`measures a node of 2 pods on ${runtime}: every figure there, no call failed, no pod left`, async () => {
      const t = targets.find((x) => x.name === runtime)!;
      const f = await measureNode(t, { n: 2, seconds: 2, image: rigEnv().ISULATS_TEST_BUSYBOX, logRoot: dir, label: LABEL });
      expect({ n: f.n, failed: f.failed, firstError: f.firstError }).toEqual({ n: 2, failed: 0, firstError: undefined });
      expect(f.probes).toBe(1); // one probe per pod every 10 s, spread: 2 pods over 2 s is one probe, at 0 s
      for (const x of [f.startAllMs, f.removeAllMs, f.cpuMsPerS, f.daemonRssKb, f.runtimeRssKb]) expect(x).toBeGreaterThan(0);
      expect(f.runtimeRssKb).toBeGreaterThan(f.daemonRssKb); // the monitors or shims count too
      expect(f.runtimeProcs).toBeGreaterThan(1);
      for (const m of LISTS) {
        expect(f.lists[m].count, m).toBeGreaterThanOrEqual(1);
        expect(f.lists[m].p99, m).toBeGreaterThanOrEqual(f.lists[m].p50);
      }
      expect(await goClient(['list', '-label', LABEL], { endpoint: t.endpoint })).toEqual({ pods: [], containers: [] });
      // Only the daemon (and no monitor) is left in its group once the pods are gone.
      expect(await t.group.pids()).toEqual([t.pid]);
    }, 180_000);
  }

  const crictl = crictlBinary();
  it.skipIf(!crictl || !existsSync(crictl))('drives the daemon with upstream crictl: run + rmp -f, then runp, create, start, rmp, leaving no pod', async () => {
    const c = await crictlFor(crictl!, daemon!.endpoint, dir, rigEnv().ISULATS_TEST_BUSYBOX, 'ist');
    const r = await crictlRunThenRmp(c, 'once');
    expect(r.run).toBeGreaterThan(0);
    expect(r.rmp).toBeGreaterThan(0);
    const s = await crictlSteps(c, 'steps');
    expect(Object.keys(s)).toEqual([...CRICTL_STEPS]);
    expect((await c.call(['pods', '-q'])).out).toBe('');
    expect((await c.call(['ps', '-a', '-q'])).out).toBe('');
    // kubelet's log layout from the pod config: one directory per pod under <dir>/logs.
    expect((await readdir(`${dir}/logs`)).filter((d) => d.startsWith('bench_checkout-frontend-'))).toHaveLength(2);
  }, 180_000);

  it('brings a pod up and down by bare runc and CNI with no pause container (the floor of crictl run)', async () => {
    const floor = await prepareFloor(join(dir, 'floor'));
    try {
      const out = await floor.run(1, 'runc', 'nsb', { noPause: true });
      expect({ failed: out.failed, up: out.pods[0]?.calls.map((c) => c.call), down: out.pods[0]?.teardown.map((c) => c.call) })
        .toEqual({ failed: 0, up: ['netns', 'CNI ADD', 'run container'], down: ['delete -f', 'CNI DEL', 'netns remove'] });
    } finally {
      await floor.cleanup();
    }
  }, 120_000);
});
