// The default pause image is made from the binary `npm run build` ships
// (build/pause/pause): the first pod on a node compiles nothing.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAUSE_BINARY } from '../../src/runtime/sandbox/pause-image.js';
import { openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

describe('runtime: the shipped pause binary', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('runs the first pod of a fresh root without spawning gcc', async () => {
    expect(existsSync(PAUSE_BINARY)).toBe(true);
    const e = fx.engine;
    const spawned: string[] = [];
    const unhook = e.ctx.runner.addHook((cmd) => {
      spawned.push(cmd);
      if (/(^|\/)(gcc|cc)$/.test(cmd)) throw new Error(`injected: ${cmd} is not on this node`);
    });
    try {
      const { podSandboxId } = await e.runPodSandbox({ config: podConfig('first-pod-3f6c2a1e-8d4b-4c2e-9a71-5b0d2e6f4c11') });
      expect((await e.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_READY');
      await e.removePodSandbox({ podSandboxId });
    } finally {
      unhook();
    }
    expect(spawned.filter((c) => /gcc|cc$/.test(c))).toEqual([]);
    expect(spawned).toContain('runc');
  });

  it('fails RunPodSandbox with one line naming `npm run build` when the binary is missing, leaving no pod', async () => {
    const missing = join(fx.dir, 'no-such-pause');
    const other = await openFixture({ pauseBinaryPath: missing });
    try {
      await expect(other.engine.runPodSandbox({ config: podConfig('no-pause') })).rejects.toThrow(
        `pause binary ${missing} not found: run \`npm run build\``,
      );
      expect(await readdir(join(other.options.root, 'sandboxes'))).toEqual([]);
    } finally {
      await other.dispose();
    }
  }, 180_000);
});
