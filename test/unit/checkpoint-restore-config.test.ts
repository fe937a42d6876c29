// The CRI config of a container restored from a checkpoint archive: the archived one (ours) or
// the dumped spec's process (other runtimes'), under the request's names; bind mounts the archive
// needs must be the request's; the image is the checkpointed container's.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRestoreCriuConfig } from '../../src/runtime/checkpoint/open-restore.js';
import { archivedImage, restoredConfig, type ArchivedContainer } from '../../src/runtime/checkpoint/restore-config.js';
import { rfc3339Ns } from '../../src/runtime/checkpoint/archive-layout.js';

const dump = (extra: Partial<ArchivedContainer> = {}): ArchivedContainer => ({
  spec: {
    process: { args: ['sh', '-c', 'count'], env: ['PATH=/bin', 'A=b=c'], cwd: '/work' },
    mounts: [
      { destination: '/proc', type: 'proc', source: 'proc' },
      { destination: '/etc/hosts', type: 'bind', source: '/pods/x/hosts', options: ['rbind'] },
      { destination: '/data', type: 'bind', source: '/srv/data', options: ['rbind', 'rw'] },
    ],
  },
  config: { id: 'old', name: 'k8s_counter_pod_ns_uid_0', rootfsImageName: 'docker.io/library/busybox:latest', rootfsImageRef: 'sha256:abc', createdTime: '', checkpointedTime: '', restoredTime: '', restored: false },
  ...extra,
});
const dataMount = { containerPath: '/data', hostPath: '/srv/new-data' };

describe('restoredConfig', () => {
  it("takes an archive without our CRI config from the dumped spec's process", () => {
    const c = restoredConfig('/a.tar', dump(), { metadata: { name: 'counter', attempt: 1 }, image: { image: '/a.tar' }, mounts: [dataMount], logPath: 'counter/1.log' });
    expect(c).toMatchObject({
      metadata: { name: 'counter', attempt: 1 },
      image: { image: 'docker.io/library/busybox:latest' },
      command: ['sh', '-c', 'count'],
      workingDir: '/work',
      envs: [{ key: 'PATH', value: '/bin' }, { key: 'A', value: 'b=c' }],
      mounts: [dataMount],
      logPath: 'counter/1.log',
    });
  });

  it('keeps our archived config, with the request’s names, annotations on top, and its own log path under a new name', () => {
    const criConfig = { metadata: { name: 'counter', attempt: 0 }, image: { image: 'busybox' }, command: ['sh'], args: ['-c', 'x'], mounts: [dataMount], logPath: 'counter/0.log', annotations: { hash: 'old', keep: 'me' }, labels: { a: 'b' } };
    const c = restoredConfig('/a.tar', dump({ criConfig }), { metadata: { name: 'counter-2', attempt: 0 }, image: { image: '/a.tar' }, annotations: { hash: 'new' } });
    expect(c).toMatchObject({ command: ['sh'], args: ['-c', 'x'], mounts: [dataMount], labels: { a: 'b' }, annotations: { hash: 'new', keep: 'me' }, logPath: 'counter-2/0.log' });
    // The same name (another pod): the archived log path.
    expect(restoredConfig('/a.tar', dump({ criConfig }), { image: { image: '/a.tar' } }).logPath).toBe('counter/0.log');
    expect(restoredConfig('/a.tar', dump({ criConfig }), { image: { image: '/a.tar' } }).metadata).toEqual({ name: 'counter', attempt: 0 });
  });

  it('refuses a restore whose request lacks a bind mount of the archive (runtime mounts aside)', () => {
    expect(() => restoredConfig('/a.tar', dump(), { metadata: { name: 'c' }, image: { image: '/a.tar' } })).toThrow('restoring /a.tar expects these bind mounts in the container config: /data');
  });

  it('names the image by name, else by ID, and refuses an archive with neither', () => {
    expect(archivedImage(dump())).toBe('docker.io/library/busybox:latest');
    expect(archivedImage(dump({ config: { ...dump().config, rootfsImageName: '' } }))).toBe('sha256:abc');
    expect(() => archivedImage(dump({ config: { ...dump().config, rootfsImageName: '', rootfsImageRef: '' } }))).toThrow(/names no image/);
  });
});

describe('rfc3339Ns', () => {
  it("writes nanoseconds as Go's time.Time does, and zero as Go's zero time", () => {
    expect(rfc3339Ns('1733580000123456789')).toBe('2024-12-07T14:00:00.123456789Z');
    expect(rfc3339Ns('0')).toBe('0001-01-01T00:00:00Z');
  });
});

describe('writeRestoreCriuConfig', () => {
  it("names the new container's cgroup as CRIU's cgroup root on cgroup v2 only", () => {
    const dir = mkdtempSync('/tmp/ist-criu-conf-');
    try {
      const v2 = join(dir, 'v2');
      mkdirSync(v2);
      writeFileSync(join(v2, 'cgroup.controllers'), 'cpu memory\n');
      const bundle = join(dir, 'bundle');
      mkdirSync(bundle);
      const file = writeRestoreCriuConfig(bundle, 'kubepods-burstable-podx.slice:isulats:abc', v2);
      expect(file).toBe(join(bundle, 'criu-restore.conf'));
      expect(readFileSync(file, 'utf8')).toMatch(/(^|\n)cgroup-root \/kubepods\.slice\/kubepods-burstable\.slice\/kubepods-burstable-podx\.slice\/isulats-abc\.scope\n$/);
      // cgroup v1: runc passes CRIU the roots itself.
      expect(readFileSync(writeRestoreCriuConfig(bundle, '/isulats/abc', join(dir, 'v1')), 'utf8')).not.toContain('cgroup-root');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
