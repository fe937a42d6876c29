// The runtime side of NRI (Adaptation) against SDK plugins over real unix
// sockets, with a fake engine made of plain data callbacks: registration,
// configuration, synchronisation, merged adjustments, conflicts, validation,
// timeouts, crashes, pre-launched plugins and old-generation plugins.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type * as nri from '../../src/api/nri.js';
import { Adaptation, AdjustmentError, type AdaptationOptions } from '../../src/nri/adaptation/adaptation.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../../src/nri/mux/mux.js';
import { PLUGIN_SERVICE, RUNTIME_SERVICE, loadNriCodec } from '../../src/nri/protocol.js';
import { Stub, adjustment, type Plugin } from '../../src/nri/sdk/index.js';
import { TtrpcClient, TtrpcServer, loadEnvelopes } from '../../src/nri/ttrpc/index.js';
import { DeviceMountInjector } from '../../examples/nri/device-mount-injector.js';
import { EnvUlimitAdjuster } from '../../examples/nri/env-ulimit-adjuster.js';
/** The example adjusters take annotations only from trusted namespaces; these tests trust all. */
const TRUST_ALL = { allowedNamespaces: ['*'] };
import { EventLogger } from '../../examples/nri/logger.js';

const ROOT = resolve(import.meta.dirname, '../..');

const pod: nri.PodSandboxIn = {
  id: 'pod-1',
  name: 'web',
  uid: 'uid-1',
  namespace: 'default',
  annotations: {
    'env.nri.isulats.io/container.app': 'GREETING: hello\nMODE: test',
    'ulimits.nri.isulats.io/container.app': '- type: nofile\n  soft: 1024\n  hard: 2048',
    'devices.nri.isulats.io/container.app': '- path: /dev/nri-null\n  type: c\n  major: 1\n  minor: 3\n  file_mode: "0666"',
    'mounts.nri.isulats.io/container.app': '- source: /tmp\n  destination: /data\n  options: [rbind, ro]',
  },
};
const container: nri.ContainerIn = { id: 'ctr-1', podSandboxId: 'pod-1', name: 'app', state: 'CONTAINER_CREATED', args: ['sh'], env: ['PATH=/bin'] };

/** A plugin process that dies (exit code 7) while handling CreateContainer. */
const CRASHER = `
import { Stub } from './src/nri/sdk/index.js';
const stub = new Stub({ createContainer: () => process.exit(7) }, { name: 'crasher', idx: '10', socketPath: process.argv[2], log: () => undefined });
await stub.run();
`;

interface Engine {
  updates: nri.ContainerUpdate[][];
  evictions: nri.ContainerEviction[][];
  options: AdaptationOptions;
}

function fakeEngine(dir: string, extra: Partial<AdaptationOptions> = {}): Engine {
  const engine: Engine = { updates: [], evictions: [], options: undefined as unknown as AdaptationOptions };
  engine.options = {
    runtimeName: 'isulats',
    runtimeVersion: '0.0.0-test',
    socketPath: join(dir, 'nri.sock'),
    enableExternalConnections: true,
    registrationTimeoutMs: 2000,
    requestTimeoutMs: 1000,
    syncFn: async () => ({ pods: [pod], containers: [{ ...container, state: 'CONTAINER_RUNNING' }] }),
    updateFn: async (u) => {
      engine.updates.push(u);
      return [];
    },
    evictFn: async (e) => {
      engine.evictions.push(e);
    },
    ...extra,
  };
  return engine;
}

async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('NRI adaptation with SDK plugins', () => {
  let dir: string;
  let nriRuntime: Adaptation | undefined;
  const stubs: Stub[] = [];
  const children: ChildProcess[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'nri-'));
  });
  afterEach(async () => {
    for (const s of stubs.splice(0)) s.stop();
    await nriRuntime?.stop();
    nriRuntime = undefined;
    for (const c of children.splice(0)) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await new Promise((r) => c.once('exit', r));
      }
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function startRuntime(extra: Partial<AdaptationOptions> = {}): Promise<Engine> {
    const engine = fakeEngine(mkdtempSync(join(dir, 'r')), extra);
    nriRuntime = new Adaptation(engine.options);
    await nriRuntime.start();
    return engine;
  }

  async function connect(plugin: Plugin, name: string, idx: string): Promise<Stub> {
    const stub = new Stub(plugin, { name, idx, socketPath: nriRuntime!['opts'].socketPath, log: () => undefined });
    stubs.push(stub);
    await stub.start();
    await until(() => nriRuntime!.plugins().some((p) => p.name === name), `${name} to be listed`);
    return stub;
  }

  it('registers, configures and synchronises an external plugin', async () => {
    await startRuntime();
    const logFile = join(dir, 'sync.log');
    await connect(new EventLogger(logFile), 'logger', '10');
    const [info] = nriRuntime!.plugins();
    expect(info).toMatchObject({ name: 'logger', index: '10', external: true, pid: undefined });
    expect(info.events).toContain('CreateContainer');
    expect(info.events).toContain('RunPodSandbox');
    expect(info.events).not.toContain('ValidateContainerAdjustment');
    const lines = readFileSync(logFile, 'utf8');
    expect(lines).toContain('Configure isulats 0.0.0-test');
    expect(lines).toContain('Synchronize pods=1 containers=1');
  });

  it('synchronises a state over 4 MiB in chunks marked more', async () => {
    const big = 'x'.repeat(100_000);
    const containers = Array.from({ length: 60 }, (_, i) => ({ ...container, id: `c${i}`, annotations: { big } }));
    await startRuntime({ syncFn: async () => ({ pods: [pod], containers }) });
    let seen = 0;
    await connect({ synchronize: (_p, cs) => void (seen = cs.length), createContainer: () => undefined }, 'syncer', '10');
    expect(seen).toBe(60);
  });

  it('delivers events in index order to subscribed plugins only', async () => {
    await startRuntime();
    const seen: string[] = [];
    await connect({ runPodSandbox: () => void seen.push('20:run'), stopContainer: () => void seen.push('20:stop') }, 'second', '20');
    await connect({ runPodSandbox: () => void seen.push('05:run') }, 'first', '05');
    await nriRuntime!.runPodSandbox(pod);
    await nriRuntime!.stopContainer(pod, container);
    await nriRuntime!.removeContainer(pod, container);
    expect(seen).toEqual(['05:run', '20:run', '20:stop']);
  });

  it('merges adjustments of several plugins into one', async () => {
    await startRuntime();
    await connect(new EnvUlimitAdjuster(TRUST_ALL), 'env-ulimit', '20');
    await connect(new DeviceMountInjector(TRUST_ALL), 'injector', '30');
    const res = await nriRuntime!.createContainer(pod, container);
    expect(res.adjust.env).toEqual([
      { key: 'GREETING', value: 'hello' },
      { key: 'MODE', value: 'test' },
    ]);
    expect(res.adjust.rlimits).toEqual([{ type: 'RLIMIT_NOFILE', hard: '2048', soft: '1024' }]);
    expect(res.adjust.mounts).toEqual([{ source: '/tmp', destination: '/data', type: 'bind', options: ['rbind', 'ro'] }]);
    expect(res.adjust.linux?.devices).toMatchObject([{ path: '/dev/nri-null', type: 'c', major: '1', minor: '3', fileMode: { value: 0o666 } }]);
  });

  it('lets later plugins see earlier adjustments', async () => {
    await startRuntime();
    let seenEnv: string[] = [];
    await connect(new EnvUlimitAdjuster(TRUST_ALL), 'env-ulimit', '20');
    await connect({ createContainer: (_p, c) => void (seenEnv = c.env) }, 'observer', '90');
    await nriRuntime!.createContainer(pod, container);
    expect(seenEnv).toEqual(['PATH=/bin', 'GREETING=hello', 'MODE=test']);
  });

  it('fails the create with a clear error when two plugins set the same field', async () => {
    await startRuntime();
    await connect({ createContainer: () => ({ adjust: adjustment().addEnv('MODE', 'a').setMemoryLimit(1 << 20).build() }) }, 'alpha', '10');
    await connect({ createContainer: () => ({ adjust: adjustment().addEnv('MODE', 'b').build() }) }, 'beta', '20');
    const err = await nriRuntime!.createContainer(pod, container).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdjustmentError);
    expect((err as Error).message).toBe(
      'NRI: failed to create container app: NRI plugins "10-alpha" and "20-beta" both tried to set environment variable "MODE" of container ctr-1',
    );
  });

  it('reports a conflict on a simple resource field', async () => {
    await startRuntime();
    await connect({ createContainer: () => ({ adjust: adjustment().setMemoryLimit(1 << 20).build() }) }, 'alpha', '10');
    await connect({ createContainer: () => ({ adjust: adjustment().setMemoryLimit(2 << 20).build() }) }, 'beta', '20');
    await expect(nriRuntime!.createContainer(pod, container)).rejects.toThrow(/"10-alpha" and "20-beta" both tried to set memory limit/);
  });

  it('rejects adjustments through the default validator', async () => {
    await startRuntime({ defaultValidator: { enable: true, rejectOCIHookAdjustment: true } });
    await connect({ createContainer: () => ({ adjust: adjustment().addHooks({ prestart: [{ path: '/bin/true' }] }).build() }) }, 'hooker', '10');
    await expect(nriRuntime!.createContainer(pod, container)).rejects.toThrow(
      'NRI: container app adjustment rejected: NRI validation error: plugin "10-hooker" attempted restricted OCI hook injection',
    );
  });

  it('rejects containers missing a required plugin', async () => {
    await startRuntime({ defaultValidator: { enable: true, requiredPlugins: ['security'] } });
    await connect({ createContainer: () => undefined }, 'other', '10');
    await expect(nriRuntime!.createContainer(pod, container)).rejects.toThrow(/required plugin "security" not present/);
  });

  it('rejects adjustments through a validator plugin', async () => {
    await startRuntime();
    await connect({ createContainer: () => ({ adjust: adjustment().addAnnotation('touched', 'yes').build() }) }, 'adjuster', '10');
    let owners: unknown;
    await connect(
      {
        validateContainerAdjustment: (req) => {
          owners = req.owners?.owners['ctr-1']?.compound;
          return req.adjust?.annotations.touched === 'yes' ? 'annotation "touched" is not allowed' : undefined;
        },
      },
      'validator',
      '99',
    );
    await expect(nriRuntime!.createContainer(pod, container)).rejects.toThrow(
      'NRI: container app adjustment rejected: validator plugin 99-validator rejected it: annotation "touched" is not allowed',
    );
    expect(owners).toEqual({ 1: { owners: { touched: '10-adjuster' } } });
  });

  it('drops a hung plugin at the request timeout and carries on', async () => {
    await startRuntime({ requestTimeoutMs: 300 });
    await connect({ createContainer: () => new Promise(() => undefined) }, 'hung', '10');
    await connect(new EnvUlimitAdjuster(TRUST_ALL), 'env-ulimit', '20');
    // The hung plugin never answers: only the request timeout lets the call end (the test's timeout bounds it).
    const res = await nriRuntime!.createContainer(pod, container);
    expect(res.adjust.env.map((e) => e.key)).toEqual(['GREETING', 'MODE']);
    expect(nriRuntime!.plugins().map((p) => p.name)).toEqual(['env-ulimit']);
    // What the daemon's metrics count (isulats_nri_plugin_timeouts_total).
    expect(nriRuntime!.pluginFailures()).toEqual([{ plugin: '10-hung', errors: 0, timeouts: 1 }]);
  });

  it('passes a plugin error on to the caller', async () => {
    await startRuntime();
    await connect(new EnvUlimitAdjuster(TRUST_ALL), 'env-ulimit', '20');
    const bad = { ...pod, annotations: { 'ulimits.nri.isulats.io': '- type: nofile\n  soft: 10\n  hard: 5' } };
    await expect(nriRuntime!.createContainer(bad, container)).rejects.toThrow(
      'NRI plugin 20-env-ulimit failed to handle CreateContainer: ulimit nofile: soft limit 10 above hard limit 5',
    );
    expect(nriRuntime!.pluginFailures()).toEqual([{ plugin: '20-env-ulimit', errors: 1, timeouts: 0 }]);
  });

  it('disconnects a client that never registers', async () => {
    await startRuntime({ registrationTimeoutMs: 200 });
    const sock = net.connect(nriRuntime!['opts'].socketPath!);
    const closed = new Promise<void>((r) => sock.once('close', () => r()));
    sock.on('error', () => undefined);
    await closed;
    expect(nriRuntime!.plugins()).toEqual([]);
  });

  it('takes 1,000 connections that come and go or never register, and still registers and serves a plugin', async () => {
    await startRuntime({ registrationTimeoutMs: 200 });
    const path = nriRuntime!['opts'].socketPath!;
    // 10 waves of 100 at once: half close at once, half stay silent until the runtime drops them.
    for (let wave = 0; wave < 10; wave++) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => new Promise<void>((resolve) => {
        const sock = net.connect(path);
        sock.on('error', () => undefined);
        sock.once('close', () => resolve());
        if (i % 2 === 0) sock.once('connect', () => sock.destroy());
      })));
    }
    expect(nriRuntime!.plugins()).toEqual([]);
    await connect(new EnvUlimitAdjuster(TRUST_ALL), 'env-ulimit', '20');
    const res = await nriRuntime!.createContainer(pod, container);
    expect(res.adjust.env.map((e) => e.key)).toEqual(['GREETING', 'MODE']);
    expect(nriRuntime!.plugins().map((p) => p.name)).toEqual(['env-ulimit']);
  });

  it('relays unsolicited updates and evictions to the engine', async () => {
    const engine = await startRuntime();
    const stub = await connect({ createContainer: () => undefined }, 'updater', '10');
    const failed = await stub.updateContainers([{ containerId: 'ctr-1', linux: { resources: { cpu: { shares: { value: '512' } } } } }]);
    expect(failed).toEqual([]);
    await stub.evict('ctr-1', 'too hungry');
    expect(engine.updates[0][0]).toMatchObject({ containerId: 'ctr-1', linux: { resources: { cpu: { shares: { value: '512' } } } } });
    expect(engine.evictions).toEqual([[{ containerId: 'ctr-1', reason: 'too hungry' }]]);
  });

  it('sends Shutdown to plugins when stopping', async () => {
    await startRuntime();
    let shut = false;
    const stub = await connect({ shutdown: () => void (shut = true), createContainer: () => undefined }, 'graceful', '10');
    await nriRuntime!.stop();
    nriRuntime = undefined;
    await stub.wait();
    expect(shut).toBe(true);
  });

  it('serves old-generation plugins through StateChange', async () => {
    await startRuntime();
    const seen: string[] = [];
    const legacy = await legacyPlugin(nriRuntime!['opts'].socketPath!, seen);
    try {
      await until(() => nriRuntime!.plugins().some((p) => p.name === 'legacy'), 'legacy plugin');
      await nriRuntime!.runPodSandbox(pod);
      await nriRuntime!.startContainer(pod, container);
      await nriRuntime!.startContainer(pod, container);
      expect(seen).toEqual(['RunPodSandbox', 'StateChange:RUN_POD_SANDBOX', 'StateChange:START_CONTAINER', 'StateChange:START_CONTAINER']);
      expect(nriRuntime!.plugins()[0].name).toBe('legacy');
    } finally {
      legacy.close();
    }
  });

  it('unsubscribes an old plugin asking for all events from the RPCs it lacks', async () => {
    await startRuntime();
    const legacy = await legacyPlugin(nriRuntime!['opts'].socketPath!, [], 0);
    try {
      await until(() => nriRuntime!.plugins().some((p) => p.name === 'legacy'), 'legacy plugin');
      expect(nriRuntime!.plugins()[0].events).toContain('ValidateContainerAdjustment');
      await expect(nriRuntime!.createContainer(pod, container)).resolves.toMatchObject({ update: [] });
      await expect(nriRuntime!.updatePodSandbox({ pod })).resolves.toBeUndefined();
      const [info] = nriRuntime!.plugins();
      expect(info.name).toBe('legacy');
      expect(info.events).not.toContain('ValidateContainerAdjustment');
      expect(info.events).not.toContain('UpdatePodSandbox');
    } finally {
      legacy.close();
    }
  });

  describe('with plugin processes', () => {
    let bundleDir: string;

    beforeAll(async () => {
      bundleDir = mkdtempSync(join(dir, 'b'));
      cpSync(join(ROOT, 'src/api/descriptors'), join(bundleDir, 'descriptors'), { recursive: true });
      const common = {
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'silent',
        banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
      } as const;
      await build({ ...common, entryPoints: [join(ROOT, 'examples/nri/logger.ts')], outfile: join(bundleDir, 'logger.mjs') });
      await build({ ...common, stdin: { contents: CRASHER, resolveDir: ROOT, sourcefile: 'crasher.ts', loader: 'ts' }, outfile: join(bundleDir, 'crasher.mjs') });
    }, 60_000);

    it('launches pre-installed plugins from the plugin dir with their config', async () => {
      const pluginDir = mkdtempSync(join(dir, 'p'));
      const confDir = mkdtempSync(join(dir, 'c'));
      const logFile = join(confDir, 'events.log');
      const script = join(pluginDir, '10-logger');
      writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${join(bundleDir, 'logger.mjs')}"\n`);
      chmodSync(script, 0o755);
      writeFileSync(join(pluginDir, 'README'), 'not executable, ignored');
      writeFileSync(join(confDir, '10-logger.conf'), `logFile: ${logFile}\n`);
      await startRuntime({ pluginDir, pluginConfigDir: confDir, enableExternalConnections: false });
      const [info] = nriRuntime!.plugins();
      expect(info).toMatchObject({ name: 'logger', index: '10', external: false });
      expect(info.pid).toBeGreaterThan(0);
      await nriRuntime!.runPodSandbox(pod);
      await nriRuntime!.createContainer(pod, container);
      await nriRuntime!.stop();
      nriRuntime = undefined;
      const events = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l).event as string);
      expect(events).toEqual(['Configure isulats 0.0.0-test', 'Synchronize pods=1 containers=1', 'RunPodSandbox', 'CreateContainer', 'Shutdown']);
      expect(() => process.kill(info.pid!, 0)).toThrow();
    });

    it('starts without a pre-installed plugin that exits at once', async () => {
      const pluginDir = mkdtempSync(join(dir, 'p'));
      writeFileSync(join(pluginDir, '05-broken'), '#!/bin/sh\nexit 3\n');
      chmodSync(join(pluginDir, '05-broken'), 0o755);
      const logs: string[] = [];
      await startRuntime({ pluginDir, enableExternalConnections: false, log: (_l, m) => void logs.push(m) });
      expect(nriRuntime!.plugins()).toEqual([]);
      expect(logs.join('\n')).toMatch(/failed to start pre-installed NRI plugin 05-broken/);
    });

    it('survives a plugin process crashing in the middle of a create', async () => {
      await startRuntime();
      const child = spawn(process.execPath, [join(bundleDir, 'crasher.mjs'), nriRuntime!['opts'].socketPath!], { stdio: 'ignore' });
      children.push(child);
      await until(() => nriRuntime!.plugins().some((p) => p.name === 'crasher'), 'crasher to register');
      await connect(new EnvUlimitAdjuster(TRUST_ALL), 'env-ulimit', '20');
      const res = await nriRuntime!.createContainer(pod, container);
      expect(res.adjust.env.map((e) => e.key)).toEqual(['GREETING', 'MODE']);
      expect(nriRuntime!.plugins().map((p) => p.name)).toEqual(['env-ulimit']);
      await until(() => child.exitCode !== null, 'crasher exit');
      expect(child.exitCode).toBe(7);
    });
  });

  it('never leaves the socket behind', () => {
    expect(existsSync(join(dir, 'r', 'nri.sock'))).toBe(false);
  });
});

/** A plugin of the older API: no per-event RPCs beyond v0.11, pod events only via StateChange. */
async function legacyPlugin(socketPath: string, seen: string[], events = (1 << 0) | (1 << 5)): Promise<{ close(): void }> {
  const [codec, env] = await Promise.all([loadNriCodec(), loadEnvelopes()]);
  const sock = net.connect(socketPath);
  await new Promise((r) => sock.once('connect', r));
  const mux = new Mux(sock);
  const server = new TtrpcServer(env);
  const reply = (type: string, obj: object) => codec.encode(type, obj);
  server.register(PLUGIN_SERVICE, {
    Configure: () => reply('ConfigureResponse', { events }), // default: RUN_POD_SANDBOX, START_CONTAINER
    Synchronize: () => reply('SynchronizeResponse', {}),
    Shutdown: () => reply('Empty', {}),
    CreateContainer: () => reply('CreateContainerResponse', {}),
    UpdateContainer: () => reply('UpdateContainerResponse', {}),
    StopContainer: () => reply('StopContainerResponse', {}),
    StateChange: (payload) => {
      seen.push(`StateChange:${codec.decode<nri.StateChangeEvent>('StateChangeEvent', payload).event}`);
      return reply('Empty', {});
    },
  });
  // Record that the newer RPC was tried first and refused.
  const original = server['dispatch'].bind(server);
  server['dispatch'] = async (conn: never, frame: { payload: Buffer }) => {
    const req = env.decodeRequest(frame.payload);
    if (req.method === 'RunPodSandbox') seen.push('RunPodSandbox');
    return original(conn, frame as never);
  };
  server.serve(mux.open(PLUGIN_SERVICE_CONN));
  const client = new TtrpcClient(mux.open(RUNTIME_SERVICE_CONN), env);
  await client.call(RUNTIME_SERVICE, 'RegisterPlugin', codec.encode('RegisterPluginRequest', { pluginName: 'legacy', pluginIdx: '50' }));
  return { close: () => mux.close() };
}
