// The engine's root and state trees are closed to other host users: a setuid-root
// file from a layer cannot be run through the snapshot or rootfs paths, and no
// layer, container or engine file can be listed or reached, for a fresh root and
// for one made with looser modes (tightened when the engine opens it). Containers
// running as a non-root user still start and read their files.
import { chmod, lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/runtime/engine.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { run } from '../rig/proc.js';
import { openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

const PROBE_REF = 'isulats-test/suidprobe:1';
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups', '--'];
const PROBE_C = '#include <stdio.h>\n#include <unistd.h>\nint main(void) { printf("euid=%d\\n", (int)geteuid()); return 0; }\n';

/** Runs a /bin/sh script as the host's nobody (setpriv from util-linux). */
function asNobody(script: string, input = '') {
  return run('setpriv', [...NOBODY, '/bin/sh', '-c', script], { input, check: false, timeoutMs: 60_000 });
}

interface TreeEntry {
  path: string;
  depth: number;
  isDir: boolean;
}

/** Every path under `top` on top's filesystem; mount points are listed but not entered. */
async function walk(top: string): Promise<TreeEntry[]> {
  const dev = (await lstat(top)).dev;
  const out: TreeEntry[] = [];
  const stack: Array<{ path: string; depth: number }> = [{ path: top, depth: 0 }];
  while (stack.length) {
    const { path, depth } = stack.pop()!;
    for (const name of await readdir(path).catch(() => [] as string[])) {
      const child = join(path, name);
      const st = await lstat(child).catch(() => undefined);
      if (!st) continue;
      out.push({ path: child, depth: depth + 1, isDir: st.isDirectory() });
      if (st.isDirectory() && st.dev === dev) stack.push({ path: child, depth: depth + 1 });
    }
  }
  return out;
}

/**
 * What nobody can get at: the tops and their direct children must not be
 * listable (files not readable); anything deeper must not even be reachable.
 */
async function exposedToNobody(tops: string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const top of tops) {
    lines.push(`1 ${top}`);
    for (const e of await walk(top)) lines.push(`${e.depth <= 1 ? 1 : 2} ${e.path}`);
  }
  const script = [
    'while read -r depth p; do',
    '  if [ "$depth" = 1 ]; then',
    '    if [ -d "$p" ]; then ls "$p" >/dev/null 2>&1 && echo "listable $p"; elif [ -f "$p" ] && [ -r "$p" ]; then echo "readable $p"; fi',
    '  elif [ -e "$p" ] || [ -L "$p" ]; then echo "reachable $p"; fi',
    'done',
  ].join('\n');
  const r = await asNobody(script, `${lines.join('\n')}\n`);
  return r.stdout.split('\n').filter(Boolean);
}

/**
 * The modes an older isulats left (and worse): every engine directory under the
 * tops 0755. The tops themselves it made 0711, as now; an existing top keeps its mode.
 */
async function loosenLikeAnOldRoot(tops: string[]): Promise<void> {
  for (const top of tops) {
    const dev = (await lstat(top)).dev;
    for (const e of await walk(top)) {
      // Deeper than this is layer and container content, whose modes are the image's.
      if (!e.isDir || e.depth > 3) continue;
      const st = await lstat(e.path);
      if (st.dev === dev && (st.mode & 0o777) !== 0o755) await chmod(e.path, 0o755);
    }
  }
}

describe('runtime: root and state trees are private to root', () => {
  let fx: RuntimeFixture;
  let probeInLayer: string;

  beforeAll(async () => {
    fx = await openFixture();
    // mkdtemp made the fixture dir 0700: open it, so only the engine's own modes stand in nobody's way.
    await chmod(fx.dir, 0o755);
    const rootfs = join(fx.dir, 'suidprobe-rootfs');
    await populateBusyboxRootfs(rootfs);
    await writeFile(join(fx.dir, 'probe.c'), PROBE_C);
    await run('gcc', ['-static', '-O2', '-o', join(rootfs, 'bin', 'suidprobe'), join(fx.dir, 'probe.c')]);
    await chmod(join(rootfs, 'bin', 'suidprobe'), 0o4755);
    await mkdir(join(rootfs, 'srv'));
    await writeFile(join(rootfs, 'srv', 'data.txt'), 'layer data\n');
    await fx.engine.images.buildFromRootfs(rootfs, PROBE_REF, { Cmd: ['sh'], created: '2024-01-01T00:00:00Z' });
    probeInLayer = join((await fx.engine.images.resolveImage(PROBE_REF)).snapshotDirs[0]!, 'bin', 'suidprobe');
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  const tops = () => [fx.options.root, fx.options.state];

  /** A pod with one container running as nobody (65534) that reads image files; resolves with its ids. */
  async function startNobodyContainer(e: Engine, name: string) {
    const pod = podConfig(`private-${name}-7f3c2a9e-0b1d-4e8a-9c55-3d2f1e0a6b7c`, { logDirectory: join(fx.dir, 'logs', name) });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: {
        metadata: { name: `reader-${name}`, attempt: 0 },
        image: { image: PROBE_REF },
        command: ['sh', '-c', 'cat /srv/data.txt; exec sleep 3600'],
        logPath: 'reader/0.log',
        labels: { 'io.kubernetes.container.name': `reader-${name}`, 'io.kubernetes.pod.namespace': 'rt-test' },
        linux: { securityContext: { runAsUser: { value: 65534 }, runAsGroup: { value: 65534 } } },
      },
    });
    await e.startContainer({ containerId });
    expect((await e.containerStatus({ containerId })).status?.state).toBe('CONTAINER_RUNNING');
    const r = await e.execSync({ containerId, cmd: ['sh', '-c', 'id -u; cat /srv/data.txt; ls /bin/suidprobe; /bin/suidprobe'], timeout: 10 });
    expect({ code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() }).toEqual({
      code: 0,
      // The container's own setuid binary keeps working inside it: only the host-side paths are closed.
      out: '65534\nlayer data\n/bin/suidprobe\neuid=0\n',
      err: '',
    });
    return { podSandboxId, containerId, rootfs: join(fx.options.state, 'rootfs', containerId) };
  }

  async function expectClosed(rootfs: string): Promise<void> {
    expect(await exposedToNobody(tops())).toEqual([]);
    for (const probe of [probeInLayer, join(rootfs, 'bin', 'suidprobe')]) {
      const r = await asNobody(`exec ${probe}`);
      expect(r.stdout).not.toContain('euid=0');
      expect(r.stderr).toMatch(/Permission denied/);
    }
  }

  it('keeps a fresh root closed to other users while a non-root container runs and reads its files', async () => {
    const { podSandboxId, rootfs } = await startNobodyContainer(fx.engine, 'fresh');
    await expectClosed(rootfs);
    await fx.engine.removePodSandbox({ podSandboxId });
  });

  it('closes a root and state made with looser modes when the engine opens them', async () => {
    const { podSandboxId, containerId, rootfs } = await startNobodyContainer(fx.engine, 'old');
    await loosenLikeAnOldRoot(tops());
    // The loosened tree is what the defect looked like: the layer's setuid binary runs as root for nobody.
    expect((await asNobody(`exec ${probeInLayer}`)).stdout).toBe('euid=0\n');
    expect(await exposedToNobody(tops())).not.toEqual([]);

    const reopened = await fx.reopen();
    await expectClosed(rootfs);
    // The running container and new ones still work on the tightened root.
    const again = await reopened.execSync({ containerId, cmd: ['cat', '/srv/data.txt'], timeout: 10 });
    expect(again.stdout.toString()).toBe('layer data\n');
    const second = await startNobodyContainer(reopened, 'after');
    await expectClosed(second.rootfs);
    await reopened.removePodSandbox({ podSandboxId: second.podSandboxId });
    await reopened.removePodSandbox({ podSandboxId });
  });
});
