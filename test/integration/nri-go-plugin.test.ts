// The Adaptation against a plugin built on upstream's Go stub (containerd/nri
// pkg/stub), external and pre-installed. Needs the binary scripts/build-go-test-tools.sh
// builds from examples/nri/go-reference-plugin: without it every test fails, saying so.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type * as nri from '../../src/api/nri.js';
import { Adaptation, type AdaptationOptions } from '../../src/nri/adaptation/index.js';
import { goToolPath } from '../rig/go-tools.js';

let goPlugin: string;

const pod: nri.PodSandboxIn = { id: 'pod-go', name: 'gopod', uid: 'u', namespace: 'default' };
const container: nri.ContainerIn = { id: 'ctr-go', podSandboxId: 'pod-go', name: 'app', state: 'CONTAINER_CREATED', args: ['sh'], env: ['PATH=/bin'] };

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// Its recorded frames are also replayed without Go in test/unit/nri-go-replay.test.ts.
describe('NRI adaptation with a plugin on the upstream Go stub', () => {
  beforeAll(() => {
    goPlugin = goToolPath('go-nri-plugin');
  });
  let dir: string;
  let runtime: Adaptation | undefined;
  let child: ChildProcess | undefined;

  const options = (extra: Partial<AdaptationOptions>): AdaptationOptions => ({
    runtimeName: 'isulats',
    runtimeVersion: 'test',
    socketPath: join(dir, 'nri.sock'),
    requestTimeoutMs: 2000,
    registrationTimeoutMs: 5000,
    syncFn: async () => ({ pods: [pod], containers: [] }),
    updateFn: async () => [],
    ...extra,
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nrigo-'));
  });
  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));
    }
    child = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function events(log: string): string[] {
    return readFileSync(log, 'utf8').trim().split('\n');
  }

  it('serves an external Go plugin, falling back to StateChange for its pod events', async () => {
    const log = join(dir, 'go.log');
    runtime = new Adaptation(options({ enableExternalConnections: true }));
    await runtime.start();
    child = spawn(goPlugin, ['-socket', join(dir, 'nri.sock'), '-idx', '40', '-name', 'goplug'], { stdio: 'ignore', env: { GOPLUGIN_LOG: log } });
    await until(() => runtime!.plugins().some((p) => p.name === 'goplug'), 'the Go plugin to register');
    const [info] = runtime.plugins();
    expect(info.events).toEqual(expect.arrayContaining(['RunPodSandbox', 'CreateContainer', 'StartContainer']));
    await runtime.runPodSandbox(pod);
    const res = await runtime.createContainer(pod, container);
    await runtime.startContainer(pod, container);
    expect(res.adjust.env).toEqual([{ key: 'FROM_GO', value: 'yes' }]);
    expect(res.adjust.annotations).toEqual({ 'go-plugin': 'was-here' });
    expect(res.adjust.rlimits).toEqual([{ type: 'RLIMIT_NOFILE', hard: '4096', soft: '1024' }]);
    await runtime.stop();
    runtime = undefined;
    await until(() => events(log).includes('Shutdown'), 'Shutdown');
    expect(events(log)).toEqual([
      'Configure isulats test config=""',
      'Synchronize pods=1 containers=0',
      'RunPodSandbox gopod',
      'CreateContainer gopod/app env=[PATH=/bin]',
      'StartContainer gopod/app',
      'Shutdown',
    ]);
  });

  // 3.5 MiB messages (ttrpc's limit is 4 MiB): cut into 4 KiB frames they overflowed the Go mux's
  // 256-frame read queue whenever the plugin read slower than we wrote, and it closed the connection.
  it('sends the Go plugin messages far larger than its 4 KiB read buffer and its 256-frame queue', async () => {
    const log = join(dir, 'big.log');
    const big = 'x'.repeat(500_000);
    const containers = Array.from({ length: 7 }, (_, i) => ({ ...container, id: `c${i}`, annotations: { big } }));
    runtime = new Adaptation(options({ enableExternalConnections: true, syncFn: async () => ({ pods: [pod], containers }) }));
    await runtime.start();
    child = spawn(goPlugin, ['-socket', join(dir, 'nri.sock'), '-idx', '40', '-name', 'goplug'], { stdio: 'ignore', env: { GOPLUGIN_LOG: log } });
    await until(() => runtime!.plugins().some((p) => p.name === 'goplug'), 'the Go plugin to register');
    expect(events(log)).toContain('Synchronize pods=1 containers=7');
    const res = await runtime.createContainer(pod, { ...container, annotations: { big: 'y'.repeat(3_500_000) } });
    expect(res.adjust.env).toEqual([{ key: 'FROM_GO', value: 'yes' }]);
    expect(events(log)).toContain('CreateContainer gopod/app env=[PATH=/bin]');
  });

  it('launches the Go plugin pre-installed, over the socket passed as fd 3', async () => {
    const pluginDir = mkdtempSync(join(dir, 'p'));
    const confDir = mkdtempSync(join(dir, 'c'));
    const log = join(dir, 'pre.log');
    writeFileSync(join(pluginDir, '40-goplug'), `#!/bin/sh\nGOPLUGIN_LOG=${log} exec ${goPlugin}\n`);
    chmodSync(join(pluginDir, '40-goplug'), 0o755);
    writeFileSync(join(confDir, '40-goplug.conf'), 'setting: 1\n');
    runtime = new Adaptation(options({ pluginDir, pluginConfigDir: confDir }));
    await runtime.start();
    const [info] = runtime.plugins();
    expect(info).toMatchObject({ name: 'goplug', index: '40', external: false });
    expect(info.pid).toBeGreaterThan(0);
    const res = await runtime.createContainer(pod, container);
    expect(res.adjust.env).toEqual([{ key: 'FROM_GO', value: 'yes' }]);
    expect(events(log).slice(0, 2)).toEqual(['Configure isulats test config="setting: 1\\n"', 'Synchronize pods=1 containers=0']);
  });
});
