// A real `isulats daemon` against a registry that misbehaves on purpose (test/rig/hostile-registry.ts),
// and clients that leave: a call's work ends with its call. A pull whose client's deadline passes
// stops downloading (the registry sees its connection close) and holds no lock, so a retry
// downloads at once and RemoveImage frees space at once; the daemon answers other calls meanwhile;
// hostile answers fail with a clear gRPC error; an ExecSync whose client has gone ends its process.
import { randomInt, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { processesMentioning } from '../rig/host-cleanup.js';
import { startHostileRegistry, type HostileRegistry } from '../rig/hostile-registry.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';

const GRPC = { INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, UNAVAILABLE: 14 } as const;

let daemon: IsulatsDaemon;
let registry: HostileRegistry;
let c: RawCriClient;

beforeAll(async () => {
  registry = await startHostileRegistry({ trickleMs: 500 });
  daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE, env: { ISULATS_PULL_PROGRESS_TIMEOUT_MS: '2000' } });
  c = openCriClient(daemon.endpoint);
}, 120_000);

afterAll(async () => {
  c?.close();
  await daemon?.cleanup();
  await registry?.stop();
});

/** The gRPC error of a call that must fail (or a failed expectation when it succeeds). */
async function failure(p: Promise<unknown>): Promise<{ code?: number; details?: string }> {
  return p.then(
    (res) => ({ details: `succeeded: ${JSON.stringify(res)}` }),
    (error: { code?: number; details?: string }) => ({ code: error.code, details: error.details }),
  );
}

/** No pull's temp file is left in the daemon's root. */
/** No partial download is left; a removed image's deletion dir (`-rm-`, deleted by one rm -rf after RemoveImage answered) may still be going. */
async function expectNoTempFiles(): Promise<void> {
  await waitFor(async () => !(await readdir(join(daemon.root, 'tmp')).catch(() => [] as string[])).some((n) => n.includes('-rm-')), { timeoutMs: 60_000, what: 'the removed image deletion to end' });
  expect(await readdir(join(daemon.root, 'tmp')).catch(() => [])).toEqual([]);
}

describe('PullImage from a hostile registry', { timeout: 120_000 }, () => {
  it('a client whose deadline passes mid-download: the download stops, the daemon answers meanwhile, a retry is not held up', async () => {
    const before = registry.layerRequests('trickle');
    const pulling = failure(c.image('PullImage', { image: { image: registry.image('trickle') } }, 3_000));
    await waitFor(async () => registry.layerRequests('trickle') > before, { timeoutMs: 10_000, what: 'the trickle layer request' });
    // Other calls are answered while the trickle goes on.
    expect((await c.runtime('Version', {}, 10_000)).runtimeName).toBe('isulats');
    expect((await c.runtime('ListPodSandbox', {}, 10_000)).items).toEqual([]);
    expect(await pulling).toMatchObject({ code: GRPC.DEADLINE_EXCEEDED });
    // The daemon closes its download connection once the client has gone (it never ends by itself).
    await waitFor(async () => registry.activeLayerResponses('trickle') === 0, { timeoutMs: 10_000, what: 'the daemon to close the trickle download' });
    await waitFor(async () => (await readdir(join(daemon.root, 'tmp')).catch(() => [])).length === 0, { timeoutMs: 10_000, what: 'the partial blob to go' });

    // A retry asks for the blob at once: no blob lock is held for the client that left.
    const retried = registry.layerRequests('trickle');
    const retry = failure(c.image('PullImage', { image: { image: registry.image('trickle') } }, 3_000));
    await waitFor(async () => registry.layerRequests('trickle') > retried, { timeoutMs: 10_000, what: "the retry's layer request" });
    expect(await retry).toMatchObject({ code: GRPC.DEADLINE_EXCEEDED });
    await waitFor(async () => registry.activeLayerResponses('trickle') === 0, { timeoutMs: 10_000, what: 'the retry download to close' });

    // RemoveImage frees an image's space at once: no dead pull holds the content lock.
    await c.image('PullImage', { image: { image: registry.image('ok') } }, 60_000);
    const blob = join(daemon.root, 'content', 'blobs', 'sha256', registry.layerDigest('ok').slice(7));
    expect((await readdir(join(daemon.root, 'content', 'blobs', 'sha256'))).includes(registry.layerDigest('ok').slice(7))).toBe(true);
    await c.image('RemoveImage', { image: { image: registry.image('ok') } }, 30_000);
    expect((await readdir(join(blob, '..'))).includes(registry.layerDigest('ok').slice(7))).toBe(false);
    await expectNoTempFiles();
  });

  it('a stalled blob fails after the progress timeout, naming the blob URL and the timeout', async () => {
    const error = await failure(c.image('PullImage', { image: { image: registry.image('stall') } }, 60_000));
    expect(error).toEqual({
      code: GRPC.DEADLINE_EXCEEDED,
      details: `no data from http://${registry.host}/v2/stall/blobs/${registry.layerDigest('stall')} for 2s`,
    });
    expect(registry.layerRequests('stall')).toBe(1);
    await waitFor(async () => registry.activeLayerResponses('stall') === 0, { timeoutMs: 10_000, what: 'the stalled download to close' });
    await expectNoTempFiles();
  });

  it.each([
    ['no-size', GRPC.INVALID_ARGUMENT, /layer 1 sha256:[0-9a-f]{64}: the descriptor has no size/],
    ['huge-size', GRPC.INVALID_ARGUMENT, /descriptor size 1e\+300 is not a whole number of bytes/],
    ['endless', GRPC.INVALID_ARGUMENT, /blob sha256:[0-9a-f]{64} is larger than the \d+ bytes its descriptor declares/],
    ['wrong-digest', GRPC.INVALID_ARGUMENT, /digest mismatch for blob sha256:[0-9a-f]{64}/],
    ['huge-manifest', GRPC.INVALID_ARGUMENT, /manifest latest from http:\/\/.*\/v2\/huge-manifest\/manifests\/latest is larger than the limit of 4393216 bytes/],
    ['redirect-loop', GRPC.UNAVAILABLE, /too many redirects \(more than 10\) fetching .*\/v2\/redirect-loop\/blobs\/sha256:[0-9a-f]{64}/],
    ['cut', GRPC.UNAVAILABLE, /blob sha256:[0-9a-f]{64} from http:\/\/.*\/v2\/cut\/blobs\/sha256:[0-9a-f]{64}: the registry closed the connection in the middle of the body/],
  ] as const)('%s: a clear error naming what went wrong', async (which, code, message) => {
    const error = await failure(c.image('PullImage', { image: { image: registry.image(which) } }, 60_000));
    expect(error.code, error.details).toBe(code);
    expect(error.details).toMatch(message);
    await expectNoTempFiles();
    expect((await c.image('ListImages', {}, 10_000)).images).toEqual([]);
    await waitFor(async () => registry.openConnections() === 0, { timeoutMs: 10_000, what: 'the registry connections to close' });
  });
});

describe('ExecSync whose client has gone', { timeout: 120_000 }, () => {
  it('ends the exec\'d process', async () => {
    const busybox = rigEnv().ISULATS_TEST_BUSYBOX;
    await c.image('PullImage', { image: { image: busybox } }, 120_000);
    const uid = randomUUID();
    const sandboxConfig: CriMessage = {
      metadata: { name: `gone-${uid}`, uid, namespace: `gone-${uid.slice(0, 8)}`, attempt: 0 },
      labels: { 'io.kubernetes.pod.uid': uid },
      linux: {},
    };
    const { podSandboxId } = await c.runtime('RunPodSandbox', { config: sandboxConfig }, 60_000);
    try {
      const { containerId } = await c.runtime('CreateContainer', {
        podSandboxId, sandboxConfig,
        config: { metadata: { name: `sleeper-${uid}` }, image: { image: busybox }, command: ['sleep', '3600'], linux: {} },
      }, 60_000);
      await c.runtime('StartContainer', { containerId }, 60_000);
      // No exec timeout: only the client's deadline ends the call.
      const marker = `4711.${randomInt(100_000, 999_999)}`;
      const exec = failure(c.runtime('ExecSync', { containerId, cmd: ['sleep', marker], timeout: 0 }, 3_000));
      await waitFor(async () => (await processesMentioning(marker)).length > 0, { timeoutMs: 10_000, what: "the exec'd process" });
      expect(await exec).toMatchObject({ code: GRPC.DEADLINE_EXCEEDED });
      await waitFor(async () => (await processesMentioning(marker)).length === 0, { timeoutMs: 15_000, what: "the exec'd process to end" });
      // The container itself goes on.
      expect((await c.runtime('ContainerStatus', { containerId }, 10_000)).status.state).toBe('CONTAINER_RUNNING');
    } finally {
      await c.runtime('StopPodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
      await c.runtime('RemovePodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
    }
  });
});
