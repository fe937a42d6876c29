// The daemon's NRI: daemon.json's nri keys switch it on, the engine it serves
// launches the pre-installed plugins once and accepts external plugins on
// the NRI socket, `nri plugins` is answered through the admin service, and
// stopping the daemon sends every plugin Shutdown.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/daemon/logger.js';
import { adminExtras } from '../../src/client/admin-client.js';
import { openEmbeddedBackend } from '../../src/client/embedded.js';
import { parseDaemonJson, resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';
import { bundleExamplePlugins } from '../rig/nri-plugin-bundles.js';
import { waitFor } from '../rig/wait.js';

describe('NRI in the daemon', () => {
  let dir: string;
  let daemon: Daemon | undefined;
  let external: ChildProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync('/tmp/isnrd-');
    await bundleExamplePlugins(join(dir, 'b'), ['logger']);
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop().catch(() => undefined);
    if (external && external.exitCode === null && external.signalCode === null) external.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('serves pre-installed and external plugins, lists them through the admin service, and shuts them down on stop', async () => {
    const pluginDir = join(dir, 'plugins');
    const confDir = join(dir, 'conf');
    mkdirSync(pluginDir);
    mkdirSync(confDir);
    const preLog = join(dir, 'pre.log');
    writeFileSync(join(pluginDir, '10-logger'), `#!/bin/sh\nexec "${process.execPath}" "${join(dir, 'b', 'logger.mjs')}"\n`);
    chmodSync(join(pluginDir, '10-logger'), 0o755);
    writeFileSync(join(confDir, '10-logger.conf'), `logFile: ${preLog}\n`);
    const nriSocket = join(dir, 'nri.sock');
    const file = parseDaemonJson(JSON.stringify({
      'nri-support': true, 'nri-socket': nriSocket, 'nri-plugin-dir': pluginDir, 'nri-plugin-config-dir': confDir,
      'nri-registration-timeout': '5s', 'nri-request-timeout': '2s',
    }));
    const base = resolveDaemonConfig(file, { socket: join(dir, 'd.sock'), pidfile: join(dir, 'd.pid'), root: join(dir, 'root'), state: join(dir, 'state') });
    const logs: string[] = [];
    daemon = await startDaemon({
      config: { ...base, websocketServerListeningPort: 0 },
      backendFactory: (cfg) => openEmbeddedBackend({ timeoutMs: 60_000, daemonConfig: cfg }),
      log: createLogger('debug', (line) => logs.push(line)),
      shutdownGraceMs: 5_000,
    });
    const extras = adminExtras(daemon.endpoints[0]!, 10_000)!;
    expect((await extras.nriPlugins!()).map((p) => [p.index, p.name, p.external])).toEqual([['10', 'logger', false]]);
    expect(await extras.nriConfig!()).toEqual({
      enabled: true, mode: 'daemon', socket: nriSocket, externalConnections: true, pluginDir, pluginConfigDir: confDir,
      registrationTimeoutMs: 5000, requestTimeoutMs: 2000,
    });

    let extLog = '';
    external = spawn(process.execPath, [join(dir, 'b', 'logger.mjs'), '--socket', nriSocket, '--idx', '20', '--name', 'ext'], { stdio: ['ignore', 'ignore', 'pipe'] });
    external.stderr!.on('data', (d: Buffer) => (extLog += d.toString()));
    const plugins = await waitFor(async () => {
      const list = await extras.nriPlugins!();
      return list.length === 2 ? list : undefined;
    }, { timeoutMs: 15_000, what: 'the external plugin in nri plugins' });
    // An external plugin's PID comes from its connection (SO_PEERCRED).
    expect(plugins[1]).toMatchObject({ name: 'ext', index: '20', external: true, pid: external.pid });
    expect(plugins[0]!.pid).toBeGreaterThan(0);
    expect(Date.parse(plugins[1]!.connectedSince!)).not.toBeNaN();

    const exited = new Promise((r) => external!.once('exit', r));
    await daemon.stop();
    daemon = undefined;
    await exited;
    const events = (text: string) => text.split('\n').filter((l) => l.startsWith('{"event"')).map((l) => (JSON.parse(l) as { event: string }).event);
    expect(events(readFileSync(preLog, 'utf8'))).toEqual(['Configure isulats 0.1.0', 'Synchronize pods=0 containers=0', 'Shutdown']);
    expect(events(extLog)).toEqual(['Configure isulats 0.1.0', 'Synchronize pods=0 containers=0', 'Shutdown']);
    expect(() => process.kill(plugins[0]!.pid!, 0)).toThrow();
  }, 90_000);
});
