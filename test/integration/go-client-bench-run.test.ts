// The Go client's benchmark modes against a real `isulats daemon`: `run` starts N kubelet-shaped
// pods at once (RunPodSandbox, CreateContainer, StartContainer, as `crictl run`) and reports each
// call's time; `teardown` removes every pod with its label. bench/daemon reads exactly this JSON.
// The `floor` mode does the same per-pod work with no daemon (netns, CNI ADD, two `runc run -d`)
// and undoes it. No timed assertions: only that the work was done and every figure is there.
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareFloor, type Floor } from '../../bench/daemon/floor.js';
import type { FloorOutput } from '../../bench/daemon/go-client.js';
import { linkExists } from '../rig/host-cleanup.js';
import { run } from '../rig/proc.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const CALLS = ['RunPodSandbox', 'CreateContainer', 'StartContainer'];
const LIFECYCLE_CALLS = [...CALLS, 'ExecSync', 'Exec', 'StopContainer', 'RemoveContainer', 'StopPodSandbox', 'RemovePodSandbox'];
const LABEL = 'bench-run-3f9c2a7e';

interface CallTime { call: string; ms: number; start: number; end: number }
interface RunOutput {
  n: number;
  wallMs: number;
  failed: number;
  errors: Record<string, number>;
  calls: Record<string, { median: number; p90: number; count: number }>;
  pods: Array<{ podId: string; containerId: string; calls: CallTime[]; error?: string }>;
}
interface Listing { pods: Array<{ ID: string; Name: string; State: string }>; containers: Array<{ ID: string; State: string; PodID: string }> }

describe('go-cri-client run and teardown against isulats daemon', () => {
  let daemon: IsulatsDaemon | undefined;
  let logRoot = '';
  const go = async (args: string[]): Promise<string> => {
    const r = await runGoCriClient(goToolPath('go-cri-client'), ['-endpoint', daemon!.endpoint, ...args]);
    expect({ code: r.code, stderr: r.stderr }, `go-cri-client ${args.join(' ')}`).toEqual({ code: 0, stderr: '' });
    return r.stdout;
  };

  beforeAll(async () => {
    const env = rigEnv();
    logRoot = await makeTempDir('ist-gbr-');
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    await go(['pull', '-image', env.ISULATS_TEST_BUSYBOX]);
  }, 60_000);

  afterAll(async () => {
    await daemon?.cleanup();
    if (logRoot) await removeTempDir(logRoot);
  }, 60_000);

  it('runs 3 pods at once, each RUNNING, with per-call timings, then tears them all down', async () => {
    const out = JSON.parse(await go(['run', '-n', '3', '-name', 'web-frontend', '-label', LABEL, '-log-root', logRoot,
      '-image', rigEnv().ISULATS_TEST_BUSYBOX])) as RunOutput;
    expect({ n: out.n, failed: out.failed, errors: out.errors }).toEqual({ n: 3, failed: 0, errors: {} });
    expect(out.wallMs).toBeGreaterThan(0);
    for (const call of CALLS) {
      expect(out.calls[call]!.count).toBe(3);
      expect(out.calls[call]!.median).toBeGreaterThan(0);
      expect(out.calls[call]!.p90).toBeGreaterThanOrEqual(out.calls[call]!.median);
    }
    for (const pod of out.pods) {
      expect(pod.podId).toMatch(/^[0-9a-f]{64}$/);
      expect(pod.containerId).toMatch(/^[0-9a-f]{64}$/);
      expect(pod.calls.map((c) => c.call)).toEqual(CALLS);
      for (const c of pod.calls) expect(c.end).toBeGreaterThanOrEqual(c.start);
    }

    const listing = JSON.parse(await go(['list', '-label', LABEL])) as Listing;
    expect(listing.pods.map((p) => p.ID).sort()).toEqual(out.pods.map((p) => p.podId).sort());
    expect(listing.pods.every((p) => p.State === 'SANDBOX_READY' && /^web-frontend-\d-[0-9a-f-]{10}-[0-9a-f]{5}$/.test(p.Name))).toBe(true);
    expect(listing.containers.map((c) => c.ID).sort()).toEqual(out.pods.map((p) => p.containerId).sort());
    expect(listing.containers.every((c) => c.State === 'CONTAINER_RUNNING')).toBe(true);
    // kubelet's log layout: <root>/<ns>_<name>_<uid>/, one per pod.
    expect((await readdir(logRoot)).filter((d) => d.startsWith('default_web-frontend-'))).toHaveLength(3);

    const down = JSON.parse(await go(['teardown', '-label', LABEL])) as { pods: number; errors: string[] };
    expect(down).toMatchObject({ pods: 3, errors: [] });
    expect(JSON.parse(await go(['list', '-label', LABEL]))).toEqual({ pods: [], containers: [] });
  }, 60_000);

  it('times each lifecycle call of 2 pods one at a time, exec streams included, and leaves no pod', async () => {
    const out = JSON.parse(await go(['lifecycle', '-k', '2', '-name', 'api-backend', '-label', LABEL, '-log-root', logRoot,
      '-image', rigEnv().ISULATS_TEST_BUSYBOX])) as { iterations: number; calls: RunOutput['calls']; timeline: CallTime[] };
    expect(out.timeline.map((c) => c.call)).toEqual([...LIFECYCLE_CALLS, ...LIFECYCLE_CALLS]);
    for (const call of LIFECYCLE_CALLS) expect(out.calls[call]!.count).toBe(2);
    expect(JSON.parse(await go(['list', '-label', LABEL]))).toEqual({ pods: [], containers: [] });
  }, 60_000);
});

describe('go-cri-client floor (the no-daemon floor of bench/daemon)', () => {
  let dir = '';
  let floor: Floor | undefined;

  beforeAll(async () => {
    dir = await makeTempDir('ist-gbf-');
    floor = await prepareFloor(dir);
  }, 60_000);

  afterAll(async () => {
    await floor?.cleanup();
    if (dir) await removeTempDir(dir);
  }, 60_000);

  it('brings 2 pods up with runc (netns, CNI ADD, pause + container) and takes them down, leaving nothing', async () => {
    const tag = 'x1';
    await floor!.prepare('runc', tag);
    const args = floor!.args(2, 'runc', tag);
    // While it runs the pods are up; the mode takes them down itself before it prints.
    const out = JSON.parse((await run(goToolPath('go-cri-client'), args)).stdout) as FloorOutput;
    expect({ n: out.n, failed: out.failed, errors: out.errors }).toEqual({ n: 2, failed: 0, errors: {} });
    for (const step of ['netns', 'CNI ADD', 'run pause', 'run container']) expect(out.calls[step]!.count).toBe(2);
    for (const step of ['delete -f', 'CNI DEL', 'netns remove']) expect(out.teardownCalls[step]!.count).toBeGreaterThanOrEqual(2);
    expect(out.wallMs).toBeGreaterThan(0);
    const root = args[args.indexOf('-runtime-root') + 1]!;
    expect((await run('runc', ['--root', root, 'list', '-q'])).stdout).toBe('');
    expect((await readFile('/proc/self/mountinfo', 'utf8')).includes(dir)).toBe(false);
    // host-local released both addresses (only its lock file and last-reserved marker stay).
    const leases = await readdir(dir + '/leases', { recursive: true });
    expect(leases.filter((f) => /\d+\.\d+\.\d+\.\d+$/.test(f))).toEqual([]);
    const conf = JSON.parse(await readFile(args[args.indexOf('-conflist') + 1]!, 'utf8')) as { plugins: Array<{ bridge?: string }> };
    expect(await linkExists(conf.plugins[0]!.bridge!)).toBe(true); // the bridge stays for the next run; cleanup() deletes it
  }, 60_000);
});
