// A TTY exec's monitor starts when the daemon hands out the exec's streaming URL, before any client
// has come: build/ttyexec (or conmon with ISULATS_TTY_EXEC=conmon). If the daemon dies then
// (kill -9), nothing may run: the command was never attached to anyone. Three things each keep
// it so, which is why this test fails only when all three go: ttyexec runs runc only on the
// daemon's 'g' (a closed socket makes it exit; conmon's waiting child runs runc then), the process
// spec runc needs is written only once the client's streams are open, and the console socket runc
// must connect to dies with the daemon.
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { processesMentioning } from '../rig/host-cleanup.js';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { runCli } from '../rig/cli.js';
import { waitFor } from '../rig/wait.js';

let daemon: IsulatsDaemon;
let c: RawCriClient;
let busybox: string;

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  c = openCriClient(daemon.endpoint);
  await c.image('PullImage', { image: { image: busybox } }, 120_000);
}, 120_000);

afterAll(async () => {
  c?.close();
  await daemon?.cleanup();
});


describe('a daemon killed while a TTY exec waits for its client', () => {
  it('runs nothing: the command never starts, and its monitor goes', async () => {
    const uid = randomUUID();
    const sandboxConfig: CriMessage = {
      metadata: { name: `exec-crash-${uid}`, uid, namespace: `exec-crash-${uid.slice(0, 8)}`, attempt: 0 },
      labels: { 'io.kubernetes.pod.uid': uid },
      linux: {},
    };
    const { podSandboxId } = await c.runtime('RunPodSandbox', { config: sandboxConfig }, 60_000);
    try {
      const { containerId } = await c.runtime('CreateContainer', {
        podSandboxId, sandboxConfig,
        config: { metadata: { name: `sleeper-${uid}` }, image: { image: busybox }, command: ['sleep', '3600'], linux: {} },
      });
      await c.runtime('StartContainer', { containerId }, 60_000);
      const marker = `/tmp/ran-${uid}`;
      await c.runtime('Exec', { containerId, cmd: ['sh', '-c', `touch ${marker}`], tty: true, stdout: true, stdin: true });
      // The exec's monitor is up (its session link exists) while no client has come.
      const links = async () => (await readdir(join(daemon.state, 'sk')).catch(() => [] as string[])).filter((n) => n.startsWith(`${(containerId as string).slice(0, 12)}-`));
      await waitFor(async () => (await links()).length === 1, { timeoutMs: 10_000, intervalMs: 20, what: 'the early exec monitor' });
      const sessions = join(daemon.state, 'exec');
      const sessionDirs = () => readdir(sessions).catch(() => [] as string[]);
      expect(await sessionDirs()).toHaveLength(1);
      // An embedded CLI opening an engine on the daemon's dirs keeps the live daemon's session.
      const embedded = await runCli(['--root', daemon.root, '--state', daemon.state, 'ps', '-a', '-o', 'json'], {
        env: { ISULATS_CNI_CONF_DIR: daemon.cniConfDir, ISULATS_DAEMON_CONFIG: '', CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_SOCKET: join(daemon.dir, 'no-daemon.sock') },
        timeoutMs: 60_000,
      });
      expect(embedded.code, embedded.stderr).toBe(0);
      expect(await sessionDirs()).toHaveLength(1);
      expect(await links()).toHaveLength(1);
      await daemon.kill();
      await waitFor(async () => (await processesMentioning(sessions)).length === 0, { timeoutMs: 10_000, intervalMs: 50, what: 'the exec monitor gone' });
      await sleep(300);
      await daemon.start();
      // The dead daemon's session dir and its socket link went when the new one opened.
      expect(await sessionDirs()).toEqual([]);
      expect(await links()).toEqual([]);
      const probe = await c.runtime('ExecSync', { containerId, cmd: ['test', '-e', marker], timeout: 10 }, 30_000);
      expect(probe.exitCode ?? 0).toBe(1);
    } finally {
      await c.runtime('StopPodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
      await c.runtime('RemovePodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
    }
  }, 120_000);
});
