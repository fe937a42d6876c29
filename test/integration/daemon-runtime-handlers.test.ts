// A daemon configured with runtimes { runc, crun } through daemon.json, driven by the CLI:
// `isulats runp --runtime crun` runs the pod under crun, `isulats info` lists the handlers,
// and an unknown handler is one line and a non-zero exit that leaves no pod.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../rig/cli.js';
import { CRUN, crunForThisHost } from '../rig/crun-path.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { writeContainerConfig, writePodConfig } from '../rig/pod-configs.js';
import { run } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

describe('isulats daemon: runtime handlers from daemon.json', () => {
  let daemon: IsulatsDaemon;
  let dir: string;
  let crunPath: string;
  const cli = (args: string[]) => runCli(['-r', daemon.endpoint, '--timeout', '20s', ...args], { timeoutMs: 60_000 });

  beforeAll(async () => {
    dir = await makeTempDir('ist-drh-');
    crunPath = await crunForThisHost();
    daemon = await startIsulatsDaemon({
      podSandboxImage: rigEnv().ISULATS_TEST_PAUSE,
      extraConfig: { runtimes: { crun: { path: crunPath } } },
    });
  }, 120_000);

  afterAll(async () => {
    await daemon?.cleanup();
    if (dir) await removeTempDir(dir);
  }, 120_000);

  it('lists runc (the default) and crun in isulats info', async () => {
    const r = await cli(['info']);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.runtimes.default).toBe('runc');
    // crictl 1.34's JSON sorts map keys, as Go's encoder does.
    expect(Object.keys(info.runtimes.handlers)).toEqual(['crun', 'runc']);
    expect(info.runtimes.handlers.crun.path).toBe(crunPath);
  });

  it('runs a pod and its container under crun with isulats runp --runtime crun, beside a default pod', async () => {
    // A shared PID namespace, so the pod has a pause container for crun to run beside the app.
    const crunPodFile = await writePodConfig(dir, { name: 'api-crun-6f8d9c7b5a-k9w2x', namespace: 'rt-handlers', logDirectory: join(dir, 'crun-logs'), namespaces: { pid: 'POD' } });
    const crunPod = (await cli(['runp', '--runtime', 'crun', crunPodFile])).stdout.trim();
    expect(crunPod).toMatch(/^[0-9a-f]{64}$/);
    const runcPodFile = await writePodConfig(dir, { name: 'api-runc-4c7b8d9e6f-p3t5v', namespace: 'rt-handlers', logDirectory: join(dir, 'runc-logs') });
    const runcPod = (await cli(['runp', runcPodFile])).stdout.trim();
    expect((await cli(['pull', rigEnv().ISULATS_TEST_BUSYBOX])).code).toBe(0);
    const ctrFile = await writeContainerConfig(dir, { name: 'api', image: rigEnv().ISULATS_TEST_BUSYBOX, command: ['sleep', '3600'] });
    const created = await cli(['create', crunPod, ctrFile, crunPodFile]);
    expect(created.stderr).toBe('');
    const ctr = created.stdout.trim();
    expect((await cli(['start', ctr])).code).toBe(0);

    const inspect = JSON.parse((await cli(['inspectp', crunPod])).stdout);
    expect(inspect.status.runtimeHandler).toBe('crun');
    const { stdout } = await run(CRUN, ['--root', join(daemon.state, 'runtimes', 'crun'), 'list', '-q']);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual([crunPod, ctr].sort());
    const exec = await cli(['exec', ctr, 'echo', 'hi-from-crun']);
    expect(exec.stdout).toBe('hi-from-crun\n');
    // A TTY exec: crun exec -d --tty --console-socket under build/ttyexec, as runc's.
    const tty = await runGoCriClient(goToolPath('go-cri-client'), ['-endpoint', daemon.endpoint, 'exec', '-id', ctr, '-tty', '--', 'sh', '-c', '[ -t 1 ] && echo tty-under-crun; exit 3']);
    expect(tty).toEqual({ code: 3, stdout: 'tty-under-crun\r\n', stderr: '' });

    expect((await cli(['stop', ctr])).code).toBe(0);
    expect((await cli(['rm', ctr])).code).toBe(0);
    expect((await cli(['rmp', '-f', crunPod, runcPod])).code).toBe(0);
    const after = await run(CRUN, ['--root', join(daemon.state, 'runtimes', 'crun'), 'list', '-q']);
    expect(after.stdout.trim()).toBe('');
  }, 120_000);

  it('refuses an unknown handler in one line with a non-zero exit, leaving no pod', async () => {
    const file = await writePodConfig(dir, { name: 'api-kata-9e7f6d5c4b-z8y7x', namespace: 'rt-handlers' });
    const r = await cli(['runp', '--runtime', 'kata', file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no runtime for "kata" is configured');
    expect((await cli(['pods', '-q'])).stdout.trim()).toBe('');
  });
});
