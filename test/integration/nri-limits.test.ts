// What an NRI plugin may do, bounded and limited, against real plugins,
// runc and the engine: 10,000 env entries from one plugin reach the running
// container while other calls are answered; a plugin past a cap fails the
// create naming the plugin and the cap; the validator (daemon.json
// `nri-default-validator`) refuses an OCI hook and keeps plugins that are not
// allow-listed from registering.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUSTMENT_LIMITS } from '../../src/nri/adaptation/limits.js';
import type { NriEngineOptions } from '../../src/runtime/config/engine-config.js';
import { bundlePlugin } from '../rig/nri-plugin-bundles.js';
import { nriPluginDir, reopenWithNri } from './nri-fixture.js';
import { BUSYBOX_REF, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

/** Adds `n` kubelet service-link shaped variables (7 per Service) to every container. */
const manyEnv = (name: string, idx: string, n: number) => `
import { adjustment, runPlugin } from './src/nri/sdk/index.js';
await runPlugin({
  createContainer() {
    const adj = adjustment();
    for (let i = 0; i < ${n}; i++) adj.addEnv('SVC' + Math.floor(i / 7) + '_' + ['SERVICE_HOST', 'SERVICE_PORT', 'PORT', 'PORT_80_TCP', 'PORT_80_TCP_PROTO', 'PORT_80_TCP_PORT', 'PORT_80_TCP_ADDR'][i % 7], String(i));
    return { adjust: adj.build() };
  },
}, { name: '${name}', idx: '${idx}' });
`;
const HOOKER = `
import { runPlugin } from './src/nri/sdk/index.js';
await runPlugin({
  createContainer: () => ({ adjust: { hooks: { prestart: [{ path: '/bin/true', args: ['true'] }] } } }),
}, { name: 'hooker', idx: '30' });
`;
const STRANGER = `
import { adjustment, runPlugin } from './src/nri/sdk/index.js';
await runPlugin({ createContainer: () => ({ adjust: adjustment().addEnv('STRANGER', 'was-here').build() }) }, { name: 'stranger', idx: '40' });
`;

describe('NRI plugins, bounded and limited', () => {
  let fx: RuntimeFixture;
  let bundles: string;

  beforeAll(async () => {
    fx = await openFixture();
    bundles = join(fx.dir, 'nri-bundles');
    await Promise.all([
      bundlePlugin(bundles, 'env10k', { source: manyEnv('env10k', '10', 10_000) }),
      bundlePlugin(bundles, 'greedy', { source: manyEnv('greedy', '20', ADJUSTMENT_LIMITS.env + 1) }),
      bundlePlugin(bundles, 'hooker', { source: HOOKER }),
      bundlePlugin(bundles, 'stranger', { source: STRANGER }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  const pluginDir = (plugins: Record<string, string>): string => nriPluginDir(fx.dir, bundles, plugins);
  const engineWith = (nri: NriEngineOptions) => reopenWithNri(fx, { registrationTimeoutMs: 10_000, requestTimeoutMs: 20_000 }, nri);

  const containerDirs = () => readdirSync(join(fx.options.root, 'containers')).filter((n) => /^[0-9a-f]{64}$/.test(n));

  it('applies 10,000 env entries of one plugin inside the container, answering other calls meanwhile', async () => {
    const { engine } = await engineWith({ enabled: true, mode: 'embedded', pluginDir: pluginDir({ '10-env10k': 'env10k' }) });
    const pod = podConfig('nri-env10k');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    let done = false;
    const create = engine.createContainer({
      podSandboxId,
      config: { metadata: { name: 'linked' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], envs: [{ key: 'OWN', value: '1' }] },
      sandboxConfig: pod,
    }).finally(() => (done = true));
    // Calls made while the create is pending are answered before it ends (a turn of the event
    // loop between calls: an engine call that needs no I/O resolves in microtasks).
    let answered = 0;
    while (!done) {
      await engine.listPodSandbox({});
      if (!done) answered++;
      await new Promise((r) => setImmediate(r));
    }
    const { containerId } = await create;
    expect(answered).toBeGreaterThan(0);
    await engine.startContainer({ containerId });
    const env = (await engine.execSync({ containerId, cmd: ['env'], timeout: 30 })).stdout.toString().split('\n');
    expect(env.filter((l) => /^SVC\d+_/.test(l))).toHaveLength(10_000);
    expect(env).toContain('SVC1428_PORT_80_TCP=9999');
    expect(env).toContain('OWN=1');
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
  }, 240_000);

  it('refuses a create whose plugin asks past the env cap, naming the plugin and the cap, and leaves nothing behind', async () => {
    const { engine } = await engineWith({ enabled: true, mode: 'embedded', pluginDir: pluginDir({ '20-greedy': 'greedy' }) });
    const pod = podConfig('nri-greedy');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const before = { dirs: containerDirs(), mounts: await mountsUnder(fx.dir) };
    const err = (await engine.createContainer({
      podSandboxId,
      config: { metadata: { name: 'flooded' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
      sandboxConfig: pod,
    }).catch((e: Error) => e)) as Error & { code?: number };
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe(`NRI: failed to create container flooded: plugin 20-greedy asked for ${ADJUSTMENT_LIMITS.env + 1} environment variables, over the limit of ${ADJUSTMENT_LIMITS.env}`);
    expect((await engine.listContainers({})).containers).toEqual([]);
    expect(containerDirs()).toEqual(before.dirs);
    expect(await mountsUnder(fx.dir)).toEqual(before.mounts);
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
  }, 240_000);

  it('with the validator on, refuses an OCI hook and keeps a plugin off the allow-list from registering', async () => {
    const { engine, warnings } = await engineWith({
      enabled: true, mode: 'embedded', pluginDir: pluginDir({ '30-hooker': 'hooker', '40-stranger': 'stranger' }),
      validator: { enable: true, rejectOCIHookAdjustment: true, rejectNamespaceAdjustment: true, allowedPlugins: ['hooker'] },
    });
    const pod = podConfig('nri-validated');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    expect(engine.nriPlugins().map((p) => p.name)).toEqual(['hooker']);
    expect(warnings.join('\n')).toContain('plugin 40-stranger refused: plugin name "stranger" is not in the NRI validator\'s allowed-plugins');
    const err = (await engine.createContainer({
      podSandboxId,
      config: { metadata: { name: 'hooked' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
      sandboxConfig: pod,
    }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('NRI: container hooked adjustment rejected: NRI validation error: plugin "30-hooker" attempted restricted OCI hook injection');
    expect((await engine.listContainers({})).containers).toEqual([]);
    await engine.removePodSandbox({ podSandboxId });
    await engine.close();
  }, 240_000);
});
