// What a real `isulats daemon` writes to its JSON log in a kubelet's session: the engine's
// warnings (a pre-installed NRI plugin that dies before registering, an AppArmor profile the host
// cannot apply) and, at info, one line per state-changing CRI call (containerd's set) with the IDs
// and names it concerns, its result or error, and its duration; reads only at debug; at warn, no
// call lines at all, and the warnings still.
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

interface Entry { level: string; msg: string; rpc?: string; [k: string]: unknown }

async function logEntries(daemon: IsulatsDaemon): Promise<Entry[]> {
  const text = await readFile(daemon.logPath, 'utf8');
  return text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Entry);
}

const callLines = (entries: Entry[], rpc?: string) => entries.filter((e) => e.msg.startsWith('request') && (!rpc || e.rpc === rpc));

function kubeletPod(name: string, dir: string): CriMessage {
  const uid = randomUUID();
  const namespace = 'daemon-log';
  return {
    metadata: { name, uid, namespace, attempt: 0 },
    hostname: name,
    logDirectory: join(dir, 'pods', `${namespace}_${name}_${uid}`),
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': namespace, 'io.kubernetes.pod.uid': uid },
    annotations: { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.seen': new Date().toISOString() },
    linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
  };
}

function kubeletContainer(pod: CriMessage, image: string): CriMessage {
  return {
    metadata: { name: 'app', attempt: 0 },
    image: { image },
    command: ['sleep', '600'],
    logPath: 'app/0.log',
    labels: { 'io.kubernetes.container.name': 'app', 'io.kubernetes.pod.name': pod.metadata.name, 'io.kubernetes.pod.namespace': pod.metadata.namespace, 'io.kubernetes.pod.uid': pod.metadata.uid },
    annotations: { 'io.kubernetes.container.restartCount': '0', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' },
    // kubelet 1.30 sends both forms for RuntimeDefault; this host has no AppArmor.
    linux: { securityContext: { apparmor: { profileType: 'RuntimeDefault' }, apparmorProfile: 'runtime/default' }, resources: { cpuShares: '102', memoryLimitInBytes: String(128 * 1024 * 1024) } },
  };
}

describe('the daemon log', () => {
  const rig = () => rigEnv();
  let dir: string;
  let daemon: IsulatsDaemon | undefined;
  let cri: RawCriClient | undefined;

  beforeAll(async () => {
    dir = await makeTempDir('ist-dl-');
    const plugins = join(dir, 'plugins');
    await mkdir(plugins);
    await mkdir(join(dir, 'conf'));
    // A pre-installed plugin that exits before it ever registers.
    await writeFile(join(plugins, '10-broken'), '#!/bin/sh\necho "broken plugin: giving up" >&2\nexit 3\n');
    await chmod(join(plugins, '10-broken'), 0o755);
  });

  afterEach(async () => {
    cri?.close();
    cri = undefined;
    await daemon?.cleanup();
    daemon = undefined;
  });

  afterAll(async () => {
    if (dir) await removeTempDir(dir);
  });

  const start = async (logLevel: string) => {
    daemon = await startIsulatsDaemon({
      podSandboxImage: rig().ISULATS_TEST_PAUSE,
      logLevel,
      extraConfig: {
        'nri-support': true,
        'nri-socket': join(dir, `nri-${logLevel}.sock`),
        'nri-plugin-dir': join(dir, 'plugins'),
        'nri-plugin-config-dir': join(dir, 'conf'),
        'nri-registration-timeout': '2s',
      },
    });
    cri = openCriClient(daemon.endpoint);
    return { daemon, cri };
  };

  /** A kubelet's pod: pull, run, create, start, update, stop, remove; returns the IDs. */
  const podLifecycle = async (c: RawCriClient) => {
    const image = rig().ISULATS_TEST_BUSYBOX;
    const { imageRef } = await c.image('PullImage', { image: { image } });
    const pod = kubeletPod(`web-${randomUUID().slice(0, 8)}`, dir);
    const { podSandboxId } = await c.runtime('RunPodSandbox', { config: pod }, 60_000);
    const { containerId } = await c.runtime('CreateContainer', { podSandboxId, config: kubeletContainer(pod, image), sandboxConfig: pod }, 60_000);
    await c.runtime('StartContainer', { containerId });
    await c.runtime('UpdateContainerResources', { containerId, linux: { cpuShares: '204', memoryLimitInBytes: String(128 * 1024 * 1024) } });
    await c.runtime('ListPodSandbox', {});
    await c.runtime('ContainerStatus', { containerId });
    await c.runtime('StopContainer', { containerId, timeout: 0 });
    await c.runtime('RemoveContainer', { containerId });
    await c.runtime('StopPodSandbox', { podSandboxId });
    await c.runtime('RemovePodSandbox', { podSandboxId });
    return { image, imageRef, pod, podSandboxId, containerId };
  };

  it('at info: engine warnings, and one line per state-changing call with IDs, result and duration', async () => {
    const { daemon: d, cri: c } = await start('info');
    const ids = await podLifecycle(c);
    const missing = 'f'.repeat(64);
    await expect(c.runtime('StartContainer', { containerId: missing })).rejects.toMatchObject({ code: 5 });

    const entries = await waitFor(async () => {
      const all = await logEntries(d);
      return callLines(all, 'RemovePodSandbox').length > 0 && callLines(all, 'StartContainer').length === 2 ? all : undefined;
    }, { timeoutMs: 10_000, what: 'call lines in the daemon log' });

    const warnings = entries.filter((e) => e.level === 'warn' && e.source === 'engine').map((e) => e.msg);
    expect(warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/^failed to start pre-installed NRI plugin 10-broken: /),
      'AppArmor profile requested but the host has no AppArmor: ignored',
    ]));

    const one = (rpc: string) => {
      const lines = callLines(entries, rpc).filter((e) => e.code === 0);
      expect(lines, rpc).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'info', msg: 'request', api: 'v1', ms: expect.any(Number) });
      return lines[0]!;
    };
    const { podSandboxId, containerId, pod } = ids;
    expect(one('PullImage')).toMatchObject({ image: ids.image, imageRef: ids.imageRef });
    expect(one('RunPodSandbox')).toMatchObject({ name: pod.metadata.name, namespace: 'daemon-log', uid: pod.metadata.uid, attempt: 0, podSandboxId });
    expect(one('CreateContainer')).toMatchObject({ podSandboxId, name: 'app', attempt: 0, image: ids.image, containerId });
    for (const rpc of ['StartContainer', 'UpdateContainerResources', 'RemoveContainer']) expect(one(rpc)).toMatchObject({ containerId });
    expect(one('StopContainer')).toMatchObject({ containerId, timeout: 0 });
    for (const rpc of ['StopPodSandbox', 'RemovePodSandbox']) expect(one(rpc)).toMatchObject({ podSandboxId });
    expect(callLines(entries).find((e) => e.code !== 0)).toMatchObject({
      level: 'info', msg: 'request failed', rpc: 'StartContainer', containerId: missing, code: 5, error: expect.stringContaining(missing), ms: expect.any(Number),
    });
    // Reads stay out of an info log.
    expect(callLines(entries).map((e) => e.rpc)).not.toEqual(expect.arrayContaining(['ListPodSandbox']));
    expect(callLines(entries, 'ContainerStatus')).toEqual([]);
    expect(callLines(entries, 'Version')).toEqual([]);

    // --log-level debug (here through SIGHUP) logs every call, reads included.
    const config = JSON.parse(await readFile(d.configPath, 'utf8')) as Record<string, unknown>;
    await writeFile(d.configPath, JSON.stringify({ ...config, 'log-level': 'debug' }));
    process.kill(d.pid, 'SIGHUP');
    await waitFor(async () => (await logEntries(d)).some((e) => e.msg === 'log level changed'), { timeoutMs: 10_000, what: 'reload' });
    await c.runtime('ListPodSandbox', {});
    const debug = await waitFor(async () => {
      const line = callLines(await logEntries(d), 'ListPodSandbox')[0];
      return line;
    }, { timeoutMs: 10_000, what: 'a debug line for ListPodSandbox' });
    expect(debug).toMatchObject({ level: 'debug', msg: 'request', code: 0, ms: expect.any(Number) });
  });

  it('at warn: the engine warnings, and no call lines', async () => {
    const { daemon: d, cri: c } = await start('warn');
    await podLifecycle(c);
    // The last call's line would have been written before its answer: the log is complete now.
    const entries = await logEntries(d);
    expect(entries.filter((e) => e.level === 'warn' && e.source === 'engine').map((e) => e.msg)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^failed to start pre-installed NRI plugin 10-broken: /),
      'AppArmor profile requested but the host has no AppArmor: ignored',
    ]));
    expect(callLines(entries)).toEqual([]);
    expect(entries.filter((e) => e.level === 'info' || e.level === 'debug')).toEqual([]);

    // Back to info through SIGHUP: the change itself is logged, and the calls after it.
    const config = JSON.parse(await readFile(d.configPath, 'utf8')) as Record<string, unknown>;
    await writeFile(d.configPath, JSON.stringify({ ...config, 'log-level': 'info' }));
    process.kill(d.pid, 'SIGHUP');
    const changed = await waitFor(async () => (await logEntries(d)).find((e) => e.msg === 'log level changed'), { timeoutMs: 10_000, what: 'reload' });
    expect(changed).toMatchObject({ level: 'info', from: 'warn', to: 'info' });
    await c.image('PullImage', { image: { image: rig().ISULATS_TEST_BUSYBOX } });
    expect(callLines(await logEntries(d))).toEqual([expect.objectContaining({ level: 'info', rpc: 'PullImage', code: 0 })]);
  });
});
