// A burst of exec streams against a real `isulats daemon`, through client-go (test/go-cri-client
// exec-burst): SESSIONS sessions at once, each as one crictl process (its own connection, the
// Exec RPC under crictl's 2 s deadline, then SPDY with 100 kB of stdin through `wc -c`), while
// ListPodSandbox runs every 100 ms under the same deadline. Every session must succeed and
// every unary call be answered in time: per-stream work must not hold the daemon's event loop
// (it did: a child_process fork of the daemon per session).
// Then the same with one client process per session, as `crictl exec` in a shell loop: every
// Exec answered within its deadline, and the pod stopped and removed at once after, leaving no
// session behind. The daemon's event loop runs at a raised priority (event-loop-nice) so that
// such a burst's processes do not starve it; nothing it starts may inherit that.
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient } from '../rig/cri-client.js';
import { execProcessBurst } from '../rig/exec-process-burst.js';
import { goToolPath, runGoCriClient, type ExecBurstResult } from '../rig/go-tools.js';
import { listProcesses, processesMentioning } from '../rig/host-cleanup.js';
import { ourMonitors, startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';

const SESSIONS = 150;
const DEADLINE = '2s';
/** Client processes at once; their deadline is generous for a loaded CI machine, the point is that each is met. */
const PROCESSES = 100;
const PROCESS_DEADLINE = '20s';

/** A task's nice value (/proc/.../stat field 19). */
async function niceOf(statPath: string): Promise<number> {
  const text = await readFile(statPath, 'utf8');
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('isulats daemon: a burst of exec streams', () => {
  let daemon: IsulatsDaemon | undefined;
  let bin: string;
  let containerId = '';

  beforeAll(async () => {
    bin = goToolPath('go-cri-client');
    const env = rigEnv();
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', daemon!.endpoint, ...args]);
    expect((await go(['pull', '-image', env.ISULATS_TEST_BUSYBOX])).code).toBe(0);
    const r = await go(['run-pod-container', '-name', `burst-${process.pid}-3b9e1f0c-7a2d-4c5e-8f61-0d4a2b7c9e13`,
      '-label', 'burst', '-image', env.ISULATS_TEST_BUSYBOX, '--', 'sleep', '3600']);
    expect(r.stderr).toBe('');
    ({ containerId } = JSON.parse(r.stdout) as { containerId: string });
  });

  afterAll(async () => {
    await daemon?.cleanup();
  });

  it(`serves ${SESSIONS} concurrent streaming execs and answers unary calls within ${DEADLINE}`, async () => {
    const r = await runGoCriClient(bin, ['-endpoint', daemon!.endpoint, '-timeout', DEADLINE, 'exec-burst', '-id', containerId,
      '-n', String(SESSIONS), '-stdin-bytes', '100000', '-expect', 'ok\\n100000\\n', '--', 'sh', '-c', 'echo ok; wc -c'], { timeoutMs: 240_000 });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const burst = JSON.parse(r.stdout) as ExecBurstResult;
    const figures = `unary ${JSON.stringify(burst.unary)}, median session ${burst.latenciesMs[Math.floor(burst.latenciesMs.length / 2)]} ms`;
    expect({ ok: burst.ok, errors: burst.errors }, figures).toEqual({ ok: SESSIONS, errors: {} });
    expect(burst.unary.calls, figures).toBeGreaterThan(0);
    // Each unary call has the client's deadline: one answered late counts as failed.
    expect(burst.unary.failed, figures).toBe(0);
  }, 300_000);

  it('runs the event loop thread alone at event-loop-nice: its other threads, conmon, the container and exec processes at 0', async () => {
    const tasks = await readdir(`/proc/${daemon!.pid}/task`);
    const nice = new Map<number, number>();
    for (const tid of tasks) nice.set(Number(tid), await niceOf(`/proc/${daemon!.pid}/task/${tid}/stat`));
    expect(nice.get(daemon!.pid)).toBe(-10);
    expect([...nice].filter(([tid, n]) => tid !== daemon!.pid && n !== 0)).toEqual([]);
    const monitors = ourMonitors(await listProcesses(), daemon!.dir);
    expect(monitors.length).toBeGreaterThan(0);
    for (const m of monitors) expect(await niceOf(`/proc/${m.pid}/stat`)).toBe(0);
    // Inside the container: its init (PID 1 of its own PID namespace) and the exec'd process.
    const r = await runGoCriClient(bin, ['-endpoint', daemon!.endpoint, 'exec-sync', '-id', containerId, '--', 'sh', '-c',
      'cut -d" " -f19 /proc/1/stat; cut -d" " -f19 /proc/self/stat']);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: '0\n0\n' });
  });

  it(`answers ${PROCESSES} exec client processes started at once, each within its deadline; the pod goes at once after`, async () => {
    const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', daemon!.endpoint, ...args]);
    const r = await go(['run-pod-container', '-name', `burst-procs-${process.pid}-5e0c2a94-1f3b-4d7e-9a86-2c4f1b0e7d35`,
      '-label', 'burst-procs', '-image', rigEnv().ISULATS_TEST_BUSYBOX, '--', 'sleep', '3600']);
    expect(r.stderr).toBe('');
    const { podId, containerId: ctr } = JSON.parse(r.stdout) as { podId: string; containerId: string };
    const client = openCriClient(daemon!.endpoint);
    try {
      const burst = await execProcessBurst({ bin, endpoint: daemon!.endpoint, containerId: ctr, n: PROCESSES, deadline: PROCESS_DEADLINE,
        argv: ['echo', 'ok'], expect: 'ok\n', processTimeoutMs: 240_000, unary: { client, everyMs: 200, timeoutMs: 20_000 } });
      const figures = `unary ${JSON.stringify(burst.unary)}, median ${burst.latenciesMs[Math.floor(burst.latenciesMs.length / 2)]} ms`;
      expect({ ok: burst.ok, errors: burst.errors }, figures).toEqual({ ok: PROCESSES, errors: {} });
      expect(burst.unary.failed, figures).toBe(0);
    } finally {
      client.close();
    }
    // Right after: the pod stops and goes, and no exec session (runc exec, its spec) is left.
    const down = await go(['stop-remove', '-pod', podId]);
    expect({ code: down.code, stderr: down.stderr }).toEqual({ code: 0, stderr: '' });
    expect(await processesMentioning(ctr)).toEqual([]);
  }, 300_000);
});
