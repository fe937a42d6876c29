// NRI in the embedded CLI: with `nri-support` in daemon.json, each CLI
// operation that has events launches the pre-installed plugins, synchronises
// them, delivers its events and sends Shutdown before the process exits.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../rig/cli.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { unmountUnder } from '../rig/host-cleanup.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { writeContainerConfig, writePodConfig } from '../rig/pod-configs.js';
import { bundleExamplePlugins } from '../rig/nri-plugin-bundles.js';

describe('NRI in the embedded CLI', () => {
  let dir: string;
  let base: string[];
  let env: Record<string, string>;
  const cli = (args: string[]): Promise<CliResult> => runCli([...base, ...args], { env, timeoutMs: 60_000 });
  async function ok(args: string[]): Promise<string> {
    const r = await cli(args);
    if (r.code !== 0) throw new Error(`isulats ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return r.stdout;
  }

  beforeAll(async () => {
    dir = await makeTempDir('ist-nric-');
    const bundles = join(dir, 'b');
    await bundleExamplePlugins(bundles, ['env-ulimit-adjuster', 'logger']);
    const pluginDir = join(dir, 'plugins');
    const confDir = join(dir, 'conf');
    mkdirSync(pluginDir);
    mkdirSync(confDir);
    for (const [name, bundle] of [['10-env', 'env-ulimit-adjuster'], ['30-logger', 'logger']]) {
      writeFileSync(join(pluginDir, name!), `#!/bin/sh\nexec "${process.execPath}" "${join(bundles, `${bundle}.mjs`)}"\n`);
      chmodSync(join(pluginDir, name!), 0o755);
    }
    writeFileSync(join(confDir, '30-logger.conf'), `logFile: ${join(dir, 'events.log')}\n`);
    // The adjuster takes annotations only from namespaces its configuration trusts.
    writeFileSync(join(confDir, '10-env.conf'), 'allowedNamespaces: ["*"]\n');
    writeFileSync(join(dir, 'daemon.json'), JSON.stringify({ 'nri-support': true, 'nri-plugin-dir': pluginDir, 'nri-plugin-config-dir': confDir, 'nri-socket': join(dir, 'nri.sock') }));
    mkdirSync(join(dir, 'cni'));
    env = { ISULATS_DAEMON_CONFIG: join(dir, 'daemon.json'), ISULATS_CNI_CONF_DIR: join(dir, 'cni'), CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_SOCKET: join(dir, 'no-daemon.sock') };
    base = ['--root', join(dir, 'root'), '--state', join(dir, 'state')];
    const rootfs = join(dir, 'rootfs');
    await populateBusyboxRootfs(rootfs);
    await ok(['import', '--cmd', 'sh', rootfs, 'local/busybox:nri']);
  }, 180_000);

  afterAll(async () => {
    if (!dir) return;
    await cli(['rmp', '-a', '-f']).catch(() => undefined);
    await unmountUnder(dir);
    await removeTempDir(dir);
  }, 120_000);

  it('adjusts the container through plugins launched per operation and shut down when each ends', async () => {
    const podFile = await writePodConfig(dir, { name: 'nri-cli', namespaces: { network: 'NODE' }, annotations: { 'env.nri.isulats.io/container.app': 'FROM_PLUGIN: yes\n' } });
    const ctrFile = await writeContainerConfig(dir, { name: 'app', image: 'local/busybox:nri', command: ['sleep', '3600'] });
    const pod = (await ok(['runp', podFile])).trim();
    const ctr = (await ok(['create', pod, ctrFile, podFile])).trim();
    await ok(['start', ctr]);
    expect(await ok(['exec', ctr, 'env'])).toMatch(/^FROM_PLUGIN=yes$/m);
    expect(await ok(['nri', 'plugins'])).toMatch(/logger/);
    await ok(['rmp', '-f', pod]);
    const events = readFileSync(join(dir, 'events.log'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { event: string }).event);
    // One launch per operation with events (runp, create, start, rmp -f = stop then remove), each synchronised first and shut down at its end.
    expect(events).toEqual([
      'Configure isulats 0.1.0', 'Synchronize pods=0 containers=0', 'RunPodSandbox', 'Shutdown',
      'Configure isulats 0.1.0', 'Synchronize pods=1 containers=0', 'CreateContainer', 'PostCreateContainer', 'Shutdown',
      'Configure isulats 0.1.0', 'Synchronize pods=1 containers=1', 'StartContainer', 'PostStartContainer', 'Shutdown',
      'Configure isulats 0.1.0', 'Synchronize pods=1 containers=1', 'StopContainer', 'StopPodSandbox', 'RemoveContainer', 'RemovePodSandbox', 'Shutdown',
    ]);
  }, 120_000);

  it('shows the NRI configuration this CLI runs with, from daemon.json', async () => {
    const rows = (await ok(['nri', 'config'])).trimEnd().split('\n');
    expect(rows[0]).toMatch(/^KEY\s+VALUE$/);
    const value = (key: string) => rows.find((r) => r.startsWith(`${key} `))?.split(/\s+/)[1];
    expect(value('enabled')).toBe('true');
    expect(value('mode')).toBe('embedded');
    expect(value('socket')).toBe(join(dir, 'nri.sock'));
    // No process of the CLI lives long enough to own the socket.
    expect(value('external-connections')).toBe('false');
    expect(value('plugin-dir')).toBe(join(dir, 'plugins'));
    expect(value('registration-timeout')).toBe('5000ms');
    const doc = JSON.parse(await ok(['nri', 'config', '-o', 'json'])) as Record<string, unknown>;
    expect(doc).toMatchObject({ enabled: true, mode: 'embedded', pluginConfigDir: join(dir, 'conf'), requestTimeoutMs: 2000 });
  });
});
