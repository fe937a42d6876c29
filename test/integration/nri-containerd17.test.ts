// Our SDK's example plugins (logger, env/ulimit adjuster) against a real NRI
// runtime: Debian trixie's containerd 1.7, fetched by scripts/fetch-containerd17.sh
// and started on temp dirs with NRI on a temp socket. The plugins connect
// through a recording proxy while a pod and a container run over CRI; the
// adjustment must show inside the container. With ISULATS_RECORD_NRI_FIXTURE=1
// the recording is written to test/fixtures/nri/, which the unit replay tests
// (test/unit/nri-containerd17-replay.test.ts) read.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContainerd, type Containerd } from '../rig/containerd.js';
import { containerd17BinDir } from '../rig/containerd17.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { bundleExamplePlugins } from '../rig/nri-plugin-bundles.js';
import { decodeRecording, startRecordingProxy, type RecordedCall, type RecordingProxy } from '../rig/nri-recording.js';
import { stopPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';
import { loadNriCodec } from '../../src/nri/protocol.js';
import type * as nri from '../../src/api/nri.js';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/nri/containerd17-session.json');

const ANNOTATIONS = {
  'env.nri.isulats.io/container.app': 'GREETING: hello-from-nri\n',
  'ulimits.nri.isulats.io/container.app': '- type: nofile\n  soft: 1024\n  hard: 2048\n',
};

describe('SDK example plugins against containerd 1.7 (NRI enabled)', () => {
  let dir: string;
  let ctd: Containerd | undefined;
  let proxy: RecordingProxy | undefined;
  let cri: RawCriClient | undefined;
  const plugins: ChildProcess[] = [];
  let loggerLog: string;
  let version: string;

  const methods = (calls: RecordedCall[], session: number, caller: 'runtime' | 'plugin') =>
    calls.filter((c) => c.session === session && c.caller === caller).map((c) => c.method);

  /** Starts an example plugin against the proxy and waits until containerd has synchronised it. */
  async function connectPlugin(bundle: string, name: string, idx: string, session: number, env: NodeJS.ProcessEnv = {}, extra: string[] = []): Promise<void> {
    const child = spawn(process.execPath, [bundle, '--socket', proxy!.socketPath, '--name', name, '--idx', idx, ...extra], {
      stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    plugins.push(child);
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`plugin ${name} exited: ${stderr}`);
      const calls = await decodeRecording(proxy!.chunks);
      return calls.some((c) => c.session === session && c.method === 'Synchronize' && c.response);
    }, { timeoutMs: 15_000, what: `containerd to synchronise plugin ${name}` });
  }

  beforeAll(async () => {
    const binDir = containerd17BinDir();
    const rig = rigEnv();
    dir = await makeTempDir('ist-n17-');
    const bundles = await bundleExamplePlugins(join(dir, 'b'), ['logger', 'env-ulimit-adjuster']);
    ctd = await startContainerd({ sandboxImage: rig.ISULATS_TEST_PAUSE, plainHttpRegistries: [rig.ISULATS_TEST_REGISTRY], binDir, nri: true });
    await waitFor(async () => existsSync(ctd!.nriSocket!), { timeoutMs: 10_000, what: 'containerd NRI socket' });
    cri = openCriClient(ctd.endpoint);
    version = (await cri.runtime('Version', {})).runtimeVersion as string;
    proxy = await startRecordingProxy(join(dir, 'p.sock'), ctd.nriSocket!);
    loggerLog = join(dir, 'logger.log');
    // One at a time, so the logger is session 0 and the adjuster session 1.
    await connectPlugin(bundles.logger!, 'logger', '10', 0, { NRI_LOGGER_FILE: loggerLog });
    // External: its annotation policy comes from --config (it trusts no namespace without one).
    writeFileSync(join(dir, 'env-ulimit.yaml'), 'allowedNamespaces: [nri-test]\n');
    await connectPlugin(bundles['env-ulimit-adjuster']!, 'env-ulimit-adjuster', '20', 1, {}, ['--config', join(dir, 'env-ulimit.yaml')]);
  }, 120_000);

  afterAll(async () => {
    for (const p of plugins) if (p.pid !== undefined && p.exitCode === null && p.signalCode === null) await stopPid(p.pid, 5_000);
    await proxy?.close();
    cri?.close();
    await ctd?.stop();
    if (dir) await removeTempDir(dir);
  }, 120_000);

  it('runs a pod and a container: the plugins see the events and the adjustment reaches the container', async () => {
    const rig = rigEnv();
    const image = rig.ISULATS_TEST_BUSYBOX;
    const sandboxConfig = {
      metadata: { name: 'nri17', uid: `uid-nri17-${process.pid}`, namespace: 'nri-test', attempt: 0 },
      annotations: ANNOTATIONS,
      linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
    };
    const { podSandboxId } = await cri!.runtime('RunPodSandbox', { config: sandboxConfig });
    await cri!.image('PullImage', { image: { image }, sandboxConfig });
    const { containerId } = await cri!.runtime('CreateContainer', {
      podSandboxId, sandboxConfig, config: {
        metadata: { name: 'app', attempt: 0 }, image: { image }, command: ['sleep', '3600'],
        // Its own pid namespace, so that pid 1 is the container's process rather than the pause.
        linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
      },
    });
    await cri!.runtime('StartContainer', { containerId });
    // The container's own process (pid 1), not only an exec, carries the adjustment.
    const exec = await cri!.runtime('ExecSync', {
      containerId, timeout: 10, cmd: ['sh', '-c', "tr '\\0' '\\n' </proc/1/environ | grep GREETING; grep 'open files' /proc/1/limits"],
    });
    expect(exec.exitCode).toBe(0);
    const out = Buffer.from(exec.stdout as Buffer).toString();
    expect(out).toContain('GREETING=hello-from-nri');
    expect(out).toMatch(/Max open files\s+1024\s+2048\s+files/);
    await cri!.runtime('StopContainer', { containerId, timeout: 1 });
    await cri!.runtime('RemoveContainer', { containerId });
    await cri!.runtime('StopPodSandbox', { podSandboxId });
    await cri!.runtime('RemovePodSandbox', { podSandboxId });

    const events = readFileSync(loggerLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; pod?: string; container?: string });
    expect(events.map((e) => e.event)).toEqual([
      `Configure containerd ${version}`, 'Synchronize pods=0 containers=0',
      'RunPodSandbox', 'CreateContainer', 'PostCreateContainer', 'StartContainer', 'PostStartContainer',
      'StopContainer', 'RemoveContainer', 'StopPodSandbox', 'RemovePodSandbox',
    ]);
    expect(events.find((e) => e.event === 'CreateContainer')).toMatchObject({ pod: 'nri17', container: 'app' });

    const calls = await decodeRecording(proxy!.chunks);
    expect(methods(calls, 0, 'plugin')).toEqual(['RegisterPlugin']);
    expect(methods(calls, 1, 'plugin')).toEqual(['RegisterPlugin']);
    expect(methods(calls, 1, 'runtime')).toEqual(['Configure', 'Synchronize', 'CreateContainer']);
    expect(calls.every((c) => c.response && (c.status?.code ?? 0) === 0)).toBe(true);
    const codec = await loadNriCodec();
    const create = calls.find((c) => c.session === 1 && c.method === 'CreateContainer')!;
    const adjust = codec.decode<nri.CreateContainerResponse>('CreateContainerResponse', create.response!).adjust;
    expect(adjust?.env).toEqual([{ key: 'GREETING', value: 'hello-from-nri' }]);
    expect(adjust?.rlimits).toEqual([{ type: 'RLIMIT_NOFILE', hard: '2048', soft: '1024' }]);

    if (process.env.ISULATS_RECORD_NRI_FIXTURE === '1') {
      mkdirSync(resolve(FIXTURE, '..'), { recursive: true });
      const sessions = [{ plugin: 'logger', idx: '10' }, { plugin: 'env-ulimit-adjuster', idx: '20' }];
      writeFileSync(FIXTURE, `${JSON.stringify({ runtime: `containerd ${version}`, sessions, annotations: ANNOTATIONS, chunks: proxy!.chunks }, null, 1)}\n`);
    }
  }, 120_000);
});
