// A burst of exec streams against a real `isulats daemon`, through client-go (test/go-cri-client
// exec-burst): SESSIONS sessions at once, each as one crictl process (its own connection, the
// Exec RPC under crictl's 2 s deadline, then SPDY with 100 kB of stdin through `wc -c`), while
// ListPodSandbox runs every 100 ms under the same deadline. Every session must succeed and
// every unary call be answered in time: per-stream work must not hold the daemon's event loop
// (it did: a child_process fork of the daemon per session).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goToolPath, runGoCriClient, type ExecBurstResult } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';

const SESSIONS = 150;
const DEADLINE = '2s';

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
    expect(burst.unary.failed, figures).toBe(0);
    expect(burst.unary.maxMs, figures).toBeLessThan(2000);
  }, 300_000);
});
