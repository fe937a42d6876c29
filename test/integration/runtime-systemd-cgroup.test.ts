// The engine with `cgroup-manager: systemd` on this host (no systemd here: runc's start is stopped
// by a hook that reads the spec it was given). kubelet's parent is the path of slices; runc gets
// the base name as `slice:isulats:<id>`, a pod without a parent goes to system.slice, a parent that
// is no slice is refused before anything is acquired, and no slice dir is made behind systemd.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKind } from '../../src/runtime/errors.js';
import { run } from '../rig/proc.js';
import { BUSYBOX_REF, kubeletShapedPod, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const HIERARCHIES = readdirSync('/sys/fs/cgroup', { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join('/sys/fs/cgroup', e.name));

describe('runtime: the systemd cgroup manager', () => {
  let fx: RuntimeFixture;
  const uid = randomUUID();
  const podSlice = `kubepods-burstable-pod${uid.replaceAll('-', '_')}.slice`;
  const kubeletParent = `/kubepods.slice/kubepods-burstable.slice/${podSlice}`;
  // kubepods.slice dirs this test would have made (none, with the fix), to remove whatever happens.
  const kubepodsBefore = new Set(HIERARCHIES.filter((h) => existsSync(join(h, 'kubepods.slice'))));

  /** The cgroupsPath of the spec of the next `runc run`, whose start then fails. */
  function captureRuncRun(): { path: () => string; remove: () => void } {
    let seen = '';
    const remove = fx.engine.ctx.runner.addHook((cmd, args) => {
      const bundle = args[args.indexOf('--bundle') + 1];
      if (!args.includes('run') || !bundle) return;
      seen = (JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')) as { linux: { cgroupsPath: string } }).linux.cgroupsPath;
      throw new Error('injected: no systemd on this host');
    });
    return { path: () => seen, remove };
  }

  beforeAll(async () => {
    fx = await openFixture({ cgroupManager: 'systemd', cgroupParent: '' });
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
    for (const h of HIERARCHIES) {
      if (!kubepodsBefore.has(h) && existsSync(join(h, 'kubepods.slice'))) await run('find', [join(h, 'kubepods.slice'), '-depth', '-type', 'd', '-exec', 'rmdir', '{}', ';'], { check: false });
    }
  }, 120_000);

  it('gives runc the base name of the slice path kubelet sends, and makes no slice dir itself', async () => {
    const e = fx.engine;
    const pod = kubeletShapedPod('sd-pod', 'rt-test', { linux: { cgroupParent: kubeletParent, securityContext: { namespaceOptions: { network: 'POD' as const, pid: 'CONTAINER' as const, ipc: 'POD' as const } } } });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    try {
      for (const h of HIERARCHIES) if (!kubepodsBefore.has(h)) expect(existsSync(join(h, 'kubepods.slice')), h).toBe(false);
      const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['sleep', '60'] } });
      // runc starts at StartContainer (through conmon); the spec it will get is written at create.
      const record = await e.ctx.containers.mustGet(containerId);
      const spec = JSON.parse(readFileSync(join(record.bundle, 'config.json'), 'utf8')) as { linux: { cgroupsPath: string } };
      expect(spec.linux.cgroupsPath).toBe(`${podSlice}:isulats:${containerId}`);
    } finally {
      await e.removePodSandbox({ podSandboxId });
    }
  });

  it('puts a pod without a cgroup_parent into system.slice', async () => {
    const spec = captureRuncRun();
    try {
      await expect(fx.engine.runPodSandbox({ config: kubeletShapedPod('sd-noparent', 'rt-test') })).rejects.toThrow('injected');
    } finally {
      spec.remove();
    }
    expect(spec.path()).toMatch(/^system\.slice:isulats:[0-9a-f]{64}$/);
    expect(readdirSync(join(fx.options.root, 'sandboxes'))).toEqual([]);
  });

  it('refuses a parent that is not a slice with InvalidArgument, leaving nothing behind', async () => {
    const err = await fx.engine.runPodSandbox({ config: kubeletShapedPod('sd-bad', 'rt-test', { linux: { cgroupParent: '/kubepods/burstable/pod1' } }) }).catch((x: unknown) => x);
    expect(isKind(err, 'invalid-argument')).toBe(true);
    expect((err as Error).message).toMatch(/^cgroup parent "\/kubepods\/burstable\/pod1" is not a systemd slice/);
    expect(readdirSync(join(fx.options.root, 'sandboxes'))).toEqual([]);
    expect(readdirSync(join(fx.options.root, 'names', 'sandboxes'))).toEqual([]);
    expect(await mountsUnder(fx.dir)).toEqual([]);
  });
});
