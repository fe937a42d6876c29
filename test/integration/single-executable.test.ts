// The single executable (scripts/build-sea.mjs) as an operator copies it to a node: alone in a
// directory, run with a PATH that has runc, conmon and the CNI plugins but no node. It must answer
// for the CLI against a daemon it serves itself, and run pods in the embedded engine, from the
// files it carries (the addon, pause, pinns, the descriptors) and nothing of this checkout.
// Like bin/isulats, it tries the fast path first, which unpacks nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../rig/cli.js';
import { run as runTool } from '../rig/proc.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const NODE_TOOLS = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack']);

describe('the single executable', () => {
  let dir: string;
  let exe: string;
  let env: NodeJS.ProcessEnv;
  let daemon: IsulatsDaemon | undefined;

  beforeAll(async () => {
    dir = await makeTempDir('ist-sea-');
    const alone = join(dir, 'alone');
    await mkdir(alone);
    exe = join(alone, 'isulats');
    const built = spawnSync(process.execPath, ['scripts/build-sea.mjs', '--out', exe], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 300_000 });
    expect(built.status, built.stderr).toBe(0);
    // /usr/bin without node: every other tool of the host (runc, conmon, iptables, ...) stays.
    const bin = join(dir, 'bin');
    await mkdir(bin);
    for (const name of readdirSync('/usr/bin')) if (!NODE_TOOLS.has(name)) symlinkSync(join('/usr/bin', name), join(bin, name));
    // XDG_RUNTIME_DIR: its files go under this test's dir (root's default is /var/lib/isulats/sea).
    await mkdir(join(dir, 'run'), { mode: 0o700 });
    env = { PATH: `${bin}:/usr/sbin:/sbin`, HOME: dir, LANG: 'C.UTF-8', XDG_RUNTIME_DIR: join(dir, 'run') };
  }, 300_000);

  afterAll(async () => {
    await daemon?.cleanup();
    if (dir) await removeTempDir(dir);
  });

  const run = (args: string[]) => {
    const r = spawnSync(exe, args, { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('finds no node on its PATH, and answers --help', () => {
    expect(spawnSync('/bin/sh', ['-c', 'command -v node'], { env }).status).not.toBe(0);
    const help = run(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('isulats/0.1.0');
  });

  it('runs pods in the embedded engine: with a pause made from the pause binary it carries, and without one (namespaces pinned by its pinns)', () => {
    const g = ['--root', join(dir, 'root'), '--state', join(dir, 'state')];
    // pid 0: POD (a pause container); 1: CONTAINER (no pause). Network 2: NODE.
    for (const pid of [0, 1]) {
      writeFileSync(join(dir, 'pod.json'), JSON.stringify({
        metadata: { name: `sea-pod-${pid}`, namespace: 'sea', uid: `b1c5e0a2-5d6f-4c1e-9a53-0c1f5f8e2a1${pid}`, attempt: 0 },
        linux: { security_context: { namespace_options: { network: 2, pid } } },
      }));
      const runp = run([...g, 'runp', join(dir, 'pod.json')]);
      expect(runp.status, runp.stderr).toBe(0);
      const pod = runp.stdout.trim();
      expect(pod).toMatch(/^[0-9a-f]{64}$/);
      expect(run([...g, 'pods', '-q']).stdout.trim()).toBe(pod);
      const inspect = run([...g, 'inspectp', '-o', 'json', pod]);
      expect(JSON.parse(inspect.stdout).status.state).toBe('SANDBOX_READY');
      expect(run([...g, 'stopp', pod]).status).toBe(0);
      expect(run([...g, 'rmp', pod]).status).toBe(0);
      expect(run([...g, 'pods', '-q']).stdout.trim()).toBe('');
    }
    // Its files were written once, under the private runtime dir.
    expect(readdirSync(join(dir, 'run', 'isulats-sea'))).toHaveLength(1);
  });

  it('refuses in one line to unpack on a noexec mount (/run on a systemd node), and unpacks where ISULATS_SEA_DIR points', async () => {
    const noexec = join(dir, 'noexec');
    mkdirSync(noexec);
    await runTool('mount', ['-t', 'tmpfs', '-o', 'noexec,nosuid,nodev,mode=0755,size=64m', 'tmpfs', noexec]);
    try {
      const refused = spawnSync(exe, ['runp', '--help'], { cwd: dir, env: { ...env, ISULATS_SEA_DIR: join(noexec, 'sea') }, encoding: 'utf8', timeout: 120_000 });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toBe(`isulats: cannot unpack: ${join(noexec, 'sea')} is on a noexec mount; set ISULATS_SEA_DIR to a directory where files may run\n`);
      expect(readdirSync(noexec)).toEqual([]); // nothing written there
    } finally {
      await runTool('umount', [noexec]);
    }
    const own = join(dir, 'own-sea');
    const g = ['--root', join(dir, 'root'), '--state', join(dir, 'state')];
    const pods = spawnSync(exe, [...g, 'pods', '-q'], { cwd: dir, env: { ...env, ISULATS_SEA_DIR: own }, encoding: 'utf8', timeout: 120_000 });
    expect(pods.status, pods.stderr).toBe(0);
    expect(readdirSync(own)).toHaveLength(1);
  });

  it('serves CRI as isulats daemon, and its CLI talks to it', async () => {
    daemon = await startIsulatsDaemon({ executable: exe, podSandboxImage: rigEnv().ISULATS_TEST_PAUSE, env: { PATH: env.PATH!, XDG_RUNTIME_DIR: env.XDG_RUNTIME_DIR! } });
    const version = run(['-r', daemon.endpoint, 'version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toMatch(/RuntimeName:\s+isulats/);
    const pods = run(['-r', daemon.endpoint, 'pods']);
    expect(pods.status, pods.stderr).toBe(0);
    expect(pods.stdout).toMatch(/^POD ID/);
  });

  it('takes the fast path first, as bin/isulats does: the same output, and nothing unpacked or compiled for it', () => {
    expect(daemon).toBeDefined();
    const ep = daemon!.endpoint;
    // A dir of its own: a call the fast path takes must not create it.
    const seaDir = join(dir, 'fast-sea');
    const call = (args: string[], extra: Record<string, string>) => {
      const r = spawnSync(exe, ['-r', ep, ...args], { cwd: dir, env: { ...env, ISULATS_SEA_DIR: seaDir, ...extra }, encoding: 'utf8', timeout: 120_000 });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const pulled = run(['-r', ep, 'pull', rigEnv().ISULATS_TEST_PAUSE]);
    expect(pulled.status, pulled.stderr).toBe(0);
    for (const args of [['version'], ['pods'], ['ps', '-a'], ['inspecti', rigEnv().ISULATS_TEST_PAUSE]]) {
      const fast = call(args, { ISULATS_FAST_PATH: 'require' });
      expect({ args, status: fast.status, stderr: fast.stderr }).toEqual({ args, status: 0, stderr: '' });
      expect(existsSync(seaDir)).toBe(false);
      const full = call(args, { ISULATS_NO_FAST_PATH: '1' });
      expect(full.status, full.stderr).toBe(0);
      expect(fast.stdout).toBe(full.stdout);
      rmSync(seaDir, { recursive: true, force: true });
    }
    // A name nothing has: the fast path's error is the full CLI's.
    const missing = ['inspect', 'no-such-container'];
    const [fastMissing, fullMissing] = [call(missing, { ISULATS_FAST_PATH: 'require' }), call(missing, { ISULATS_NO_FAST_PATH: '1' })];
    expect({ status: fastMissing.status, stderr: fastMissing.stderr }).toEqual({ status: 1, stderr: fullMissing.stderr });
    expect(fastMissing.stderr).toMatch(/not found/);
    // What it declines runs in the full CLI, from the asset bundle: the same answer as asked outright.
    const yaml = ['inspect', '-o', 'yaml', 'no-such-container'];
    expect(call(yaml, { ISULATS_FAST_PATH: 'require' }).status).toBe(97);
    const [viaFast, viaFull] = [call(yaml, {}), call(yaml, { ISULATS_NO_FAST_PATH: '1' })];
    expect(viaFast.status).toBe(1);
    expect(viaFast.stderr).toBe(viaFull.stderr);
    expect(viaFast.stderr).toMatch(/not found/);
  });
});
