// The release as an operator and a plugin author get it: `npm pack` of this checkout, installed
// offline into a scratch prefix (`npm install -g --prefix`), then the installed CLI (help, the
// embedded engine), the installed daemon, and two NRI plugins of examples/nri/standalone written
// against `isulats/nri`: a plain ES module run with `node`, and a TypeScript one compiled by tsc
// against the shipped types. Nothing runs from this checkout: not its dist/, build/ or src/.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../rig/cli.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { stopPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

/** The environment of a node's shell: no hint of this checkout. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.ISULATS_NATIVE;
  delete env.NODE_PATH;
  return env;
}

function run(cmd: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout: 180_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the packed release', () => {
  let dir: string;
  let tarball: string;
  let prefix: string;
  let installed: string;
  let daemon: IsulatsDaemon | undefined;
  let cri: RawCriClient | undefined;
  const plugins: ChildProcess[] = [];

  beforeAll(async () => {
    dir = await makeTempDir('ist-pkg-');
    // The build is setup's (npm run build); prepack only checks it is there.
    const pack = run('npm', ['pack', '--pack-destination', dir, '--json'], REPO_ROOT);
    expect(pack.status, pack.stderr).toBe(0);
    tarball = join(dir, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename);
    prefix = join(dir, 'prefix');
    const install = run('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], dir);
    expect(install.status, install.stderr).toBe(0);
    installed = join(prefix, 'lib', 'node_modules', 'isulats');
  }, 300_000);

  afterAll(async () => {
    for (const p of plugins) if (p.pid) await stopPid(p.pid);
    cri?.close();
    await daemon?.cleanup();
    if (dir) await removeTempDir(dir);
  });

  it('holds the bundles, the addon and the helper binaries, and no source', () => {
    for (const f of ['bin/isulats', 'dist/isulats.cjs', 'dist/isulats-daemon.cjs', 'dist/nri-sdk.js', 'dist/types/nri/sdk/index.d.ts',
      'build/Release/isulats.node', 'build/pause/pause', 'build/pinns/pinns', 'build/ttyexec/ttyexec']) {
      expect(existsSync(join(installed, f)), f).toBe(true);
    }
    // Every helper the build made (execsync included: without it ExecSync falls back to runc exec).
    const built = readdirSync(join(REPO_ROOT, 'build'), { withFileTypes: true }).filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(join(REPO_ROOT, 'build', d.name)).map((f) => `build/${d.name}/${f}`));
    expect(built).toContain('build/execsync/execsync');
    expect(built.filter((f) => !existsSync(join(installed, f)))).toEqual([]);
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'bin', 'build', 'contrib', 'dist', 'examples', 'package.json']);
    expect(existsSync(join(installed, 'node_modules'))).toBe(false); // no dependency to fetch: all is bundled
  });

  it('runs the installed CLI: help, and the embedded engine on a scratch root', () => {
    const bin = join(prefix, 'bin', 'isulats');
    const help = run(bin, ['--help'], dir);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('isulats/0.1.0');
    const root = join(dir, 'root');
    const pods = run(bin, ['--root', root, '--state', join(dir, 'state'), 'pods'], dir);
    expect(pods.status, pods.stderr).toBe(0);
    expect(pods.stdout).toMatch(/^POD ID\s+CREATED\s+STATE\s+NAME/);
  });

  it('serves CRI from the installed daemon, and NRI plugins written against isulats/nri take part', async () => {
    const nriSocket = join(dir, 'nri.sock');
    daemon = await startIsulatsDaemon({
      binPath: join(installed, 'bin', 'isulats'),
      podSandboxImage: rigEnv().ISULATS_TEST_PAUSE,
      extraConfig: { 'nri-support': true, 'nri-socket': nriSocket, 'nri-plugin-dir': join(dir, 'no-plugins'), 'nri-plugin-config-dir': join(dir, 'no-conf') },
    });
    cri = openCriClient(daemon.endpoint);
    expect((await cri.runtime('Version', {})).runtimeName).toBe('isulats');

    // A plugin author's project: the release installed into it, the examples copied in.
    const project = join(dir, 'plugins');
    cpSync(join(REPO_ROOT, 'examples', 'nri', 'standalone'), project, { recursive: true });
    const local = run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], project);
    expect(local.status, local.stderr).toBe(0);
    // tsc and @types/node are the author's tools; borrowed from this checkout's node_modules.
    symlinkSync(join(REPO_ROOT, 'node_modules', '@types'), join(project, 'node_modules', '@types'));
    const tsc = run(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project);
    expect(`${tsc.stdout}${tsc.stderr}`.trim()).toBe('');
    expect(existsSync(join(project, 'annotate.js'))).toBe(true);

    let logged = '';
    const start = (file: string): void => {
      const p = spawn(process.execPath, [file, '--socket', nriSocket], { cwd: project, env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
      p.stderr!.on('data', (b: Buffer) => (logged += b.toString()));
      plugins.push(p);
    };
    start('logger.mjs');
    start('annotate.js');
    await waitFor(async () => logged.includes('"event":"Synchronize pods=0 containers=0"'), { timeoutMs: 30_000, what: 'the logger plugin to synchronize' });
    await waitFor(async () => {
      const out = run(join(prefix, 'bin', 'isulats'), ['-r', daemon!.endpoint, 'nri', 'plugins'], dir).stdout;
      return out.includes('logger') && out.includes('annotate');
    }, { timeoutMs: 30_000, what: 'both plugins registered with the daemon' });

    const image = rigEnv().ISULATS_TEST_BUSYBOX;
    await cri.image('PullImage', { image: { image } }, 60_000);
    const uid = randomUUID();
    const pod = {
      metadata: { name: `pkg-${uid.slice(0, 8)}`, uid, namespace: 'pkg', attempt: 0 },
      linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
    };
    const { podSandboxId } = await cri.runtime('RunPodSandbox', { config: pod }, 60_000);
    const { containerId } = await cri.runtime('CreateContainer', { podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'app' }, image: { image }, command: ['sleep', '600'] } }, 60_000);
    await cri.runtime('StartContainer', { containerId });
    const env = await cri.runtime('ExecSync', { containerId, cmd: ['env'], timeout: 10 }, 30_000);
    expect(Buffer.from(env.stdout).toString()).toContain('NRI_ANNOTATED=1');
    expect(logged).toContain(`annotating pkg/${pod.metadata.name}/app`);
    await waitFor(async () => logged.includes('"event":"StartContainer"'), { timeoutMs: 10_000, what: 'the logger to see the start' });
    expect(logged).toContain(`"event":"RunPodSandbox","pod":"${pod.metadata.name}","namespace":"pkg"`);
    await cri.runtime('StopPodSandbox', { podSandboxId });
    await cri.runtime('RemovePodSandbox', { podSandboxId });
  });
});
