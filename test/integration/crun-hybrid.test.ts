// build/crun-hybrid/crun-hybrid (assets/crun-hybrid): crun on a hybrid cgroup v1 host. It runs its
// target in a mount namespace of its own where /sys/fs/cgroup/unified is no cgroup2 file system
// (what crun looks at to tell hybrid from legacy mode), in the caller's process
// (arguments, stdin, stdout and exit status unchanged, the host's mounts untouched), so a crun
// call through it costs two execs and no extra process.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readlink, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExecs } from '../../bench/daemon/exec-trace.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { CRUN, CRUN_HYBRID, crunForThisHost, hybridCgroupHost } from '../rig/crun-path.js';
import { run } from '../rig/proc.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const UNIFIED = '/sys/fs/cgroup/unified';

/** The file system type at a path as statfs(2) names it (`stat -f`), or 'none' when it does not exist. */
async function fsType(path: string): Promise<string> {
  const r = await run('stat', ['-f', '-c', '%T', path], { check: false });
  return r.code === 0 ? r.stdout.trim() : 'none';
}

// Stands in for crun: reports its parent, arguments, mount namespace, the file system type at
// /sys/fs/cgroup/unified where it runs, and its stdin, then exits 7.
const FAKE_CRUN = `#!/bin/sh
echo "ppid=$PPID"
for a in "$@"; do printf 'arg=[%s]\\n' "$a"; done
echo "mntns=$(readlink /proc/$$/ns/mnt)"
echo "unified=$(stat -f -c %T ${UNIFIED} 2>/dev/null || echo none)"
echo "stdin=$(cat)"
exit 7
`;

describe('crun-hybrid: crun on a hybrid cgroup v1 host', () => {
  let dir: string;
  let fake: string;

  beforeAll(async () => {
    dir = await makeTempDir('ist-ch-');
    fake = join(dir, 'fake-crun');
    await writeFile(fake, FAKE_CRUN, { mode: 0o755 });
  });

  afterAll(async () => {
    if (dir) await removeTempDir(dir);
  });

  it('runs its target in the same process, in a mount namespace without the unified hierarchy, passing arguments, stdin and exit status through', async () => {
    const hostBefore = await fsType(UNIFIED);
    const args = ['--root', '/run/isulats/state/runtimes/crun', '--log-format=json', 'exec', '--process', '/tmp/with space/p.json', '', 'ctr-"q"'];
    const r = await run(CRUN_HYBRID, args, { env: { ...process.env, CRUN_HYBRID_CRUN: fake }, input: 'probe-a1b2c3', check: false });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(7);
    const lines = r.stdout.trim().split('\n');
    // Its parent is this test process: the shim exec'd the target rather than forking it.
    expect(lines[0]).toBe(`ppid=${process.pid}`);
    expect(lines.filter((l) => l.startsWith('arg='))).toEqual(args.map((a) => `arg=[${a}]`));
    expect(lines.find((l) => l.startsWith('unified='))).toMatch(/^unified=(tmpfs|none)$/);
    expect(lines).toContain('stdin=probe-a1b2c3');
    expect(lines).not.toContain(`mntns=${await readlink('/proc/self/ns/mnt')}`);
    // The host keeps its mounts: its unified hierarchy (cgroup2fs on a hybrid host) is still there.
    if (await hybridCgroupHost()) expect(hostBefore).toBe('cgroup2fs');
    expect(await fsType(UNIFIED)).toBe(hostBefore);
  });

  it('makes a crun call through the handler path two execs (shim, crun) in one process on this host', async () => {
    const crun = await crunForThisHost();
    const root = join(dir, 'crun-root');
    const trace = join(dir, 'trace.txt');
    const r = await run('strace', ['-f', '-qq', '-e', 'trace=execve,fork,vfork,clone,clone3', '-ttt', '-o', trace, crun, '--root', root, 'list', '-q'], { check: false });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = await readFile(trace, 'utf8');
    const execs = parseExecs(text);
    expect(execs.map((e) => e.name)).toEqual((await hybridCgroupHost()) ? ['crun-hybrid', 'crun'] : ['crun']);
    expect(new Set(execs.map((e) => e.pid)).size).toBe(1);
    expect(text).not.toMatch(/\b(fork|vfork|clone3?)\(/);
  });

  it('runs the real crun (compiled-in /usr/bin/crun) with its exit status and stderr', async () => {
    const r = await run(CRUN_HYBRID, ['--root', join(dir, 'crun-root'), 'state', 'no-such-container-7d4e9a'], { check: false });
    expect(r.code).not.toBe(0);
    const direct = await run(CRUN, ['--root', join(dir, 'crun-root'), 'state', 'no-such-container-7d4e9a'], { check: false });
    expect(r.code).toBe(direct.code);
    expect(r.stderr).toBe(direct.stderr);
  });

  it('runs a container under crun, leaving nothing in the host\'s /sys/fs/cgroup under its unified mount', async () => {
    // crun in v1 mode makes a "unified" cgroup dir too; had the shim unmounted the unified
    // hierarchy, it would land in the host's /sys/fs/cgroup tmpfs, hidden under that mount.
    const bundle = join(dir, 'bundle');
    await mkdir(join(bundle, 'rootfs'), { recursive: true });
    await populateBusyboxRootfs(join(bundle, 'rootfs'));
    await run(CRUN, ['spec'], { cwd: bundle });
    const spec = JSON.parse(await readFile(join(bundle, 'config.json'), 'utf8'));
    const cgroup = `ist-ch-${randomUUID()}`;
    spec.process.terminal = false;
    spec.process.args = ['sh', '-c', 'echo ran-in-crun'];
    spec.linux.cgroupsPath = `/${cgroup}`;
    await writeFile(join(bundle, 'config.json'), JSON.stringify(spec));
    try {
      const r = await run(CRUN_HYBRID, ['--root', join(dir, 'crun-root'), 'run', '--bundle', bundle, `web-${cgroup}`], { check: false });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('ran-in-crun\n');
      expect(r.code).toBe(0);
      // What lies under the host's unified mount, seen from a namespace of our own without it.
      const hidden = await run('unshare', ['-m', '--propagation', 'private', 'sh', '-c',
        `umount -l ${UNIFIED} 2>/dev/null; ls -a ${UNIFIED}/${cgroup} 2>&1 || true`], { check: false });
      expect(hidden.stdout).toMatch(/No such file or directory/);
    } finally {
      // `crun run` removes the container's v1 cgroups when it ends; these guard a failed run.
      for (const c of ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'blkio', 'pids', 'systemd']) {
        await rmdir(join('/sys/fs/cgroup', c, cgroup)).catch(() => undefined);
      }
    }
  });

  it('fails in one line with status 127 when the target is missing or not an absolute path', async () => {
    const missing = join(dir, 'no-such-crun');
    const r = await run(CRUN_HYBRID, ['--version'], { env: { ...process.env, CRUN_HYBRID_CRUN: missing }, check: false });
    expect(r.code).toBe(127);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`crun-hybrid: cannot run ${missing}: No such file or directory\n`);
    const relative = await run(CRUN_HYBRID, ['--version'], { env: { ...process.env, CRUN_HYBRID_CRUN: 'crun' }, check: false });
    expect(relative.code).toBe(127);
    expect(relative.stderr).toBe('crun-hybrid: CRUN_HYBRID_CRUN is not an absolute path: crun\n');
  });
});
