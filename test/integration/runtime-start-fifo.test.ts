// StartContainer releases runc's init through its exec FIFO instead of running `runc start`
// (src/runtime/oci/exec-fifo-start.ts), with real runc: runc itself must then see the container
// running (no FIFO left), the container's process must be the one asked for, and everything after
// (exec, exit, restart, stop) must work as after `runc start`, which ISULATS_RUNC_START=runc keeps.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../rig/proc.js';
import { waitFor } from '../rig/wait.js';
import { BUSYBOX_REF, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

describe('StartContainer through the exec FIFO', () => {
  let fx: RuntimeFixture;
  const runcCalls: string[] = [];
  let unhook: () => void;

  beforeAll(async () => {
    fx = await openFixture();
    unhook = fx.engine.ctx.runner.addHook((cmd, args) => {
      if (cmd.endsWith('runc')) runcCalls.push(args.find((a) => ['create', 'start', 'run', 'exec', 'delete', 'kill', 'state'].includes(a)) ?? args.join(' '));
    });
  }, 180_000);

  afterAll(async () => {
    unhook?.();
    delete process.env.ISULATS_RUNC_START;
    await fx?.dispose();
  }, 120_000);

  const runcRoot = () => join(fx.options.state, 'runc');
  const runcState = async (id: string) => JSON.parse((await run('runc', ['--root', runcRoot(), 'state', id])).stdout) as { status: string; pid: number };

  async function started(name: string, command: string[]): Promise<{ podSandboxId: string; containerId: string }> {
    const e = fx.engine;
    const pod = podConfig(`fifo-${name}`, { logDirectory: join(fx.dir, 'logs', name) });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name }, image: { image: BUSYBOX_REF }, command, logPath: `${name}.log` } });
    runcCalls.length = 0;
    await e.startContainer({ containerId });
    return { podSandboxId, containerId };
  }

  it('starts without a runc process; runc sees it running, the FIFO gone, and the process is the command', async () => {
    const { podSandboxId, containerId } = await started('sleeper', ['sleep', '3600']);
    expect(runcCalls).not.toContain('start');
    const state = await runcState(containerId);
    expect(state.status).toBe('running');
    expect(existsSync(join(runcRoot(), containerId, 'exec.fifo'))).toBe(false);
    expect(readFileSync(`/proc/${state.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)).toEqual(['sleep', '3600']);
    const status = await fx.engine.containerStatus({ containerId });
    expect(status.status?.state).toBe('CONTAINER_RUNNING');
    const r = await fx.engine.execSync({ containerId, cmd: ['sh', '-c', 'echo in-$((6*7))'], timeout: 10 });
    expect(r.stdout.toString()).toBe('in-42\n');
    await fx.engine.stopContainer({ containerId, timeout: 2 });
    expect((await fx.engine.containerStatus({ containerId })).status?.state).toBe('CONTAINER_EXITED');
    await fx.engine.removePodSandbox({ podSandboxId });
  }, 60_000);

  it('a process that exits at once: started, then EXITED with its code and its output logged; a restart runs it again', async () => {
    const { podSandboxId, containerId } = await started('quick', ['sh', '-c', 'echo ran-once; exit 4']);
    expect(runcCalls).not.toContain('start');
    const exited = await waitFor(async () => {
      const s = (await fx.engine.containerStatus({ containerId })).status;
      return s?.state === 'CONTAINER_EXITED' ? s : undefined;
    }, { timeoutMs: 15_000, intervalMs: 50, what: 'the container exiting' });
    expect(exited.exitCode).toBe(4);
    expect(readFileSync(exited.logPath!, 'utf8')).toContain('ran-once');
    runcCalls.length = 0;
    await fx.engine.restart(containerId, 0);
    expect(runcCalls).not.toContain('start'); // (conmon runs runc create: not the engine's runner)
    await waitFor(async () => (readFileSync(exited.logPath!, 'utf8').match(/ran-once/g)?.length ?? 0) >= 2 || undefined, { timeoutMs: 15_000, intervalMs: 50, what: 'the second run' });
    await fx.engine.removePodSandbox({ podSandboxId });
  }, 60_000);

  it('with ISULATS_RUNC_START=runc, runc start does it, to the same result', async () => {
    process.env.ISULATS_RUNC_START = 'runc';
    try {
      const { podSandboxId, containerId } = await started('by-runc', ['sleep', '3600']);
      expect(runcCalls).toContain('start');
      expect((await runcState(containerId)).status).toBe('running');
      await fx.engine.removePodSandbox({ podSandboxId });
    } finally {
      delete process.env.ISULATS_RUNC_START;
    }
  }, 60_000);
});
