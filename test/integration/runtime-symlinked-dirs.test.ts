// Root and state reached through links, as on a systemd node: the default state /var/run/isulats
// with /var/run a link to /run. The engine resolves both at open: runc refuses a rootfs reached
// through a link, and mountinfo lists the pins by their real paths, so a rollback or a removal
// that looked for the linked spelling left the pins mounted.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releasePins } from '../../src/runtime/network/netns.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { run } from '../rig/proc.js';
import { BUSYBOX_REF, kubeletShapedPod, leases, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

describe('runtime: root and state reached through links', () => {
  let links: string;
  let fx: RuntimeFixture;

  beforeAll(async () => {
    links = await makeTempDir('istln-');
    // /run and /var/lib for real; var/run -> ../run, as Debian has it, and a linked root too.
    mkdirSync(join(links, 'run'));
    mkdirSync(join(links, 'var'));
    mkdirSync(join(links, 'lib-real'));
    symlinkSync('../run', join(links, 'var', 'run'));
    symlinkSync(join(links, 'lib-real'), join(links, 'var', 'lib'));
    fx = await openFixture({ root: join(links, 'var', 'lib', 'isulats'), state: join(links, 'var', 'run', 'isulats') });
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
    for (const mount of await mountsUnder(links)) await run('umount', ['-l', mount], { check: false });
    if (links) await removeTempDir(links);
  }, 120_000);

  it('runs a pod with a pause container and a container in it, and removes it leaving no mount', async () => {
    const e = fx.engine;
    const pod = kubeletShapedPod('linked-state', 'rt-test');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const status = await e.podSandboxStatus({ podSandboxId });
    expect(status.status?.state).toBe('SANDBOX_READY');
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['sleep', '600'] } });
    await e.startContainer({ containerId });
    expect((await e.containerStatus({ containerId })).status?.state).toBe('CONTAINER_RUNNING');
    await e.stopPodSandbox({ podSandboxId });
    await e.removePodSandbox({ podSandboxId });
    expect(await mountsUnder(links)).toEqual([]);
  });

  it('rolls back a failed RunPodSandbox leaving no namespace pin mounted', async () => {
    const e = fx.engine;
    const remove = e.ctx.runner.addHook((cmd, args) => {
      if (cmd === 'runc' && args.includes('run')) throw new Error('injected: runc run failed');
    });
    try {
      await expect(e.runPodSandbox({ config: kubeletShapedPod('linked-rollback', 'rt-test') })).rejects.toThrow('injected: runc run failed');
    } finally {
      remove();
    }
    expect(await mountsUnder(links)).toEqual([]);
    expect(readdirSync(join(links, 'run', 'isulats', 'netns'))).toEqual([]);
    expect(readdirSync(join(links, 'lib-real', 'isulats', 'sandboxes'))).toEqual([]);
    expect(await leases(fx.net)).toEqual([]);
  });

  it('releases a pin named through a link (mountinfo lists it by its real path)', async () => {
    const pin = join(links, 'run', 'pin-net');
    writeFileSync(pin, '');
    execFileSync('mount', ['--bind', '/proc/self/ns/net', pin]);
    expect(await mountsUnder(links)).toEqual([pin]);
    await releasePins([join(links, 'var', 'run', 'pin-net')]);
    expect(await mountsUnder(links)).toEqual([]);
    expect(existsSync(pin)).toBe(false);
  });
});
