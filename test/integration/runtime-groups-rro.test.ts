// Two CRI features the engine announces in Status: the supplemental groups policy (Merge adds
// the groups the image's /etc/group puts the user in, Strict only what the pod asks for; the
// container status reports the groups its first process got) and recursive read-only mounts (a
// bind mount read-only with every mount under it; refused unless read-only and private).
import { mkdir, writeFile } from 'node:fs/promises';
import { release } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelHasMountSetattr } from '../../src/runtime/oci/runtime-features.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { run } from '../rig/proc.js';
import { openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

/** An image whose /etc/group puts `app` (1000) in group 50000, as critest's predefined-group image. */
const GROUPS_REF = 'isulats-test/groups:rt';

/** Runs `pod`, gives its ID to `body`, and removes the pod (and everything in it) afterwards. */
async function inPod<T>(engine: RuntimeFixture['engine'], pod: Record<string, any>, body: (podSandboxId: string) => Promise<T>): Promise<T> {
  const { podSandboxId } = await engine.runPodSandbox({ config: pod });
  try {
    return await body(podSandboxId);
  } finally {
    await engine.removePodSandbox({ podSandboxId });
  }
}

/** Whether the host's runc can do `rro`: runc >= 1.1 lists it in `runc features`, on Linux >= 5.12. */
async function runcListsRro(): Promise<boolean> {
  const { code, stdout } = await run('runc', ['features'], { check: false });
  return code === 0 && ((JSON.parse(stdout) as { mountOptions?: string[] }).mountOptions ?? []).includes('rro') && kernelHasMountSetattr(release());
}

describe('runtime: supplemental groups policy and recursive read-only mounts', () => {
  let fx: RuntimeFixture;
  let rro: boolean;

  beforeAll(async () => {
    fx = await openFixture();
    const rootfs = join(fx.dir, 'groups-rootfs');
    await populateBusyboxRootfs(rootfs);
    await writeFile(join(rootfs, 'etc/group'), 'root:x:0:\napp:x:1000:\ngroup-defined-in-image:x:50000:app\n');
    await fx.engine.images.buildFromRootfs(rootfs, GROUPS_REF, { Cmd: ['sh'], User: 'app', created: '2024-01-01T00:00:00Z' });
    rro = await runcListsRro();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('announces the supplemental groups policy, and rro for the handlers whose runc lists it', async () => {
    const status = await fx.engine.status({});
    expect(status.features).toMatchObject({ supplementalGroupsPolicy: true });
    expect(status.runtimeHandlers?.map((h) => [h.name, h.features?.recursiveReadOnlyMounts])).toEqual([['', rro], ['runc', rro]]);
  });

  describe('supplemental_groups_policy', () => {
    /** A pod and a running container as critest makes them: run as 1000, supplemental group 1234. */
    async function groupsOf(policy: 'Merge' | 'Strict' | undefined, podPolicy?: 'Strict') {
      const pod = podConfig(`groups-${policy ?? 'unset'}-${podPolicy ?? 'merge'}`, {
        linux: { securityContext: { namespaceOptions: { pid: 'CONTAINER' }, ...(podPolicy ? { supplementalGroupsPolicy: podPolicy } : {}) } },
      });
      return inPod(fx.engine, pod, async (podSandboxId) => {
        const { containerId } = await fx.engine.createContainer({
          podSandboxId,
          sandboxConfig: pod,
          config: {
            metadata: { name: 'groups' },
            image: { image: GROUPS_REF },
            command: ['sh', '-c', 'sleep 3600'],
            linux: {
              securityContext: {
                runAsUser: { value: 1000 },
                supplementalGroups: [1234],
                namespaceOptions: { pid: 'CONTAINER' },
                ...(policy ? { supplementalGroupsPolicy: policy } : {}),
              },
            },
          },
        });
        await fx.engine.startContainer({ containerId });
        const exec = await fx.engine.execSync({ containerId, cmd: ['id', '-G'], timeout: 10 });
        // The container's first process (PID 1 in its own PID namespace), as the kernel holds it.
        const init = await fx.engine.execSync({ containerId, cmd: ['grep', '^Groups:', '/proc/1/status'], timeout: 10 });
        const { status } = await fx.engine.containerStatus({ containerId });
        return { exec: exec.stdout.toString(), init: init.stdout.toString().replace(/^Groups:\s*/, '').trim(), user: status?.user };
      });
    }

    it.each([
      ['unset (Merge)', undefined],
      ['Merge', 'Merge' as const],
    ])("%s: the image's groups for the user join the pod's", async (_name, policy) => {
      const got = await groupsOf(policy);
      expect(got.exec).toBe('1000 1234 50000\n');
      expect(got.init).toBe('1000 1234 50000');
      expect(got.user).toEqual({ linux: { uid: '1000', gid: '1000', supplementalGroups: ['1000', '50000', '1234'] } });
    });

    it("Strict: only the primary group and the pod's, none from the image's /etc/group", async () => {
      const got = await groupsOf('Strict');
      expect(got.exec).toBe('1000 1234\n');
      expect(got.init).toBe('1000 1234');
      expect(got.user).toEqual({ linux: { uid: '1000', gid: '1000', supplementalGroups: ['1000', '1234'] } });
    });

    it("Strict on the pod applies to a container that does not say", async () => {
      const got = await groupsOf(undefined, 'Strict');
      expect(got.exec).toBe('1000 1234\n');
      expect(got.user?.linux?.supplementalGroups).toEqual(['1000', '1234']);
    });
  });

  describe('recursive_read_only mounts', () => {
    it('makes a mount under the bind source read-only too, where a plain read-only mount leaves it writable', async (ctx) => {
      if (!rro) ctx.skip();
      const source = join(fx.dir, 'rro-src');
      const sub = join(source, 'tmpfs');
      await mkdir(sub, { recursive: true });
      await run('mount', ['-t', 'tmpfs', 'none', sub]);
      const pod = podConfig('rro');
      try {
        await inPod(fx.engine, pod, async (podSandboxId) => {
          const { containerId } = await fx.engine.createContainer({
            podSandboxId,
            sandboxConfig: pod,
            config: {
              metadata: { name: 'rro' },
              image: { image: GROUPS_REF },
              command: ['sleep', '3600'],
              linux: { securityContext: { runAsUser: { value: 0 } } },
              mounts: [
                { containerPath: '/ro', hostPath: source, readonly: true },
                { containerPath: '/rro', hostPath: source, readonly: true, recursiveReadOnly: true },
              ],
            },
          });
          await fx.engine.startContainer({ containerId });
          const sh = async (script: string) => {
            const r = await fx.engine.execSync({ containerId, cmd: ['sh', '-c', script], timeout: 10 });
            return { code: r.exitCode, out: `${r.stdout.toString()}${r.stderr.toString()}` };
          };
          expect(await sh('touch /ro/tmpfs/plain')).toEqual({ code: 0, out: '' });
          expect(await sh('touch /rro/tmpfs/recursive')).toEqual({ code: 1, out: 'touch: /rro/tmpfs/recursive: Read-only file system\n' });
          expect(await sh('touch /rro/top')).toMatchObject({ code: 1, out: expect.stringContaining('Read-only file system') });
          const { status } = await fx.engine.containerStatus({ containerId });
          expect(status?.mounts.map((m) => [m.containerPath, m.readonly, m.recursiveReadOnly])).toEqual([['/ro', true, false], ['/rro', true, true]]);
        });
      } finally {
        await run('umount', [sub], { check: false });
      }
    });

    it.each([
      ['not read-only', { readonly: false }, /recursive_read_only needs readonly/],
      ['host-to-container propagation', { readonly: true, propagation: 'PROPAGATION_HOST_TO_CONTAINER' as const }, /needs propagation PROPAGATION_PRIVATE/],
      ['bidirectional propagation', { readonly: true, propagation: 'PROPAGATION_BIDIRECTIONAL' as const }, /needs propagation PROPAGATION_PRIVATE/],
    ])('refuses a recursive read-only mount %s with InvalidArgument, and leaves no container', async (_name, mount, message) => {
      const pod = podConfig('rro-bad');
      await inPod(fx.engine, pod, async (podSandboxId) => {
        const config = {
          metadata: { name: 'rro-bad' },
          image: { image: GROUPS_REF },
          command: ['sleep', '3600'],
          mounts: [{ containerPath: '/mnt', hostPath: fx.dir, recursiveReadOnly: true, ...mount }],
        };
        await expect(fx.engine.createContainer({ podSandboxId, config, sandboxConfig: pod }))
          .rejects.toMatchObject({ kind: 'invalid-argument', message: expect.stringMatching(message) });
        expect((await fx.engine.listContainers({ filter: { podSandboxId } })).containers).toEqual([]);
      });
    });
  });
});
