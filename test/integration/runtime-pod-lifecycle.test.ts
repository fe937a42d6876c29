import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait.js';
import { anyAlive, BUSYBOX_REF, leases, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

const CRI_LOG_LINE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+(Z|[+-]\d{2}:\d{2}) (stdout|stderr) [FP] /;

describe('runtime: pods and containers on runc + conmon + CNI', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('runs a pod and a container, execs, logs in CRI format, and stops and removes idempotently', async () => {
    const e = fx.engine;
    const pod = podConfig('lifecycle', { logDirectory: join(fx.dir, 'logs', 'lifecycle') });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const podStatus = (await e.podSandboxStatus({ podSandboxId })).status!;
    expect(podStatus.state).toBe('SANDBOX_READY');
    expect(podStatus.metadata?.uid).toBe('uid-lifecycle');
    expect(podStatus.network?.ip).toMatch(/^10\.88\.\d+\.\d+$/);
    const netns = join(fx.options.state, 'netns', podSandboxId);
    expect(existsSync(netns)).toBe(true);

    const { containerId } = await e.createContainer({
      podSandboxId,
      config: {
        metadata: { name: 'hello' },
        image: { image: BUSYBOX_REF },
        command: ['sh', '-c', 'echo hello; echo oops >&2; sleep 3600'],
        logPath: 'hello/0.log',
      },
      sandboxConfig: pod,
    });
    expect((await e.containerStatus({ containerId })).status?.state).toBe('CONTAINER_CREATED');
    await e.startContainer({ containerId });
    const status = (await e.containerStatus({ containerId })).status!;
    expect(status.state).toBe('CONTAINER_RUNNING');
    expect(status.logPath).toBe(join(fx.dir, 'logs', 'lifecycle', 'hello/0.log'));
    expect(status.imageRef).not.toBe('');
    expect(BigInt(status.startedAt)).toBeGreaterThan(BigInt(status.createdAt));

    const hostname = await e.execSync({ containerId, cmd: ['hostname'], timeout: 10 });
    expect(hostname.exitCode).toBe(0);
    expect(hostname.stdout.toString().trim()).toBe('lifecycle');
    const failing = await e.execSync({ containerId, cmd: ['sh', '-c', 'echo bad >&2; exit 3'] });
    expect(failing.exitCode).toBe(3);
    expect(failing.stderr.toString()).toBe('bad\n');
    const ip = await e.execSync({ containerId, cmd: ['ip', '-4', 'addr', 'show', 'eth0'] });
    expect(ip.stdout.toString()).toContain(podStatus.network!.ip);

    const log = await waitFor(
      async () => {
        const text = await readFile(status.logPath, 'utf8').catch(() => '');
        return text.includes('hello') && text.includes('oops') ? text : undefined;
      },
      { timeoutMs: 10_000, what: 'container log lines' },
    );
    const lines = log.trim().split('\n');
    for (const line of lines) expect(line).toMatch(CRI_LOG_LINE);
    expect(lines.some((l) => / stdout F hello$/.test(l))).toBe(true);
    expect(lines.some((l) => / stderr F oops$/.test(l))).toBe(true);

    const pids = [status ? JSON.parse((await e.containerStatus({ containerId, verbose: true })).info.info!).pid : 0, JSON.parse((await e.podSandboxStatus({ podSandboxId, verbose: true })).info.info!).pid];
    const stats = (await e.containerStats({ containerId })).stats!;
    expect(BigInt(stats.memory!.workingSetBytes!.value)).toBeGreaterThan(0n);

    await e.stopContainer({ containerId, timeout: 2 });
    const stopped = (await e.containerStatus({ containerId })).status!;
    expect(stopped.state).toBe('CONTAINER_EXITED');
    expect(stopped.exitCode).toBe(143);
    expect(stopped.reason).toBe('Error');
    await e.stopContainer({ containerId, timeout: 2 });

    await e.stopPodSandbox({ podSandboxId });
    await e.stopPodSandbox({ podSandboxId });
    expect((await e.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_NOTREADY');
    expect(existsSync(netns)).toBe(false);
    expect(await leases(fx.net)).toEqual([]);

    await e.removeContainer({ containerId });
    await e.removeContainer({ containerId });
    await e.removePodSandbox({ podSandboxId });
    await e.removePodSandbox({ podSandboxId });
    expect((await e.listPodSandbox({})).items.find((p) => p.id === podSandboxId)).toBeUndefined();
    expect((await e.listContainers({})).containers).toEqual([]);
    expect(await mountsUnder(fx.dir)).toEqual([]);
    expect(await anyAlive(pids)).toBe(false);
  });
});
