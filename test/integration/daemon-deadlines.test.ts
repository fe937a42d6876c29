// RPC deadlines of 2^31 ms or more against a real `isulats daemon`: grpc-go (what crictl and
// kubelet are built on) sends them as they are ("2147484S", "876000H") and grpc-js would turn them
// into a timer that fires at once; the CLI's -t likewise. Both must mean "a long time", and -t 0s
// crictl's default (2 s), as crictl's getTimeout has it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../rig/cli.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';

describe('RPC deadlines past what a timer holds', () => {
  let daemon: IsulatsDaemon;
  const go = (args: string[]) => runGoCriClient(goToolPath('go-cri-client'), ['-endpoint', daemon.endpoint, ...args]);

  beforeAll(async () => {
    daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE });
  });

  afterAll(async () => {
    await daemon?.cleanup();
  });

  // `list` (ListPodSandbox, then ListContainers) reads the store: slower than a misfired timer's 1 ms.
  it.each(['2147484s', '3000000s', '876000h'])('a Go client with -timeout %s gets its answers', async (timeout) => {
    const r = await go(['-timeout', timeout, 'list']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({ pods: [], containers: [] });
  });

  it.each(['99999999999h', '2147484s', '0s', '0'])('the CLI with -t %s lists pods', async (timeout) => {
    const r = await runCli(['-r', daemon.endpoint, '-t', timeout, 'pods', '-q']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('ExecSync with a timeout of int64 seconds runs the command to its end', async () => {
    const image = rigEnv().ISULATS_TEST_BUSYBOX;
    expect((await go(['-timeout', '120s', 'pull', '-image', image])).code).toBe(0);
    const started = await go(['-timeout', '120s', 'run-pod-container', '-name', 'deadline-exec', '-label', 'deadlines', '-image', image, '--', 'sleep', '600']);
    expect(started.stderr).toBe('');
    const { containerId } = JSON.parse(started.stdout) as { containerId: string };
    for (const seconds of ['2147484', '9223372036854775807']) {
      const r = await go(['-timeout', '2147484s', 'exec-sync', '-id', containerId, '-exec-timeout', seconds, '--', 'sh', '-c', 'sleep 0.2; echo done']);
      expect(r, `exec-timeout ${seconds}`).toEqual({ code: 0, stdout: 'done\n', stderr: '' });
    }
  });
});
