// Runtime handlers: RunPodSandbox's runtime_handler picks the OCI runtime (runc or crun, both
// runc-compatible CLIs under conmon) of a pod and all its containers, for every later call.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { release } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/runtime/engine.js';
import { kernelHasMountSetattr } from '../../src/runtime/oci/runtime-features.js';
import { CRUN, crunForThisHost } from '../rig/crun-path.js';
import { run } from '../rig/proc.js';
import { BUSYBOX_REF, leases, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

// A handler's runtime-args reach every crun call, conmon's included.
const CRUN_ARGS = ['--cgroup-manager=cgroupfs'];

async function listed(binary: string, root: string): Promise<string[]> {
  const { stdout } = await run(binary, ['--root', root, 'list', '-q']);
  return stdout.split('\n').map((l) => l.trim()).filter(Boolean);
}

async function cmdline(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
}

describe('runtime: runtime handlers (runc and crun)', () => {
  let fx: RuntimeFixture;
  let crunRoot: string;
  let crunPath: string;
  let runcRoot: string;

  beforeAll(async () => {
    crunPath = await crunForThisHost();
    fx = await openFixture({ runtimes: { crun: { path: crunPath, runtimeArgs: CRUN_ARGS } } });
    crunRoot = join(fx.options.state, 'runtimes', 'crun');
    runcRoot = join(fx.options.state, 'runc');
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('lists the default and each configured handler in Status, with paths and roots in verbose info', async () => {
    const status = await fx.engine.status({ verbose: true });
    expect(status.runtimeHandlers?.map((h) => h.name)).toEqual(['', 'runc', 'crun']);
    expect(JSON.parse(status.info.runtimes!)).toEqual({
      default: 'runc',
      handlers: { runc: { path: 'runc', runtimeArgs: [], root: runcRoot }, crun: { path: crunPath, runtimeArgs: CRUN_ARGS, root: crunRoot } },
    });
  });

  it("announces recursive read-only mounts for a handler whose own `features` lists rro, and only for it", async () => {
    // runc 1.1 lists rro; crun 1.8 has no `features` command at all. rro also needs Linux 5.12.
    const listsRro = async (binary: string, args: string[]) => {
      const { code, stdout } = await run(binary, [...args, 'features'], { check: false });
      return code === 0 && (JSON.parse(stdout) as { mountOptions?: string[] }).mountOptions?.includes('rro') === true && kernelHasMountSetattr(release());
    };
    const runc = await listsRro('runc', []);
    const crun = await listsRro(crunPath, CRUN_ARGS);
    const status = await fx.engine.status({});
    // User namespaces: runc only (the default handler "" is runc here).
    expect(status.runtimeHandlers).toEqual([
      { name: '', features: { recursiveReadOnlyMounts: runc, userNamespaces: true } },
      { name: 'runc', features: { recursiveReadOnlyMounts: runc, userNamespaces: true } },
      { name: 'crun', features: { recursiveReadOnlyMounts: crun, userNamespaces: false } },
    ]);
    expect(status.features?.supplementalGroupsPolicy).toBe(true);
    if (crun) return;
    // A handler that cannot do it refuses the mount, and leaves no container behind.
    const pod = podConfig('rro-crun');
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: pod, runtimeHandler: 'crun' });
    try {
      const mounts = [{ containerPath: '/mnt', hostPath: fx.dir, readonly: true, recursiveReadOnly: true }];
      const config = { metadata: { name: 'rro' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], mounts };
      await expect(fx.engine.createContainer({ podSandboxId, config, sandboxConfig: pod }))
        .rejects.toMatchObject({ kind: 'invalid-argument', message: expect.stringMatching(/recursive_read_only is not supported by the pod's runtime handler/) });
      expect((await fx.engine.listContainers({ filter: { podSandboxId } })).containers).toEqual([]);
    } finally {
      await fx.engine.removePodSandbox({ podSandboxId });
    }
  });

  it('runs a crun pod and its container under crun beside a runc pod, through exec, recovery, stop and removal', async () => {
    const e = fx.engine;
    const crunPod = podConfig('web-crun-7f9c4b8d6e-x2k4p', { metadata: { name: 'web-crun-7f9c4b8d6e-x2k4p', namespace: 'rt-handlers', uid: 'a3c1f0d2-5b6e-4f7a-9c8d-1e2f3a4b5c6d', attempt: 0 } });
    const runcPod = podConfig('web-runc-5d8b7c9f4a-q7m2z', { metadata: { name: 'web-runc-5d8b7c9f4a-q7m2z', namespace: 'rt-handlers', uid: 'b4d2e1f3-6c7f-4a8b-8d9e-2f3a4b5c6d7e', attempt: 0 } });
    const { podSandboxId: crunPodId } = await e.runPodSandbox({ config: crunPod, runtimeHandler: 'crun' });
    const { podSandboxId: runcPodId } = await e.runPodSandbox({ config: runcPod, runtimeHandler: '' });
    const container = (name: string) => ({ metadata: { name }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], logPath: `${name}/0.log` });
    const { containerId: crunCtr } = await e.createContainer({ podSandboxId: crunPodId, config: container('app'), sandboxConfig: crunPod });
    const { containerId: runcCtr } = await e.createContainer({ podSandboxId: runcPodId, config: container('app'), sandboxConfig: runcPod });
    await e.startContainer({ containerId: crunCtr });
    await e.startContainer({ containerId: runcCtr });

    expect((await e.podSandboxStatus({ podSandboxId: crunPodId })).status?.runtimeHandler).toBe('crun');
    expect((await e.podSandboxStatus({ podSandboxId: runcPodId })).status?.runtimeHandler).toBe('');
    expect((await listed(CRUN, crunRoot)).sort()).toEqual([crunCtr, crunPodId].sort());
    expect((await listed('runc', runcRoot)).sort()).toEqual([runcCtr, runcPodId].sort());
    // conmon drives the container's runtime: crun for the crun pod's container, runc for the other.
    const conmonOf = async (id: string) => cmdline(Number((await readFile(join(fx.options.root, 'containers', id, 'bundle', 'conmon.pid'), 'utf8')).trim()));
    const crunConmon = await conmonOf(crunCtr);
    expect(crunConmon[crunConmon.indexOf('-r') + 1]).toBe(crunPath);
    expect(crunConmon).toContain('--cgroup-manager=cgroupfs');
    expect(crunConmon).toContain(crunRoot);
    const runcConmon = await conmonOf(runcCtr);
    expect(runcConmon[runcConmon.indexOf('-r') + 1]).toBe('/usr/sbin/runc');

    const spawned: string[] = [];
    const unhook = e.ctx.runner.addHook((cmd) => { spawned.push(cmd); });
    try {
      const out = await e.execSync({ containerId: crunCtr, cmd: ['sh', '-c', 'echo from-crun; cat /proc/1/cmdline'], timeout: 10 });
      expect(out.exitCode).toBe(0);
      expect(out.stdout.toString()).toContain('from-crun');
      expect((await e.containerStatus({ containerId: crunCtr })).status?.state).toBe('CONTAINER_RUNNING');
    } finally {
      unhook();
    }
    expect(spawned).toContain(crunPath);
    expect(spawned).not.toContain('runc');

    // A new engine on the same root (a restarted daemon) finds the crun containers under crun.
    const e2 = await fx.reopen();
    expect((await e2.containerStatus({ containerId: crunCtr })).status?.state).toBe('CONTAINER_RUNNING');
    expect((await e2.execSync({ containerId: crunCtr, cmd: ['true'], timeout: 10 })).exitCode).toBe(0);
    await e2.updateContainerResources({ containerId: crunCtr, linux: { cpuShares: '512', memoryLimitInBytes: '134217728' } });
    expect((await e2.containerStats({ containerId: crunCtr })).stats?.attributes?.id).toBe(crunCtr);

    await e2.stopContainer({ containerId: crunCtr, timeout: 2 });
    expect((await e2.containerStatus({ containerId: crunCtr })).status?.state).toBe('CONTAINER_EXITED');
    await e2.removeContainer({ containerId: crunCtr });
    await e2.stopPodSandbox({ podSandboxId: crunPodId });
    await e2.removePodSandbox({ podSandboxId: crunPodId });
    expect(await listed(CRUN, crunRoot)).toEqual([]);
    // The runc pod is untouched by all of it.
    expect((await e2.containerStatus({ containerId: runcCtr })).status?.state).toBe('CONTAINER_RUNNING');
    await e2.removePodSandbox({ podSandboxId: runcPodId });
    expect(await listed('runc', runcRoot)).toEqual([]);
  }, 120_000);

  it('keeps a pod on the runtime it was made with when default-runtime changes', async () => {
    const pod = podConfig('api-default-8c6d4b2a9f-h5j7k');
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: pod, runtimeHandler: '' });
    const { containerId } = await fx.engine.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'api' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await fx.engine.startContainer({ containerId });
    // The same root reopened with crun as the default (a daemon restarted with a new daemon.json).
    const e2 = await Engine.open({ ...fx.options, defaultRuntime: 'crun' });
    try {
      expect((await e2.podSandboxStatus({ podSandboxId })).status?.runtimeHandler).toBe('');
      expect((await e2.execSync({ containerId, cmd: ['true'], timeout: 10 })).exitCode).toBe(0);
      await e2.stopContainer({ containerId, timeout: 2 });
      expect((await e2.containerStatus({ containerId })).status?.state).toBe('CONTAINER_EXITED');
      await e2.removePodSandbox({ podSandboxId });
      expect(await listed('runc', runcRoot)).toEqual([]);
    } finally {
      await e2.close();
    }
  }, 60_000);

  it('refuses an unknown handler with InvalidArgument and leaves nothing behind', async () => {
    const e = fx.engine;
    const pod = podConfig('web-kata-6b9d7c8f5e-r3n8w');
    await expect(e.runPodSandbox({ config: pod, runtimeHandler: 'kata' })).rejects.toMatchObject({ kind: 'invalid-argument', message: 'no runtime for "kata" is configured' });
    expect(await readdir(join(fx.options.root, 'sandboxes'))).toEqual([]);
    expect(await readdir(join(fx.options.root, 'names', 'sandboxes'))).toEqual([]);
    expect(await readdir(join(fx.options.state, 'netns'))).toEqual([]);
    expect(await leases(fx.net)).toEqual([]);
    expect(await mountsUnder(fx.dir)).toEqual([]);
    expect(existsSync(join(fx.options.state, 'runtimes', 'kata'))).toBe(false);
  });
});
