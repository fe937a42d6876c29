// NRI wired into the engine, against real runc/conmon/CNI and the SDK's
// example plugins bundled with esbuild: adjustments visible inside the
// running container, conflicts failing the create cleanly, a hung plugin
// timing out, an external plugin on a daemon-mode engine, Shutdown on close;
// and a plugin on upstream's Go stub (NRI 0.6), pre-installed and external.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/runtime/engine.js';
import type { NriEngineOptions } from '../../src/runtime/config/engine-config.js';
import { goToolPath } from '../rig/go-tools.js';
import { bundlePlugin } from '../rig/nri-plugin-bundles.js';
import { nriPluginDir, reopenWithNri } from './nri-fixture.js';
import { waitFor } from '../rig/wait.js';
import { anyAlive, BUSYBOX_REF, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

const envSetter = (name: string, value: string) => `
import { adjustment, runPlugin } from './src/nri/sdk/index.js';
await runPlugin({ createContainer: () => ({ adjust: adjustment().addEnv('MODE', '${value}').build() }) }, { name: '${name}', idx: '50' });
`;
// Asks, unsolicited, for a memory limit on 'grow' and the eviction of 'doomed' once they run.
const MANAGER = `
import { Stub } from './src/nri/sdk/index.js';
const plugin = {
  postStartContainer(_pod, c) {
    if (c.name === 'grow') setTimeout(() => void stub.updateContainers([{ containerId: c.id, linux: { resources: { memory: { limit: { value: '67108864' } } } } }]), 10);
    if (c.name === 'doomed') setTimeout(() => void stub.evict(c.id, 'test eviction'), 10);
  },
};
const stub = new Stub(plugin, { name: 'manager', idx: '40' });
await stub.run();
`;
// As upstream's v0.1 clearcfs behind the v010-adapter: at StartContainer, lifts the CFS quota in the
// container's cgroup (which must exist by then) and records what it found there.
const clearCfs = (out: string) => `
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPlugin } from './src/nri/sdk/index.js';
const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
await runPlugin({
  startContainer(_pod, c) {
    const path = c.linux?.cgroupsPath ?? '';
    const dir = join('/sys/fs/cgroup', v2 ? '' : 'cpu', path);
    const procCgroup = c.pid > 0 ? readFileSync('/proc/' + c.pid + '/cgroup', 'utf8') : '';
    let cleared = 'yes';
    try {
      writeFileSync(join(dir, v2 ? 'cpu.max' : 'cpu.cfs_quota_us'), v2 ? 'max' : '-1');
    } catch (e) {
      cleared = e.message;
    }
    const seen = { name: c.name, state: c.state, pid: c.pid, cgroupExists: existsSync(dir), pidInCgroup: path !== '' && procCgroup.includes(path), cleared };
    appendFileSync(${JSON.stringify(out)}, JSON.stringify(seen) + '\\n');
  },
}, { name: 'clearcfs', idx: '60' });
`;
const REFUSER = `
import { runPlugin } from './src/nri/sdk/index.js';
await runPlugin({
  startContainer(_pod, c) {
    if (c.name === 'refused') throw new Error('no start for ' + c.name + ' today');
  },
}, { name: 'refuser', idx: '70' });
`;
const HUNG = `
import { runPlugin } from './src/nri/sdk/index.js';
await runPlugin({ createContainer: () => new Promise(() => undefined) }, { name: 'hung', idx: '05' });
`;

describe('NRI in the engine', () => {
  let fx: RuntimeFixture;
  let bundles: string;
  let sockDir: string;

  beforeAll(async () => {
    fx = await openFixture();
    bundles = join(fx.dir, 'nri-bundles');
    await Promise.all([
      bundlePlugin(bundles, 'env', { example: 'env-ulimit-adjuster' }),
      bundlePlugin(bundles, 'mounts', { example: 'device-mount-injector' }),
      bundlePlugin(bundles, 'logger', { example: 'logger' }),
      bundlePlugin(bundles, 'mode-a', { source: envSetter('mode-a', 'a') }),
      bundlePlugin(bundles, 'mode-b', { source: envSetter('mode-b', 'b') }),
      bundlePlugin(bundles, 'hung', { source: HUNG }),
      bundlePlugin(bundles, 'manager', { source: MANAGER }),
      bundlePlugin(bundles, 'clearcfs', { source: clearCfs(join(fx.dir, 'clearcfs.jsonl')) }),
      bundlePlugin(bundles, 'refuser', { source: REFUSER }),
    ]);
    sockDir = mkdtempSync('/tmp/isnri-');
  }, 120_000);

  afterAll(async () => {
    await fx?.dispose();
    if (sockDir) rmSync(sockDir, { recursive: true, force: true });
  }, 120_000);

  const pluginDir = (plugins: Record<string, string>): string => nriPluginDir(fx.dir, bundles, plugins);
  const engineWith = (nri: NriEngineOptions) => reopenWithNri(fx, { registrationTimeoutMs: 5000, requestTimeoutMs: 2000 }, nri);

  const containerDirs = () => readdirSync(join(fx.options.root, 'containers')).filter((n) => /^[0-9a-f]{64}$/.test(n));

  it('applies env, rlimit and mount adjustments of pre-installed plugins inside the running container, then shuts them down', async () => {
    const data = mkdtempSync(join(fx.dir, 'data-'));
    writeFileSync(join(data, 'marker'), 'from-the-host\n');
    const confDir = mkdtempSync(join(fx.dir, 'conf-'));
    const eventLog = join(confDir, 'events.log');
    writeFileSync(join(confDir, '30-logger.conf'), `logFile: ${eventLog}\n`);
    // The adjusters take annotations only from namespaces their configuration trusts.
    writeFileSync(join(confDir, '10-env.conf'), 'allowedNamespaces: [rt-test]\n');
    writeFileSync(join(confDir, '20-mounts.conf'), 'allowedNamespaces: [rt-test]\n');
    const { engine } = await engineWith({ enabled: true, mode: 'embedded', pluginConfigDir: confDir, pluginDir: pluginDir({ '10-env': 'env', '20-mounts': 'mounts', '30-logger': 'logger' }) });
    const pod = podConfig('nri-adjust', {
      annotations: {
        'env.nri.isulats.io/container.app': 'GREETING: hello-nri\n',
        // RLIMIT_CORE: runc 1.1.5 (Go 1.19) does not keep a NOFILE soft limit (golang/go#46279).
        'ulimits.nri.isulats.io/container.app': '- type: core\n  soft: 1024\n  hard: 2048\n',
        'mounts.nri.isulats.io/container.app': `- source: ${data}\n  destination: /data\n  type: bind\n  options: [rbind, ro]\n`,
      },
    });
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const plugins = engine.nriPlugins();
    expect(plugins.map((p) => `${p.index}-${p.name}`)).toEqual(['10-env', '20-mounts', '30-logger']);
    const { containerId } = await engine.createContainer({
      podSandboxId,
      config: { metadata: { name: 'app' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
      sandboxConfig: pod,
    });
    await engine.startContainer({ containerId });
    const env = await engine.execSync({ containerId, cmd: ['env'], timeout: 10 });
    expect(env.stdout.toString()).toMatch(/^GREETING=hello-nri$/m);
    const core = await engine.execSync({ containerId, cmd: ['grep', 'Max core file size', '/proc/self/limits'], timeout: 10 });
    expect(core.stdout.toString()).toMatch(/^Max core file size\s+1024\s+2048\s+bytes/);
    const marker = await engine.execSync({ containerId, cmd: ['cat', '/data/marker'], timeout: 10 });
    expect(marker.stdout.toString()).toBe('from-the-host\n');
    await engine.removePodSandbox({ podSandboxId });
    const pids = plugins.map((p) => p.pid ?? 0);
    expect(await anyAlive(pids)).toBe(true);
    await engine.close();
    expect(await anyAlive(pids)).toBe(false);
    const events = readFileSync(eventLog, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { event: string }).event);
    expect(events).toEqual([
      'Configure isulats 0.1.0', 'Synchronize pods=0 containers=0',
      'RunPodSandbox', 'CreateContainer', 'PostCreateContainer', 'StartContainer', 'PostStartContainer',
      'StopContainer', 'RemoveContainer', 'StopPodSandbox', 'RemovePodSandbox', 'Shutdown',
    ]);
  }, 120_000);

  it('fails a create two plugins disagree on with a one-line error and leaves nothing behind', async () => {
    const { engine } = await engineWith({ enabled: true, mode: 'embedded', pluginDir: pluginDir({ '10-mode-a': 'mode-a', '20-mode-b': 'mode-b' }) });
    const pod = podConfig('nri-conflict');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const before = { dirs: containerDirs(), mounts: await mountsUnder(fx.dir) };
    const create = engine.createContainer({
      podSandboxId,
      config: { metadata: { name: 'clash' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
      sandboxConfig: pod,
    });
    const err = (await create.catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/^NRI: .*MODE/);
    expect(err.message).toMatch(/mode-a/);
    expect(err.message).not.toContain('\n');
    expect((await engine.listContainers({})).containers).toEqual([]);
    expect(containerDirs()).toEqual(before.dirs);
    expect(await mountsUnder(fx.dir)).toEqual(before.mounts);
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
  }, 120_000);

  it('sends StartContainer once the container\'s process and cgroup exist, before it starts', async () => {
    const { engine } = await engineWith({ enabled: true, mode: 'embedded', pluginDir: pluginDir({ '60-clearcfs': 'clearcfs' }) });
    const pod = podConfig('nri-clearcfs');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const { containerId } = await engine.createContainer({
      podSandboxId,
      config: { metadata: { name: 'throttled' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], linux: { resources: { cpuQuota: 50_000, cpuPeriod: 100_000 } } },
      sandboxConfig: pod,
    });
    await engine.startContainer({ containerId });
    const seen = readFileSync(join(fx.dir, 'clearcfs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const { pid, cgroupsPath } = JSON.parse((await engine.containerStatus({ containerId, verbose: true })).info.info!) as { pid: number; cgroupsPath: string };
    expect(seen).toEqual([{ name: 'throttled', state: 'CONTAINER_CREATED', pid, cgroupExists: true, pidInCgroup: true, cleared: 'yes' }]);
    // The plugin's write survived runc start: the quota is lifted in the running container.
    const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
    const quota = readFileSync(join('/sys/fs/cgroup', v2 ? '' : 'cpu', cgroupsPath, v2 ? 'cpu.max' : 'cpu.cfs_quota_us'), 'utf8').trim();
    expect(quota).toBe(v2 ? 'max 100000' : '-1');
    expect((await engine.containerStatus({ containerId })).status?.state).toBe('CONTAINER_RUNNING');
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
  }, 120_000);

  it('fails a start a plugin refuses with one line naming the plugin, and leaves the container exited', async () => {
    const confDir = mkdtempSync(join(fx.dir, 'conf-'));
    const eventLog = join(confDir, 'events.log');
    writeFileSync(join(confDir, '30-logger.conf'), `logFile: ${eventLog}\n`);
    const { engine } = await engineWith({ enabled: true, mode: 'embedded', pluginConfigDir: confDir, pluginDir: pluginDir({ '30-logger': 'logger', '70-refuser': 'refuser' }) });
    const pod = podConfig('nri-refuse');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const create = async (name: string) => (await engine.createContainer({
      podSandboxId,
      config: { metadata: { name }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
      sandboxConfig: pod,
    })).containerId;
    const refused = await create('refused');
    const err = (await engine.startContainer({ containerId: refused }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/^NRI container start failed: NRI plugin 70-refuser failed to handle StartContainer: no start for refused today$/);
    const status = (await engine.containerStatus({ containerId: refused, verbose: true }));
    expect(status.status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 128, reason: 'StartError', message: err.message });
    // runc no longer holds it: the created process was deleted with its cgroup.
    expect(await engine.ctx.oci.known(refused)).toBe(false);
    const { cgroupsPath } = JSON.parse(status.info.info!) as { cgroupsPath: string };
    expect(existsSync(join('/sys/fs/cgroup/memory', cgroupsPath))).toBe(false);
    await expect(engine.startContainer({ containerId: refused })).rejects.toThrow(/not CONTAINER_CREATED/);
    const accepted = await create('accepted');
    await engine.startContainer({ containerId: accepted });
    expect((await engine.containerStatus({ containerId: accepted })).status?.state).toBe('CONTAINER_RUNNING');
    await engine.removeContainer({ containerId: refused });
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
    const events = readFileSync(eventLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; container?: string })
      .filter((e) => e.container === 'refused').map((e) => e.event);
    expect(events).toEqual(['CreateContainer', 'PostCreateContainer', 'StartContainer', 'StopContainer', 'RemoveContainer']);
  }, 120_000);

  it('creates the container without a plugin that hangs past the request timeout', async () => {
    const confDir = mkdtempSync(join(fx.dir, 'conf-'));
    writeFileSync(join(confDir, '10-env.conf'), 'allowedNamespaces: [rt-test]\n');
    const { engine, warnings } = await engineWith({ enabled: true, mode: 'embedded', requestTimeoutMs: 1000, pluginConfigDir: confDir, pluginDir: pluginDir({ '05-hung': 'hung', '10-env': 'env' }) });
    const pod = podConfig('nri-hung', { annotations: { 'env.nri.isulats.io/pod': 'STILL: here\n' } });
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const { containerId } = await engine.createContainer({
      podSandboxId,
      config: { metadata: { name: 'patient' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
      sandboxConfig: pod,
    });
    // Dropped because its request timed out (not for a refused connection or an error it answered).
    expect(engine.ctx.nri?.pluginFailures()).toEqual([{ plugin: '05-hung', errors: 0, timeouts: 1 }]);
    expect(engine.nriPlugins().map((p) => p.name)).toEqual(['env']);
    await engine.startContainer({ containerId });
    const env = await engine.execSync({ containerId, cmd: ['env'], timeout: 10 });
    expect(env.stdout.toString()).toMatch(/^STILL=here$/m);
    expect(warnings.join('\n')).toMatch(/hung/);
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
  }, 120_000);

  it('applies a plugin\'s unsolicited update to the cgroup and stops the container it evicts', async () => {
    const { engine, warnings } = await engineWith({ enabled: true, mode: 'embedded', pluginDir: pluginDir({ '40-manager': 'manager' }) });
    const pod = podConfig('nri-manage');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const run = async (name: string) => {
      const { containerId } = await engine.createContainer({
        podSandboxId,
        config: { metadata: { name }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
        sandboxConfig: pod,
      });
      await engine.startContainer({ containerId });
      return containerId;
    };
    const grow = await run('grow');
    const info = JSON.parse((await engine.containerStatus({ containerId: grow, verbose: true })).info.info!) as { cgroupsPath: string };
    const limitFile = join('/sys/fs/cgroup/memory', info.cgroupsPath, 'memory.limit_in_bytes');
    await waitFor(async () => readFileSync(limitFile, 'utf8').trim() === '67108864', { timeoutMs: 10_000, what: 'the memory limit a plugin asked for' });
    const doomed = await run('doomed');
    await waitFor(async () => (await engine.containerStatus({ containerId: doomed })).status?.state === 'CONTAINER_EXITED', { timeoutMs: 20_000, what: 'the evicted container to stop' });
    expect((await engine.containerStatus({ containerId: grow })).status?.state).toBe('CONTAINER_RUNNING');
    expect(warnings.join('\n')).toMatch(/evicting container [0-9a-f]{64}: test eviction/);
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
  }, 120_000);

  it('delivers events to an external plugin on the daemon-mode socket and sends it Shutdown on close', async () => {
    const socketPath = join(sockDir, 'nri.sock');
    const { engine } = await engineWith({ enabled: true, mode: 'daemon', socketPath, enableExternalConnections: true, pluginDir: pluginDir({}) });
    let plugin: ChildProcess | undefined;
    try {
      plugin = spawn(process.execPath, [join(bundles, 'logger.mjs'), '--socket', socketPath, '--idx', '30', '--name', 'ext-logger'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let log = '';
      plugin.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      await waitFor(async () => engine.nriPlugins().length === 1, { timeoutMs: 15_000, what: 'the external plugin to register' });
      expect(engine.nriPlugins()[0]).toMatchObject({ name: 'ext-logger', index: '30', external: true });
      const pod = podConfig('nri-external');
      const { podSandboxId } = await engine.runPodSandbox({ config: pod });
      const { containerId } = await engine.createContainer({
        podSandboxId,
        config: { metadata: { name: 'watched' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
        sandboxConfig: pod,
      });
      await engine.startContainer({ containerId });
      await engine.updateContainerResources({ containerId, linux: { memoryLimitInBytes: '134217728' } });
      await engine.stopContainer({ containerId, timeout: 0 });
      await engine.removePodSandbox({ podSandboxId });
      const exited = new Promise((r) => plugin!.once('exit', r));
      await engine.close();
      await exited;
      // stderr also carries the SDK's own log lines.
      const events = log.split('\n').filter((l) => l.startsWith('{"event"')).map((l) => (JSON.parse(l) as { event: string }).event);
      expect(events).toEqual([
        'Configure isulats 0.1.0', 'Synchronize pods=0 containers=0',
        'RunPodSandbox', 'CreateContainer', 'PostCreateContainer', 'StartContainer', 'PostStartContainer',
        'UpdateContainer', 'PostUpdateContainer',
        'StopContainer', 'RemoveContainer', 'StopPodSandbox', 'RemovePodSandbox', 'Shutdown',
      ]);
    } finally {
      if (plugin && plugin.exitCode === null && plugin.signalCode === null) plugin.kill('SIGKILL');
    }
  }, 120_000);

  // examples/nri/go-reference-plugin adds FROM_GO=yes, an annotation and RLIMIT_NOFILE 1024/4096.
  it('runs a container adjusted by a plugin on upstream\'s Go stub, pre-installed and external', async () => {
    const goPlugin = goToolPath('go-nri-plugin');
    const check = async (engine: Engine, name: string): Promise<void> => {
      const pod = podConfig(`nri-go-${name}`);
      const { podSandboxId } = await engine.runPodSandbox({ config: pod });
      const { containerId } = await engine.createContainer({
        podSandboxId,
        config: { metadata: { name }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
        sandboxConfig: pod,
      });
      await engine.startContainer({ containerId });
      const env = await engine.execSync({ containerId, cmd: ['env'], timeout: 10 });
      expect(env.stdout.toString()).toMatch(/^FROM_GO=yes$/m);
      // The hard limit is the plugin's (runc 1.1.5 raises the soft one: golang/go#46279).
      const nofile = await engine.execSync({ containerId, cmd: ['grep', 'Max open files', '/proc/self/limits'], timeout: 10 });
      expect(nofile.stdout.toString()).toMatch(/^Max open files\s+\d+\s+4096\s+files/);
      await engine.removePodSandbox({ podSandboxId });
    };
    const goLog = (l: string) => readFileSync(l, 'utf8').trim().split('\n').map((line) => line.split(' ')[0]);

    const preLog = join(fx.dir, 'go-pre.log');
    const dir = mkdtempSync(join(fx.dir, 'plugins-'));
    writeFileSync(join(dir, '40-goplug'), `#!/bin/sh\nGOPLUGIN_LOG=${preLog} exec ${goPlugin}\n`);
    chmodSync(join(dir, '40-goplug'), 0o755);
    const pre = await engineWith({ enabled: true, mode: 'embedded', pluginDir: dir });
    await check(pre.engine, 'pre');
    await pre.engine.close();
    expect(goLog(preLog)).toEqual(expect.arrayContaining(['Configure', 'Synchronize', 'CreateContainer', 'StartContainer', 'Shutdown']));

    const socketPath = join(sockDir, 'nri-go.sock');
    const ext = await engineWith({ enabled: true, mode: 'daemon', socketPath, enableExternalConnections: true, pluginDir: pluginDir({}) });
    const extLog = join(fx.dir, 'go-ext.log');
    const plugin = spawn(goPlugin, ['-socket', socketPath, '-idx', '41', '-name', 'goext'], { stdio: 'ignore', env: { GOPLUGIN_LOG: extLog } });
    try {
      await waitFor(async () => ext.engine.nriPlugins().length === 1, { timeoutMs: 15_000, what: 'the Go plugin to register' });
      expect(ext.engine.nriPlugins()[0]).toMatchObject({ name: 'goext', index: '41', external: true, pid: plugin.pid });
      await check(ext.engine, 'ext');
      const exited = new Promise((r) => plugin.once('exit', r));
      await ext.engine.close();
      await exited;
      expect(goLog(extLog)).toEqual(expect.arrayContaining(['Configure', 'Synchronize', 'CreateContainer', 'StartContainer', 'Shutdown']));
    } finally {
      if (plugin.exitCode === null && plugin.signalCode === null) plugin.kill('SIGKILL');
    }
  }, 120_000);
});
