// Images built to reach the host through their own symlinks, run by `isulats daemon` and by
// containerd 1.6 with the same requests. A user named by the pod or the image is looked up in the
// image's /etc/passwd and /etc/group resolved inside the rootfs (symlinks as if the rootfs were
// `/`): an `/etc` that points at the host's, by an absolute link, a climbing one or through another
// link, never hands the container a host user's uid, groups or HOME. The files and dirs a container
// gets (hosts, resolv.conf, hostname, its working dir, its volumes) are made inside its rootfs
// too, whatever links lead there: nothing appears on the host.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TarWriteEntry } from '../../src/runtime/image/tar-writer.js';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { layer, pushImage, type PushTarget } from './image-fixtures.js';

let daemon: IsulatsDaemon;
let isulats: RawCriClient;
let containerd: RawCriClient;
let registry: string;
/** A host dir the hostile links point into: it must stay empty. */
let hostDir: string;
const pods: Array<{ client: RawCriClient; id: string }> = [];

/** Static busybox, its shell and the applets the checks use. */
function busyboxEntries(): TarWriteEntry[] {
  return [
    { name: 'bin', type: 'directory', mode: 0o755 },
    { name: 'bin/busybox', type: 'file', data: readFileSync('/bin/busybox'), mode: 0o755 },
    ...['sh', 'id', 'sleep', 'cat', 'ls', 'pwd'].map((a): TarWriteEntry => ({ name: `bin/${a}`, type: 'symlink', linkname: 'busybox' })),
  ];
}

const IMAGE_USERS = 'daemon:x:4242:4242:in the image:/home/in-image:/bin/sh\n';
const IMAGE_GROUPS = 'daemon:x:4242:\nextra:x:4300:daemon\n';

/** Each image's extra entries: the way its /etc reaches (or would reach) the host. */
function hostileImages(): Record<string, TarWriteEntry[]> {
  return {
    'etc-absolute': [{ name: 'etc', type: 'symlink', linkname: '/etc' }],
    'etc-climbing': [{ name: 'etc', type: 'symlink', linkname: '../../../../../../../../etc' }],
    // etc -> lib/x, lib -> / : inside the rootfs /etc is /x, which holds the image's own users.
    'etc-through-link': [
      { name: 'etc', type: 'symlink', linkname: 'lib/x' },
      { name: 'lib', type: 'symlink', linkname: '/' },
      { name: 'x', type: 'directory', mode: 0o755 },
      { name: 'x/passwd', type: 'file', data: IMAGE_USERS },
      { name: 'x/group', type: 'file', data: IMAGE_GROUPS },
    ],
    // /etc/passwd -> /etc/shadow: the image's shadow, not the host's.
    'passwd-to-shadow': [
      { name: 'etc', type: 'directory', mode: 0o755 },
      { name: 'etc/shadow', type: 'file', data: IMAGE_USERS, mode: 0o600 },
      { name: 'etc/group', type: 'file', data: IMAGE_GROUPS },
      { name: 'etc/passwd', type: 'symlink', linkname: '/etc/shadow' },
    ],
    'passwd-fifo': [
      { name: 'etc', type: 'directory', mode: 0o755 },
      { name: 'etc/passwd', type: 'fifo', mode: 0o644 },
      { name: 'etc/group', type: 'symlink', linkname: '/dev/zero' },
    ],
  };
}

async function pushHostile(name: string, extra: TarWriteEntry[], config: Record<string, unknown> = {}): Promise<string> {
  const target: PushTarget = { url: `http://${registry}` };
  const l = await layer([...busyboxEntries(), ...extra]);
  await pushImage(target, `hostile/${name}`, 'v1', [l], { config: { Env: ['PATH=/bin'], Cmd: ['sh'], ...config } });
  return `${registry}/hostile/${name}:v1`;
}

function pod(): CriMessage {
  const uid = randomUUID();
  return {
    metadata: { name: `hostile-rootfs-${uid.slice(0, 8)}`, uid, namespace: 'hostile-rootfs', attempt: 0 },
    labels: { 'io.kubernetes.pod.name': 'hostile-rootfs', 'io.kubernetes.pod.namespace': 'hostile-rootfs' },
    linux: { cgroupParent: '', securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
  };
}

/** Creates and starts a container of `image` in a new pod; the promise rejects with CreateContainer's error. */
async function run(client: RawCriClient, image: string, config: CriMessage = {}): Promise<string> {
  await client.image('PullImage', { image: { image } });
  const podConfig = pod();
  const { podSandboxId } = await client.runtime('RunPodSandbox', { config: podConfig });
  pods.push({ client, id: podSandboxId });
  const { containerId } = await client.runtime('CreateContainer', {
    podSandboxId,
    sandboxConfig: podConfig,
    config: { metadata: { name: `c-${randomUUID().slice(0, 8)}`, attempt: 0 }, image: { image }, command: ['sleep', '3600'], linux: {}, ...config },
  });
  await client.runtime('StartContainer', { containerId });
  return containerId;
}

async function shell(client: RawCriClient, containerId: string, script: string): Promise<string> {
  const r = await client.runtime('ExecSync', { containerId, cmd: ['sh', '-c', script], timeout: '10' });
  return Buffer.from(r.stdout).toString().trim();
}

/** uid, gid, groups and HOME of the container's processes; or the CreateContainer error. */
async function identity(client: RawCriClient, image: string, config: CriMessage = {}): Promise<string> {
  try {
    const id = await run(client, image, config);
    return await shell(client, id, 'echo "$(id -u) $(id -g) [$(id -G)] $HOME"');
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

const byName = { linux: { securityContext: { runAsUsername: 'daemon', namespaceOptions: { pid: 'CONTAINER' } } } };

beforeAll(async () => {
  const env = rigEnv();
  registry = env.ISULATS_TEST_REGISTRY;
  hostDir = await mkdtemp(join(tmpdir(), 'ist-hostile-host-'));
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  isulats = openCriClient(daemon.endpoint);
  containerd = openCriClient(env.ISULATS_TEST_CONTAINERD);
}, 120_000);

afterEach(async () => {
  for (const { client, id } of pods.splice(0)) {
    await client.runtime('StopPodSandbox', { podSandboxId: id });
    await client.runtime('RemovePodSandbox', { podSandboxId: id });
  }
}, 60_000);

afterAll(async () => {
  isulats?.close();
  containerd?.close();
  await daemon?.cleanup();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
}, 60_000);

describe('a user named by the pod or the image resolves inside the rootfs', { timeout: 120_000 }, () => {
  // The host has daemon as uid 1, HOME /usr/sbin: a container given those read the host's /etc/passwd.
  const hostDaemon = /^1 1 /;

  it.each(['etc-absolute', 'etc-climbing'])('an image whose /etc is a link to the host\'s (%s): no host user, refused as containerd refuses it', async (name) => {
    const image = await pushHostile(name, hostileImages()[name]!);
    const ours = await identity(isulats, image, byName);
    const theirs = await identity(containerd, image, byName);
    expect(ours).not.toMatch(hostDaemon);
    expect(ours).toMatch(/^refused: .*user "daemon" not found in the image's \/etc\/passwd/);
    expect(theirs).toMatch(/^refused: /);
  });

  it('the image\'s USER by name, with /etc a link to the host\'s: refused, as containerd', async () => {
    const image = await pushHostile('etc-absolute-user', hostileImages()['etc-absolute']!, { User: 'daemon' });
    const noUser = { linux: { securityContext: { namespaceOptions: { pid: 'CONTAINER' } } } };
    const ours = await identity(isulats, image, noUser);
    const theirs = await identity(containerd, image, noUser);
    expect(ours).toMatch(/^refused: .*user "daemon" not found/);
    expect(theirs).toMatch(/^refused: /);
  });

  it.each(['etc-through-link', 'passwd-to-shadow'])('%s: the user the image itself holds, as containerd gives it', async (name) => {
    const image = await pushHostile(name, hostileImages()[name]!);
    const ours = await identity(isulats, image, byName);
    const theirs = await identity(containerd, image, byName);
    expect(ours).toBe('4242 4242 [4242 4300] /home/in-image');
    expect(ours).toBe(theirs);
  });

  // Not asked of containerd: 1.6 opens the FIFO for reading and waits for a writer.
  it('a FIFO /etc/passwd and an /etc/group linked to /dev/zero are not read: the user is not found, at once', async () => {
    const image = await pushHostile('passwd-fifo', hostileImages()['passwd-fifo']!);
    // Nothing is started: runc's own lookup inside the container would wait on the FIFO too.
    expect(await identity(isulats, image, byName)).toMatch(/^refused: .*user "daemon" not found/);
  });
});

describe('files and dirs a container gets are made inside its rootfs, whatever links lead there', { timeout: 120_000 }, () => {
  it('hosts, resolv.conf, hostname, working dir and a volume under links to a host dir leave the host dir empty', async () => {
    const volume = await mkdtemp(join(tmpdir(), 'ist-hostile-vol-'));
    try {
      // The host dir's path exists in the image too: runc makes the working dir once its parent is there.
      const image = await pushHostile(`links-${hostDir.slice(-6).toLowerCase()}`, [
        { name: 'tmp', type: 'directory', mode: 0o1777 },
        { name: hostDir.slice(1), type: 'directory', mode: 0o755 },
        { name: 'etc', type: 'symlink', linkname: `${hostDir}/etc` },
        { name: 'work', type: 'symlink', linkname: `../../../../..${hostDir}` },
        { name: 'data', type: 'symlink', linkname: `${hostDir}/data` },
      ]);
      for (const client of [isulats, containerd]) {
        const id = await run(client, image, {
          workingDir: '/work/sub',
          mounts: [{ containerPath: '/data/vol', hostPath: volume, readonly: false, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE' }],
        });
        // The working dir, inside the container, is where the link leads there: the rootfs's copy of the host dir's path.
        expect(await shell(client, id, 'pwd; ls /data/vol; cat /etc/hostname >/dev/null && echo ok')).toBe(`${hostDir}/sub\nok`);
        expect(await readdir(hostDir)).toEqual([]);
      }
      expect(await readdir(volume)).toEqual([]);
    } finally {
      await rm(volume, { recursive: true, force: true });
    }
  });
});
