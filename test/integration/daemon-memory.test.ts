// What keeps a real `isulats daemon`'s resident memory down, checked on the process itself: it
// runs on bin/isulats.cjs (no ES module machinery loaded) and, after its re-exec, on its own
// bundle (none of the CLI: oclif, the other commands); the heap pages start-up and a round of
// calls freed go back to the kernel within a trim period (its debug log line says how much RSS
// that returned). A preloaded probe (test/rig/bundle-modules.ts) reports the builtin modules the
// daemon loaded and the bundles it runs.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleProbe, type BundleProbe } from '../rig/bundle-modules.js';
import { openCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';
import { IDLE_TRIM_PERIOD_MS } from '../../src/daemon/idle-trim.js';

describe('isulats daemon memory', () => {
  let dir: string;
  let daemon: IsulatsDaemon;
  let probe: BundleProbe;
  let daemonStarted: number;

  beforeAll(async () => {
    dir = await makeTempDir('ist-mem-');
    probe = await bundleProbe(dir);
    daemonStarted = Date.now();
    daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE, nodeArgs: probe.nodeArgs, env: probe.env, logLevel: 'debug' });
  }, 60_000);

  afterAll(async () => {
    await daemon?.cleanup();
    await removeTempDir(dir);
  }, 60_000);

  it('runs on bin/isulats.cjs and never loads the ES module loader for its main script', async () => {
    const { argv, builtins } = await probe.report(daemon.pid);
    expect(argv[1]).toMatch(/\/bin\/isulats\.cjs$/);
    expect(argv.slice(2, 4)).toEqual(['daemon', '--config-file']);
    expect(builtins).not.toContain('NativeModule internal/modules/esm/module_job');
    expect(builtins).not.toContain('NativeModule internal/modules/esm/translators');
  });

  it('runs its own bundle after the re-exec: none of the CLI (oclif, the other commands) is loaded', async () => {
    const { bundles, builtins } = await probe.report(daemon.pid);
    expect(bundles.map((url) => url.replace(/^.*\//, ''))).toEqual(['isulats-daemon.cjs']);
    // oclif's parser reads stdin through readline.
    expect(builtins).not.toContain('NativeModule readline');
    // The command line parsed before the re-exec reached it: it logs at the level of the
    // daemon.json that --config-file named (debug; the default is info).
    const cri = openCriClient(daemon.endpoint);
    try {
      await cri.runtime('Version', {});
    } finally {
      cri.close();
    }
    await waitFor(async () => (await readFile(daemon.logPath, 'utf8')).includes('"level":"debug"'), { timeoutMs: 5_000, intervalMs: 100, what: 'a debug log line' });
  });

  it('gives the heap that start-up and a round of calls freed back to the kernel within a trim period', async () => {
    const cri = openCriClient(daemon.endpoint);
    try {
      // A pull and a few lists: V8 compiles the code they run, nghttp2 and zlib buffer the transfer.
      await cri.image('PullImage', { image: { image: rigEnv().ISULATS_TEST_BUSYBOX } });
      for (let i = 0; i < 20; i++) {
        await cri.image('ListImages', {});
        await cri.runtime('ListPodSandbox', {});
        await cri.runtime('Status', { verbose: true });
      }
    } finally {
      cri.close();
    }
    const callsEnded = Date.now();
    // The trims since start (start-up compiles the bundle: V8's parser zones) up to the first after
    // these calls return their freed heap pages: without them glibc keeps them
    // (0.4 to 4.6 MB of RSS here, depending on what glibc's own trimming of the heap's top took).
    const entries = await waitFor(async () => {
      const trims = (await readFile(daemon.logPath, 'utf8')).split('\n').filter((l) => l.includes('returned free heap memory'))
        .map((l) => JSON.parse(l) as { time: string; freedKb: number }).filter((e) => Date.parse(e.time) >= daemonStarted);
      return trims.some((e) => Date.parse(e.time) >= callsEnded) ? trims : undefined;
    }, { timeoutMs: 2 * IDLE_TRIM_PERIOD_MS + 5_000, intervalMs: 250, what: 'a heap trim after the calls' });
    expect(entries.reduce((sum, e) => sum + e.freedKb, 0)).toBeGreaterThanOrEqual(256);
  }, 3 * IDLE_TRIM_PERIOD_MS + 60_000);
});
