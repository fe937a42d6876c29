// Pods with a user namespace of their own (namespace_options.userns_options
// mode POD): containers run in it with the pod's mappings, the image rootfs
// shows its files with their image owners inside through idmapped layers
// (the layers on disk are untouched), the pod's files and /dev/shm belong to
// the pod's root, with and without a pause container; bad options are refused
// before anything is made; nothing is left behind.
import { chmod, chown, mkdir, readdir, readlink, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKind } from '../../src/runtime/errors.js';
import { BUSYBOX_REF, leases, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

const HOST_ID = 231072;
const LENGTH = 65536;
const MAPPING = [{ containerId: 0, hostId: HOST_ID, length: LENGTH }];

function usernsPod(name: string, pid: 'POD' | 'CONTAINER', userns: Record<string, unknown> = { mode: 'POD', uids: MAPPING, gids: MAPPING }, extra: Record<string, unknown> = {}) {
  return podConfig(name, {
    linux: { securityContext: { namespaceOptions: { network: 'POD', pid, ipc: 'POD', usernsOptions: userns, ...extra } } },
  });
}

async function pidOf(fx: RuntimeFixture, containerId: string): Promise<number> {
  return JSON.parse((await fx.engine.containerStatus({ containerId, verbose: true })).info.info!).pid as number;
}

describe('runtime: pods with a user namespace', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
    // mkdtemp made the fixture dir 0700; a node's /run is 0755. runc reaches the rootfs as the pod's root.
    await chmod(fx.dir, 0o711);
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  async function sh(containerId: string, script: string): Promise<string> {
    const r = await fx.engine.execSync({ containerId, cmd: ['sh', '-c', script], timeout: 20 });
    expect(r.stderr.toString()).toBe('');
    return r.stdout.toString();
  }

  for (const pid of ['CONTAINER', 'POD'] as const) {
    it(`runs the pod's containers in one user namespace with the pod's mappings, files owned right (pid ${pid}: ${pid === 'POD' ? 'pause' : 'no pause'})`, async () => {
      const e = fx.engine;
      const pod = usernsPod(`userns-${pid.toLowerCase()}`, pid);
      const namespaceOptions = { network: 'POD', pid, ipc: 'POD', usernsOptions: { mode: 'POD', uids: MAPPING, gids: MAPPING } } as const;
      const { podSandboxId } = await e.runPodSandbox({ config: pod });
      const ids: string[] = [];
      for (const name of ['a', 'b']) {
        const { containerId } = await e.createContainer({
          podSandboxId,
          sandboxConfig: pod,
          config: { metadata: { name }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], linux: { securityContext: { namespaceOptions } } },
        });
        await e.startContainer({ containerId });
        ids.push(containerId);
      }
      const [a, b] = ids as [string, string];
      // Inside: the pod's mapping, root is root, the image's files are root's, writes work.
      expect((await sh(a, 'cat /proc/self/uid_map /proc/self/gid_map')).split('\n').map((l) => l.trim().split(/\s+/).join(' '))).toEqual([
        `0 ${HOST_ID} ${LENGTH}`,
        `0 ${HOST_ID} ${LENGTH}`,
        '',
      ]);
      expect((await sh(a, 'id -u; id -g')).trim()).toBe('0\n0');
      expect(await sh(a, 'stat -c "%u:%g %n" / /bin /bin/busybox /etc/hosts /etc/hostname /etc/resolv.conf /dev/shm')).toBe(
        ['/', '/bin', '/bin/busybox', '/etc/hosts', '/etc/hostname', '/etc/resolv.conf', '/dev/shm'].map((p) => `0:0 ${p}\n`).join(''),
      );
      await sh(a, 'echo made > /made-inside && mkdir /dir-inside && echo x >> /etc/hosts && echo shm > /dev/shm/token && hostname');
      // One user namespace (and network, IPC, UTS) for the pod's containers.
      const [pa, pb] = [await pidOf(fx, a), await pidOf(fx, b)];
      for (const ns of ['user', 'net', 'ipc', 'uts']) expect(await readlink(`/proc/${pa}/ns/${ns}`)).toBe(await readlink(`/proc/${pb}/ns/${ns}`));
      expect(await readlink(`/proc/${pa}/ns/user`)).not.toBe(await readlink('/proc/self/ns/user'));
      expect(await sh(b, 'cat /dev/shm/token')).toBe('shm\n');
      // Outside: the container's root runs as the mapped host ID; what it made is the mapped root's.
      expect((await stat(`/proc/${pa}`)).uid).toBe(HOST_ID);
      const upper = join(fx.options.root, 'containers-rw', a, 'fs');
      expect(((await stat(join(upper, 'made-inside'))).uid)).toBe(HOST_ID);
      expect(((await stat(join(upper, 'dir-inside'))).gid)).toBe(HOST_ID);
      const status = await e.podSandboxStatus({ podSandboxId });
      expect(status.status?.linux?.namespaces?.options?.usernsOptions).toMatchObject({ mode: 'POD', uids: MAPPING, gids: MAPPING });
      await e.removePodSandbox({ podSandboxId });
      expect(await mountsUnder(fx.dir)).toEqual([]);
      expect(await readdir(join(fx.options.state, 'userns'))).toEqual([]);
      expect(await leases(fx.net)).toEqual([]);
    }, 120_000);
  }

  it('keeps image layers as they are: only the overlay sees them through the mapping', async () => {
    const e = fx.engine;
    const pod = usernsPod('userns-layers', 'CONTAINER');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    expect((await sh(containerId, 'stat -c %u /bin/busybox')).trim()).toBe('0');
    const layers = await readdir(join(fx.options.root, 'snapshots'));
    const owners: number[] = [];
    for (const layer of layers) {
      const st = await stat(join(fx.options.root, 'snapshots', layer, 'fs', 'bin', 'busybox')).catch(() => undefined);
      if (st) owners.push(st.uid);
    }
    expect(owners).toEqual([0]);
    await e.removePodSandbox({ podSandboxId });
    expect(await mountsUnder(fx.dir)).toEqual([]);
  }, 120_000);

  it('makes and runs containers in a pod with a user namespace after the engine reopens (as after a daemon restart)', async () => {
    const pod = usernsPod('userns-reopen', 'CONTAINER');
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: pod });
    const e = await fx.reopen();
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const r = await e.execSync({ containerId, cmd: ['stat', '-c', '%u', '/bin/busybox', '/etc/hosts'], timeout: 20 });
    expect(r.stdout.toString()).toBe('0\n0\n');
    await e.removePodSandbox({ podSandboxId });
    expect(await mountsUnder(fx.dir)).toEqual([]);
    expect(await readdir(join(fx.options.state, 'userns-share'))).toEqual([]);
  }, 120_000);

  it('shows volumes through idmapped mounts: host owners inside, the container\'s writes land with its IDs, a file volume too', async () => {
    const e = fx.engine;
    const vol = join(fx.dir, 'vol');
    await mkdir(vol, { mode: 0o755 });
    await writeFile(join(vol, 'root-file'), 'r');
    await writeFile(join(vol, 'user-file'), 'u');
    await chown(join(vol, 'user-file'), 1000, 1001);
    const single = join(fx.dir, 'single-file');
    await writeFile(single, 'one\n');
    const pod = usernsPod('userns-volumes', 'CONTAINER');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: {
        metadata: { name: 'c' },
        image: { image: BUSYBOX_REF },
        command: ['sleep', '3600'],
        mounts: [
          { containerPath: '/vol', hostPath: vol },
          { containerPath: '/etc/single', hostPath: single, readonly: true },
        ],
      },
    });
    await e.startContainer({ containerId });
    expect(await sh(containerId, 'stat -c "%u:%g %n" /vol /vol/root-file /vol/user-file /etc/single; cat /etc/single')).toBe('0:0 /vol\n0:0 /vol/root-file\n1000:1001 /vol/user-file\n0:0 /etc/single\none\n');
    await sh(containerId, 'echo w > /vol/written && chown 7:8 /vol/written');
    const written = await stat(join(vol, 'written'));
    expect([written.uid, written.gid]).toEqual([7, 8]);
    // The volume's status shows the host path asked for, not the idmapped clone.
    const status = await e.containerStatus({ containerId });
    expect(status.status?.mounts?.map((m) => m.hostPath)).toEqual([vol, single]);
    await e.removeContainer({ containerId });
    expect(await readdir(join(fx.options.state, 'userns-share', podSandboxId, 'volumes'))).toEqual([]);
    await e.removePodSandbox({ podSandboxId });
    expect(await mountsUnder(fx.dir)).toEqual([]);
    expect(await readdir(vol)).toEqual(['root-file', 'user-file', 'written'].sort());
  }, 120_000);

  it('refuses a volume whose file system cannot be idmapped (InvalidArgument), leaving nothing', async () => {
    const e = fx.engine;
    const pod = usernsPod('userns-proc-volume', 'CONTAINER');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const create = e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['true'], mounts: [{ containerPath: '/host-proc', hostPath: '/proc/sys' }] },
    });
    await expect(create).rejects.toThrow(/does not support idmapped mounts/);
    await create.catch((error) => expect(isKind(error, 'invalid-argument')).toBe(true));
    expect((await e.listContainers({ filter: { podSandboxId } })).containers).toEqual([]);
    expect(await readdir(join(fx.options.state, 'userns-share', podSandboxId, 'volumes')).catch(() => [])).toEqual([]);
    await e.removePodSandbox({ podSandboxId });
    expect(await mountsUnder(fx.dir)).toEqual([]);
  }, 60_000);

  it('sets the pod\'s network and IPC sysctls and hostname in namespaces owned by its user namespace', async () => {
    const e = fx.engine;
    const pod = podConfig('userns-sysctls', {
      hostname: 'userns-host',
      linux: {
        sysctls: { 'net.ipv4.ip_unprivileged_port_start': '0', 'kernel.shmmni': '123' },
        securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD', usernsOptions: { mode: 'POD', uids: MAPPING, gids: MAPPING } } },
      },
    });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    expect(await sh(containerId, 'cat /proc/sys/net/ipv4/ip_unprivileged_port_start /proc/sys/kernel/shmmni; hostname')).toBe('0\n123\nuserns-host\n');
    await e.removePodSandbox({ podSandboxId });
  }, 60_000);

  it('answers Status with user_namespaces for runc', async () => {
    const status = await fx.engine.status({});
    expect(status.runtimeHandlers.find((h) => h.name === '')?.features?.userNamespaces).toBe(true);
    expect(status.runtimeHandlers.find((h) => h.name === 'runc')?.features?.userNamespaces).toBe(true);
  });

  const refusals: Array<[string, Record<string, unknown>, RegExp, Record<string, unknown>?]> = [
    ['mode CONTAINER', { mode: 'CONTAINER' }, /mode CONTAINER is not supported/],
    ['mode TARGET', { mode: 'TARGET' }, /mode TARGET is not supported/],
    ['two uid mappings', { mode: 'POD', uids: [...MAPPING, { containerId: 0, hostId: 2000, length: 100000 }], gids: MAPPING }, /only one uid mapping/],
    ['two gid mappings', { mode: 'POD', uids: MAPPING, gids: [...MAPPING, { containerId: 0, hostId: 2000, length: 100000 }] }, /only one gid mapping/],
    ['container ID 0 unmapped', { mode: 'POD', uids: [{ containerId: 1, hostId: 1000, length: 100000 }], gids: [{ containerId: 1, hostId: 1000, length: 100000 }] }, /must map container ID 0/],
    ['no mapping', { mode: 'POD' }, /needs a uid mapping/],
    ['an empty mapping', { mode: 'POD', uids: [{ containerId: 0, hostId: 1000, length: 0 }], gids: MAPPING }, /length must be at least 1/],
    ['a mapping past 2^32', { mode: 'POD', uids: [{ containerId: 0, hostId: 2 ** 32 - 10, length: 100 }], gids: MAPPING }, /out of range/],
    ['mappings with mode NODE', { mode: 'NODE', uids: MAPPING, gids: MAPPING }, /NODE takes no uid or gid mappings/],
    ['the host network', { mode: 'POD', uids: MAPPING, gids: MAPPING }, /node's network namespace/, { network: 'NODE' }],
    ['the host IPC', { mode: 'POD', uids: MAPPING, gids: MAPPING }, /node's ipc namespace/, { ipc: 'NODE' }],
  ];
  for (const [what, userns, message, extra] of refusals) {
    it(`refuses a pod with ${what} (InvalidArgument) and makes nothing`, async () => {
      const before = await readdir(join(fx.options.root, 'sandboxes')).catch(() => [] as string[]);
      const run = fx.engine.runPodSandbox({ config: usernsPod(`refused-${what.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`, 'CONTAINER', userns, extra) });
      await expect(run).rejects.toThrow(message);
      await run.catch((error) => expect(isKind(error, 'invalid-argument')).toBe(true));
      expect(await readdir(join(fx.options.root, 'sandboxes')).catch(() => [] as string[])).toEqual(before);
      expect(await readdir(join(fx.options.state, 'userns'))).toEqual([]);
    });
  }

  it('refuses (FailedPrecondition) while a directory above the state dir keeps the pod\'s root out', async () => {
    await chmod(fx.dir, 0o700);
    try {
      const run = fx.engine.runPodSandbox({ config: usernsPod('userns-unreachable', 'CONTAINER') });
      await expect(run).rejects.toThrow(/keeps the pod's root from the pod's rootfs/);
      await run.catch((error) => expect(isKind(error, 'failed-precondition')).toBe(true));
    } finally {
      await chmod(fx.dir, 0o711);
    }
    expect(await readdir(join(fx.options.state, 'userns'))).toEqual([]);
  });

  it('runs a pod with mode NODE in the node user namespace, as before', async () => {
    const e = fx.engine;
    const pod = usernsPod('userns-node', 'CONTAINER', { mode: 'NODE' });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    expect(await readlink(`/proc/${await pidOf(fx, containerId)}/ns/user`)).toBe(await readlink('/proc/self/ns/user'));
    await e.removePodSandbox({ podSandboxId });
  }, 60_000);
});
