// What a real `isulats daemon` loads only when first used, read from the process (V8 coverage
// mapped to bundled modules through the bundle's source map, test/rig/bundle-modules.ts): the
// streaming sessions (ws, SPDY, the remotecommand and port-forward protocols) with the first
// upgrade to the streaming server, NRI (adaptation, ttrpc, mux) never while it is off. Each is
// absent at idle and present once a client used it, and the use works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleProbe, ranUnder, type BundleProbe, type ProbeReport } from '../rig/bundle-modules.js';
import { runCli } from '../rig/cli.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const STREAMING_SESSIONS = ['node_modules/ws/', 'src/protocols/spdy/', 'src/protocols/k8s-channel/', 'src/protocols/remotecommand/handshake.ts',
  'src/daemon/streaming/sessions.ts', 'src/daemon/streaming/spdy-command.ts', 'src/daemon/streaming/ws-command.ts', 'src/daemon/streaming/port-forward.ts'];
const NRI = ['src/nri/', 'src/runtime/nri/engine-nri.ts'];

const loaded = (report: ProbeReport, prefixes: string[]): string[] => prefixes.flatMap((p) => ranUnder(report.ran, p));

describe('isulats daemon: code loaded at first use', () => {
  let dir: string;
  let daemon: IsulatsDaemon;
  let probe: BundleProbe;
  let idle: ProbeReport;
  let containerId = '';

  beforeAll(async () => {
    dir = await makeTempDir('ist-lazy-');
    probe = await bundleProbe(dir);
    daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE, nodeArgs: probe.nodeArgs, env: probe.env });
    idle = await probe.report(daemon.pid);
    const go = (args: string[]) => runGoCriClient(goToolPath('go-cri-client'), ['-endpoint', daemon.endpoint, ...args]);
    expect((await go(['pull', '-image', rigEnv().ISULATS_TEST_BUSYBOX])).code).toBe(0);
    const r = await go(['run-pod-container', '-name', `lazy-modules-${process.pid}-6c1e0f2a-94d3-4b8e-a7f5-3d2c1b0a9e8f`,
      '-label', 'lazy-modules', '-image', rigEnv().ISULATS_TEST_BUSYBOX, '--', 'sleep', '3600']);
    expect(r.stderr).toBe('');
    ({ containerId } = JSON.parse(r.stdout) as { containerId: string });
  }, 120_000);

  afterAll(async () => {
    await daemon?.cleanup();
    await removeTempDir(dir);
  }, 60_000);

  it('reads which bundled modules ran (the daemon, its streaming server)', () => {
    expect(idle.ran).toContain('src/daemon/daemon.ts');
    expect(idle.ran).toContain('src/daemon/streaming/server.ts');
    // grpc-js's own source map takes its modules back to their TypeScript.
    expect(idle.ran).toContain('node_modules/@grpc/grpc-js/src/server.ts');
  });

  it('loads the streaming sessions with the first exec, not at start', async () => {
    expect(loaded(idle, STREAMING_SESSIONS)).toEqual([]);
    // Our CLI execs over WebSocket, and over SPDY when it sends stdin.
    const ws = await runCli(['-r', daemon.endpoint, 'exec', containerId, 'echo', 'over-websocket']);
    expect(ws).toMatchObject({ code: 0, stdout: 'over-websocket\n' });
    const spdy = await runCli(['-r', daemon.endpoint, 'exec', '-i', containerId, 'cat'], { input: 'over-spdy\n' });
    expect(spdy).toMatchObject({ code: 0, stdout: 'over-spdy\n' });
    const used = await probe.report(daemon.pid);
    for (const m of ['node_modules/ws/lib/websocket-server.js', 'src/protocols/spdy/connection.ts', 'src/daemon/streaming/sessions.ts',
      'src/daemon/streaming/ws-command.ts', 'src/daemon/streaming/spdy-command.ts']) expect(used.ran).toContain(m);
  }, 60_000);

  it('never loads NRI while it is off, through a pod\'s whole lifecycle', async () => {
    expect(loaded(idle, NRI)).toEqual([]);
    expect(loaded(await probe.report(daemon.pid), NRI)).toEqual([]);
  });
});
