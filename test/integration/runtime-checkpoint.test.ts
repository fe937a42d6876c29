// Checkpoint/restore on this host, where CRIU itself cannot run (`criu check` fails on the vDSO
// layout; the guest suite checkpoints and restores for real): CheckpointContainer answers
// Unimplemented with why, a CreateContainer from an archive FailedPrecondition with why, leaving
// nothing behind, and verbose Status says so. The archive's rootfs part is real here: a running
// container's rw layer (an added file, a changed one, a removed one, a dir removed and made again,
// a volume's mountpoint left out) written as CRI-O's rootfs-diff.tar and deleted.files, and applied
// to a fresh container's rootfs. The archive reader refuses what is not a checkpoint.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/runtime/engine.js';
import { isKind } from '../../src/runtime/errors.js';
import { criuProblem } from '../../src/runtime/oci/criu.js';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';
import { applyRootfsDiff, writeRootfsDiff } from '../../src/runtime/checkpoint/rootfs-diff.js';
import { packArchive, readDumps, unpackArchive } from '../../src/runtime/checkpoint/checkpoint-archive.js';
import { readTar } from '../../src/runtime/image/tar-reader.js';
import { CHECKPOINT_WORK_DIR, CHECKPOINTER } from '../../src/runtime/checkpoint/write-checkpoint.js';
import { kubeletShapedPod, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const APP = 'isulats-test/ckpt-app:v1';
const problem = await criuProblem(new ProcessRunner());

describe('checkpoint and restore on a host without a working CRIU', () => {
  let fx: RuntimeFixture;
  let engine: Engine;
  let podId = '';
  let sandboxConfig: ReturnType<typeof kubeletShapedPod>;

  beforeAll(async () => {
    fx = await openFixture();
    engine = fx.engine;
    // An image with dirs of several files, so a container can remove some and replace others.
    const rootfs = join(fx.dir, 'app-rootfs');
    for (const d of ['bin', 'etc', 'app', 'mnt/vol']) mkdirSync(join(rootfs, d), { recursive: true });
    const busybox = join(fx.dir, 'busybox-rootfs');
    for (const n of readdirSync(join(busybox, 'bin'))) writeFileSync(join(rootfs, 'bin', n), readFileSync(join(busybox, 'bin', n)), { mode: 0o755 });
    for (const n of ['a', 'b', 'c']) writeFileSync(join(rootfs, 'app', n), `image ${n}\n`);
    writeFileSync(join(rootfs, 'etc', 'motd'), 'image motd\n');
    writeFileSync(join(rootfs, 'etc', 'keep'), 'image keep\n');
    writeFileSync(join(rootfs, 'etc', 'passwd'), 'root:x:0:0:root:/:/bin/sh\n');
    await engine.images.buildFromRootfs(rootfs, APP, { created: '2025-11-01T00:00:00Z' });
    sandboxConfig = kubeletShapedPod('ckpt', 'rt-test');
    podId = (await engine.runPodSandbox({ config: sandboxConfig })).podSandboxId;
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  const run = async (name: string, script: string, mounts: Array<{ containerPath: string; hostPath: string }> = []) => {
    const { containerId } = await engine.createContainer({
      podSandboxId: podId,
      sandboxConfig,
      config: { metadata: { name, attempt: 0 }, image: { image: APP }, command: ['sh', '-c', `${script}; exec sleep 3600`], mounts },
    });
    await engine.startContainer({ containerId });
    return containerId;
  };
  const sh = async (containerId: string, script: string) => (await engine.execSync({ containerId, cmd: ['sh', '-c', script], timeout: 10 })).stdout.toString();
  const specOf = (id: string) => JSON.parse(readFileSync(join(fx.options.root, 'containers', id, 'bundle', 'config.json'), 'utf8'));
  const snapshotOf = (id: string) => JSON.parse(readFileSync(join(fx.options.root, 'containers-rw', id, 'snapshot.json'), 'utf8'));

  it.skipIf(!problem)('answers CheckpointContainer Unimplemented, a restore FailedPrecondition, with the reason, and says so in Status', async () => {
    const id = await run('counter', 'true');
    const location = join(fx.dir, 'ckpt.tar');
    const err = await engine.checkpointContainer({ containerId: id, location }).catch((e: unknown) => e);
    expect(isKind(err, 'unimplemented'), String(err)).toBe(true);
    expect((err as Error).message).toBe(`CheckpointContainer: checkpoint needs CRIU, which cannot run on this host: ${problem}`);
    expect(readdirSync(fx.dir)).not.toContain('ckpt.tar');
    expect((await engine.containerStatus({ containerId: id })).status?.state).toBe('CONTAINER_RUNNING');

    const archive = join(fx.dir, 'some.tar');
    writeFileSync(archive, 'not even a tar');
    const before = (await engine.listContainers({})).containers.length;
    const restore = await engine.createContainer({ podSandboxId: podId, sandboxConfig, config: { metadata: { name: 'restored', attempt: 0 }, image: { image: archive } } }).catch((e: unknown) => e);
    expect(isKind(restore, 'failed-precondition'), String(restore)).toBe(true);
    expect((restore as Error).message).toBe(`restoring from checkpoint ${archive}: checkpoint needs CRIU, which cannot run on this host: ${problem}`);
    expect((await engine.listContainers({})).containers.length).toBe(before);
    expect(readdirSync(fx.options.root).includes('restores') ? readdirSync(join(fx.options.root, 'restores')) : []).toEqual([]);

    const status = await engine.status({ verbose: true });
    expect(JSON.parse(status.info.nodeFeatures!).checkpoint).toEqual({ available: false, reason: `checkpoint needs CRIU, which cannot run on this host: ${problem}` });
    await engine.removeContainer({ containerId: id });
  }, 120_000);

  it('writes the rw layer as rootfs-diff.tar and deleted.files, and applies them to a fresh rootfs', async () => {
    const vol = join(fx.dir, 'vol');
    mkdirSync(vol);
    const id = await run(
      'writer',
      'echo added >/added && echo changed >/etc/keep && rm /etc/motd && rm -rf /app && mkdir /app && echo new >/app/a && mkdir -p /data/sub && echo deep >/data/sub/f && echo volume >/mnt/vol/v',
      [{ containerPath: '/mnt/vol', hostPath: vol }],
    );
    expect(await sh(id, 'cat /added /etc/keep; ls /app')).toBe('added\nchanged\na\n');
    const snap = snapshotOf(id);
    const out = join(fx.dir, 'diff');
    mkdirSync(out);
    const deleted = await writeRootfsDiff(
      { upperdir: snap.upperdir, lowerdirs: snap.lowerdirs, exclude: specOf(id).mounts.map((m: { destination: string }) => m.destination) },
      join(out, 'rootfs-diff.tar'),
    );
    // The whiteout of /etc/motd, and what the re-made (opaque) /app hides of the image.
    expect(deleted).toEqual(['/app/b', '/app/c', '/etc/motd']);
    writeFileSync(join(out, 'deleted.files'), JSON.stringify(deleted));
    const names: string[] = [];
    for await (const { entry, body } of readTar(createReadStream(join(out, 'rootfs-diff.tar')))) {
      names.push(entry.name.replace(/\/$/, ''));
      for await (const _ of body) void _;
    }
    expect(names).toEqual(expect.arrayContaining(['added', 'app', 'app/a', 'data', 'data/sub', 'data/sub/f', 'etc', 'etc/keep']));
    // No whiteout, nothing under a mount (the volume's file is on the host, its mountpoint is runc's).
    expect(names.filter((n) => n.includes('.wh.') || n.startsWith('mnt') || n === 'etc/motd' || n.startsWith('proc') || n.startsWith('dev'))).toEqual([]);

    // A fresh container of the same image: the diff applied to its mounted rootfs before its start.
    const second = (await engine.createContainer({ podSandboxId: podId, sandboxConfig, config: { metadata: { name: 'target', attempt: 0 }, image: { image: APP }, command: ['sleep', '3600'] } })).containerId;
    await applyRootfsDiff(out, specOf(second).root.path);
    await engine.startContainer({ containerId: second });
    expect(await sh(second, 'cat /added /etc/keep /app/a /data/sub/f; ls /app; test -e /etc/motd || echo no-motd; test -e /mnt/vol/v || echo no-volume-file')).toBe(
      'added\nchanged\nnew\ndeep\na\nno-motd\nno-volume-file\n',
    );
    for (const c of [id, second]) await engine.removeContainer({ containerId: c });
  }, 180_000);

  it('removes, when the engine opens, archives unpacked for a container that never got its record', async () => {
    const restores = join(fx.options.root, 'restores');
    const dead = spawnSync('true').pid!;
    const orphan = join(restores, `${'a'.repeat(64)}.${dead}`);
    const busy = join(restores, `${'b'.repeat(64)}.${process.pid}`);
    for (const d of [orphan, busy]) mkdirSync(join(d, 'checkpoint'), { recursive: true });
    engine = await fx.reopen();
    expect(readdirSync(restores)).toEqual([`${'b'.repeat(64)}.${process.pid}`]);
    rmSync(busy, { recursive: true });
  }, 60_000);

  it('resumes, when the engine opens, a container a dead checkpointer left paused, and leaves a live one\'s alone', async () => {
    const id = await run('frozen', 'true');
    const workDir = join(fx.options.root, 'containers', id, CHECKPOINT_WORK_DIR);
    const state = async () => (await engine.ctx.runtimes.find('')!.runtime.state(id))?.status;
    // As a checkpointer killed between its pause and its resume leaves it (write-checkpoint.ts).
    mkdirSync(join(workDir, 'checkpoint'), { recursive: true });
    const checkpointer = (pid: number) => writeFileSync(join(workDir, CHECKPOINTER), JSON.stringify({ pid }));
    await engine.pause(id);
    checkpointer(process.pid); // alive: its checkpoint is still going
    engine = await fx.reopen();
    expect(await state()).toBe('paused');
    checkpointer(spawnSync('true').pid!); // gone
    engine = await fx.reopen();
    expect(await state()).toBe('running');
    expect(readdirSync(join(fx.options.root, 'containers', id))).not.toContain(CHECKPOINT_WORK_DIR);
    expect((await sh(id, 'echo thawed')).trim()).toBe('thawed');
    // A pause of the operator's own (`isulats pause`) names no checkpointer: it stays.
    await engine.pause(id);
    engine = await fx.reopen();
    expect(await state()).toBe('paused');
    await engine.unpause(id);
    await engine.removeContainer({ containerId: id });
  }, 120_000);

  it('refuses an archive that is not a checkpoint, and a diff that climbs out of the rootfs', async () => {
    const dir = join(fx.dir, 'not-ckpt');
    mkdirSync(join(dir, 'stuff'), { recursive: true });
    writeFileSync(join(dir, 'config.dump'), '{}');
    const tar = join(fx.dir, 'not-ckpt.tar');
    await packArchive(dir, tar);
    await expect(unpackArchive(tar, join(fx.dir, 'u1'))).rejects.toThrow(`${tar} is not a container checkpoint: it has no checkpoint/ directory`);
    mkdirSync(join(dir, 'checkpoint'));
    await packArchive(dir, tar);
    await expect(unpackArchive(tar, join(fx.dir, 'u2'))).rejects.toThrow(`${tar} is not a complete checkpoint: checkpoint/inventory.img (CRIU's) is missing`);
    writeFileSync(join(dir, 'checkpoint', 'inventory.img'), 'x');
    writeFileSync(join(dir, 'spec.dump'), '[1]');
    await packArchive(dir, tar);
    await unpackArchive(tar, join(fx.dir, 'u3'));
    expect(() => readDumps(join(fx.dir, 'u3'))).toThrow('checkpoint archive: spec.dump is not an OCI spec');
    // deleted.files naming a path above the rootfs.
    const bad = join(fx.dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'deleted.files'), JSON.stringify(['/../../etc/hostname']));
    const target = join(fx.dir, 'target-root');
    mkdirSync(target);
    await expect(applyRootfsDiff(bad, target)).rejects.toThrow(/climbs out/);
    expect(await mountsUnder(join(fx.dir, 'u3'))).toEqual([]);
  }, 60_000);
});
