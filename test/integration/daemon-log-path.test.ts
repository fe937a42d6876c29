// Where a container's log goes, through `isulats daemon` and the rig's containerd side by side:
// containerd joins the container's log_path under the pod's log_directory
// (filepath.Join), so an absolute log_path is written under the pod's directory, not at that
// absolute path, and `..` is cleaned as Join cleans it. In a pod without a log directory containerd
// keeps no log; we keep it in the container's own dir, whatever the path.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

let daemon: IsulatsDaemon;
let peers: Record<'isulats' | 'containerd', RawCriClient>;
let dir: string;
let busybox: string;

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  dir = await makeTempDir('ist-logpath-');
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  peers = { isulats: openCriClient(daemon.endpoint), containerd: openCriClient(env.ISULATS_TEST_CONTAINERD) };
  for (const c of Object.values(peers)) await c.image('PullImage', { image: { image: busybox } });
}, 120_000);

afterAll(async () => {
  for (const c of Object.values(peers ?? {})) c.close();
  await daemon?.cleanup();
  if (dir) await removeTempDir(dir);
}, 120_000);

/** Runs `echo <word>` in a new pod of `peer` and answers ContainerStatus's log path once it exited; removes the pod. */
async function logOf(c: RawCriClient, logDirectory: string, logPath: string, word: string): Promise<string> {
  const uid = randomUUID();
  const config: CriMessage = {
    metadata: { name: `logpath-${uid}`, uid, namespace: 'logpath', attempt: 0 },
    logDirectory,
    linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
  };
  const { podSandboxId } = await c.runtime('RunPodSandbox', { config });
  try {
    const { containerId } = await c.runtime('CreateContainer', {
      podSandboxId, sandboxConfig: config, config: { metadata: { name: 'app', attempt: 0 }, image: { image: busybox }, command: ['echo', word], logPath, linux: {} },
    });
    await c.runtime('StartContainer', { containerId });
    const status = await waitFor(async () => {
      const s = (await c.runtime('ContainerStatus', { containerId })).status;
      return s.state === 'CONTAINER_EXITED' ? s : undefined;
    }, { timeoutMs: 20_000, what: 'the container to exit' });
    return status.logPath;
  } finally {
    await c.runtime('StopPodSandbox', { podSandboxId });
    await c.runtime('RemovePodSandbox', { podSandboxId });
  }
}

describe.each(['isulats', 'containerd'] as const)('container log path on %s', (peer) => {
  it('writes an absolute log_path under the pod\'s log directory, not at that path', async () => {
    const podDir = join(dir, peer, 'pod-a');
    const absolute = join(dir, peer, 'absolute', 'app', '0.log');
    const word = `hello-${randomUUID()}`;
    const logPath = await logOf(peers[peer], podDir, absolute, word);
    expect(logPath).toBe(join(podDir, absolute));
    await waitFor(async () => (await readFile(logPath, 'utf8').catch(() => '')).includes(word), { timeoutMs: 5_000, what: 'the log line' });
    expect(existsSync(absolute)).toBe(false);
  });

  it('cleans `..` in log_path as filepath.Join does', async () => {
    const podDir = join(dir, peer, 'pod-b');
    const word = `hello-${randomUUID()}`;
    const logPath = await logOf(peers[peer], podDir, '../beside/0.log', word);
    expect(logPath).toBe(join(dir, peer, 'beside', '0.log'));
    await waitFor(async () => (await readFile(logPath, 'utf8').catch(() => '')).includes(word), { timeoutMs: 5_000, what: 'the log line' });
  });

});

it('keeps the log of a pod without a log directory in the container\'s dir (containerd keeps none), whatever the path', async () => {
  const absolute = join(dir, 'no-pod-dir', 'app', '0.log');
  expect(await logOf(peers.containerd, '', absolute, 'unlogged')).toBe('');
  const word = `hello-${randomUUID()}`;
  const logPath = await logOf(peers.isulats, '', absolute, word);
  expect(logPath).toMatch(new RegExp(`^${daemon.root}/containers/[0-9a-f]{64}${absolute}$`));
  expect(existsSync(absolute)).toBe(false);
});
