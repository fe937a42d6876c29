// An ExecSync whose timeout fires answers DeadlineExceeded (as containerd) and leaves nothing of
// what it started: the exec'd process and its children are killed, so a probe's
// `sh -c 'sleep ...; ...'` does not linger in the container. Checked from the host, among the
// processes in the container's cgroup, through the daemon (a raw CRI client, the Go
// client kubelet's probes use, the CLI in remote mode) and in embedded mode (the CLI's exec -s).
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../rig/cli.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { writeBridgeConflist, type CniNetwork } from '../rig/cni-conf.js';
import { deleteLink, inCgroupOf, listProcesses, unmountUnder } from '../rig/host-cleanup.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

/** A probe-like command whose sleep is a child of the shell (two commands: sh cannot exec it). */
function probeCommand(): { cmd: string[]; marker: string } {
  const marker = String(40_000 + Math.floor(Math.random() * 50_000));
  return { cmd: ['sh', '-c', `sleep ${marker}; echo probe-done`], marker };
}

/** PIDs of processes in the container's cgroup whose argv mentions `marker`. */
async function leftovers(containerId: string, marker: string): Promise<number[]> {
  const ids = new Set([containerId]);
  return (await listProcesses()).filter((p) => inCgroupOf(p, ids) && p.argv.some((a) => a.includes(marker))).map((p) => p.pid);
}

/**
 * Runs `call` (an ExecSync of `cmd` with a 2 s timeout), checks that the shell's sleep ran
 * meanwhile, then that the shell and the sleep are gone right after the call answered.
 */
async function expectKilledAtTimeout(containerId: string, marker: string, call: () => Promise<unknown>): Promise<unknown> {
  const answer = call();
  answer.catch(() => undefined);
  await waitFor(async () => (await listProcesses()).some((p) => inCgroupOf(p, new Set([containerId])) && p.argv.join(' ') === `sleep ${marker}`), {
    timeoutMs: 5_000,
    intervalMs: 50,
    what: 'the shell\'s sleep running',
  });
  const outcome = await answer.then((v) => v, (e: unknown) => e);
  const still = await waitFor(async () => ((await leftovers(containerId, marker)).length === 0 ? [] : false), { timeoutMs: 2_000, intervalMs: 100, what: 'no process left' })
    .catch(() => leftovers(containerId, marker));
  expect(still, 'processes the timed-out exec left in the container').toEqual([]);
  return outcome;
}

describe('through the daemon', () => {
  let daemon: IsulatsDaemon;
  let c: RawCriClient;
  let podSandboxId = '';
  let containerId = '';

  beforeAll(async () => {
    const env = rigEnv();
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
    c = openCriClient(daemon.endpoint);
    await c.image('PullImage', { image: { image: env.ISULATS_TEST_BUSYBOX } });
    const uid = randomUUID();
    const config = {
      metadata: { name: `probe-pod-${uid}`, uid, namespace: 'exec-timeout', attempt: 0 },
      labels: { 'io.kubernetes.pod.name': `probe-pod-${uid}`, 'io.kubernetes.pod.namespace': 'exec-timeout', 'io.kubernetes.pod.uid': uid },
      linux: {},
    };
    podSandboxId = (await c.runtime('RunPodSandbox', { config })).podSandboxId;
    containerId = (await c.runtime('CreateContainer', {
      podSandboxId,
      config: { metadata: { name: 'app', attempt: 0 }, image: { image: env.ISULATS_TEST_BUSYBOX }, command: ['sleep', '3600'], linux: {} },
      sandboxConfig: config,
    })).containerId;
    await c.runtime('StartContainer', { containerId });
  }, 120_000);

  afterAll(async () => {
    if (podSandboxId) {
      await c.runtime('StopPodSandbox', { podSandboxId }).catch(() => undefined);
      await c.runtime('RemovePodSandbox', { podSandboxId }).catch(() => undefined);
    }
    c?.close();
    await daemon?.cleanup();
  }, 120_000);

  it('ExecSync answers DeadlineExceeded and kills the shell and its child', async () => {
    const { cmd, marker } = probeCommand();
    // The sleep would run for half a day: only the 2 s timeout ends the call (the client's deadline is far off).
    const outcome = await expectKilledAtTimeout(containerId, marker, () => c.runtime('ExecSync', { containerId, cmd, timeout: '2' }, 90_000));
    expect((outcome as grpc.ServiceError).code).toBe(grpc.status.DEADLINE_EXCEEDED);
  });

  it('a timed-out exec leaves not even a zombie (critest: `sleep 4321`, then `pgrep sleep`)', async () => {
    const marker = String(40_000 + Math.floor(Math.random() * 50_000));
    const outcome = await expectKilledAtTimeout(containerId, marker, () => c.runtime('ExecSync', { containerId, cmd: ['sleep', marker], timeout: '1' }, 30_000));
    expect((outcome as grpc.ServiceError).code).toBe(grpc.status.DEADLINE_EXCEEDED);
    // runc must reap its child: a runc killed first leaves it to the host's init, and a zombie
    // that init is slow to reap still shows in the container. Only the container's own sleep may.
    const ps = await c.runtime('ExecSync', { containerId, cmd: ['sh', '-c', 'cat /proc/[0-9]*/stat'], timeout: '10' }, 30_000);
    const sleeps = Buffer.from(ps.stdout).toString().split('\n').filter((l: string) => l.includes('(sleep)'));
    expect(sleeps.filter((l: string) => / Z /.test(l)), 'zombie sleeps in the container').toEqual([]);
    expect(sleeps).toHaveLength(1);
  });

  it('an exec probe through the Go CRI client (as kubelet sends it) is killed at its timeout', async () => {
    const bin = goToolPath('go-cri-client');
    const { cmd, marker } = probeCommand();
    const outcome = (await expectKilledAtTimeout(containerId, marker, () =>
      runGoCriClient(bin, ['-endpoint', daemon.endpoint, 'exec-sync', '-id', containerId, '-exec-timeout', '2', '--', ...cmd], { timeoutMs: 30_000 }),
    )) as { code: number; stderr: string };
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toMatch(/DeadlineExceeded/);
  });

  it('isulats exec -s --timeout (remote) fails with the deadline and kills what it started', async () => {
    const { cmd, marker } = probeCommand();
    const outcome = (await expectKilledAtTimeout(containerId, marker, () =>
      runCli(['exec', '-s', '--timeout', '2', containerId, ...cmd], { env: { CONTAINER_RUNTIME_ENDPOINT: daemon.endpoint }, timeoutMs: 30_000 }),
    )) as { code: number; stderr: string };
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toMatch(/timed out|deadline/i);
  });
});

describe('embedded (the CLI without a daemon)', () => {
  let dir = '';
  let net: CniNetwork | undefined;
  let base: string[] = [];
  const env = () => ({ ISULATS_CNI_CONF_DIR: join(dir, 'cni'), ISULATS_DAEMON_CONFIG: '', CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_SOCKET: join(dir, 'no-daemon.sock') });
  const cli = (args: string[]) => runCli([...base, ...args], { env: env(), timeoutMs: 60_000 });

  beforeAll(async () => {
    dir = await makeTempDir('ist-exto-');
    await mkdir(join(dir, 'cni'));
    net = await writeBridgeConflist(join(dir, 'cni'), join(dir, 'leases'));
    base = ['--root', join(dir, 'root'), '--state', join(dir, 'state')];
    await populateBusyboxRootfs(join(dir, 'rootfs'));
    const imported = await cli(['import', '--cmd', 'sh', join(dir, 'rootfs'), 'local/busybox:exec-timeout']);
    expect(imported.stderr).toBe('');
  }, 180_000);

  afterAll(async () => {
    if (!dir) return;
    await cli(['rmp', '-a', '-f']).catch(() => undefined);
    await unmountUnder(dir);
    if (net) await deleteLink(net.bridge).catch(() => undefined);
    await removeTempDir(dir);
  }, 180_000);

  it('isulats exec -s --timeout kills the shell and its child', async () => {
    const run = await cli(['run', '-d', '--name', `probe-${randomUUID().slice(0, 8)}`, 'local/busybox:exec-timeout', 'sleep', '3600']);
    expect(run.code, run.stderr).toBe(0);
    const containerId = run.stdout.trim();
    const { cmd, marker } = probeCommand();
    // The sleep would run for half a day: the error names the 2 s timeout that ended it.
    const outcome = (await expectKilledAtTimeout(containerId, marker, () => cli(['exec', '-s', '--timeout', '2', containerId, ...cmd]))) as { code: number; stderr: string };
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toMatch(/timed out after 2s/);
  });
});
