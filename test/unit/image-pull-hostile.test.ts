// Pulls from a registry that misbehaves on purpose (test/rig/hostile-registry.ts), through the
// image service in a temp root: each misbehaviour fails the pull with an error that names what
// went wrong, in bounded time, and leaves nothing behind (no temp file, no image, no open
// connection to the registry); a pull whose caller has gone stops and holds no lock.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { downloadKey } from '../../src/runtime/image/image-pull.js';
import { MAX_REDIRECTS } from '../../src/runtime/image/registry-client.js';
import { HUGE_MANIFEST_BYTES, startHostileRegistry, TRICKLE_DECLARED_SIZE, type HostileCase, type HostileRegistry } from '../rig/hostile-registry.js';
import { waitFor } from '../rig/wait.js';

let registry: HostileRegistry;
let dir: string;
let n = 0;

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  registry = await startHostileRegistry({ trickleMs: 200 });
  dir = await mkdtemp(join(tmpdir(), 'ist-hostile-'));
});
afterAll(async () => {
  await registry?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function service(): Promise<ImageService> {
  const i = n++;
  return ImageService.open({ root: join(dir, `root${i}`), state: join(dir, `state${i}`), authFile: join(dir, `auths${i}.json`) });
}

const pull = (svc: ImageService, c: HostileCase, signal?: AbortSignal) => svc.pullImage({ image: { image: registry.image(c) } }, { signal });

/** The pull's rejection, or 'still running' after `ms`: a pull that does not stop fails the test instead of hanging it. */
async function settled(p: Promise<unknown>, ms = 15_000): Promise<unknown> {
  return Promise.race([p.then(() => 'succeeded', (error: unknown) => error), sleep(ms).then(() => 'still running')]);
}

/** Nothing of the failed pull is left: no temp file, no image, no connection to the registry. */
async function expectNothingLeft(svc: ImageService): Promise<void> {
  // A removed image's files go after its RemoveImage answered (one deletion dir, one rm -rf).
  await svc.ctx.blobs.deletionsSettled();
  await svc.ctx.layers.deletionsSettled();
  expect(await readdir(svc.ctx.blobs.tmpDir)).toEqual([]);
  expect((await svc.listImages({})).images).toEqual([]);
  await waitFor(async () => registry.openConnections() === 0, { timeoutMs: 10_000, what: 'the registry connections to close' });
}

describe('a hostile registry', { timeout: 60_000 }, () => {
  it.each([
    ['no-size', /layer 1 sha256:[0-9a-f]{64}: the descriptor has no size/],
    ['huge-size', /layer 1 sha256:[0-9a-f]{64}: descriptor size 1e\+300 is not a whole number of bytes/],
  ] as const)('%s: refused before the layer is asked for', async (c, message) => {
    const svc = await service();
    const error = await settled(pull(svc, c));
    expect(error).toMatchObject({ kind: 'invalid-argument', message: expect.stringMatching(message) });
    expect(registry.layerRequests(c)).toBe(0);
    await expectNothingLeft(svc);
  });

  it('endless body: the download stops at the descriptor size', async () => {
    const svc = await service();
    const error = await settled(pull(svc, 'endless'));
    expect(error).toMatchObject({
      kind: 'invalid-argument',
      message: expect.stringMatching(new RegExp(`blob ${registry.layerDigest('endless')} is larger than the \\d+ bytes its descriptor declares`)),
    });
    await expectNothingLeft(svc);
  });

  it('wrong digest: refused, nothing stored', async () => {
    const svc = await service();
    const error = await settled(pull(svc, 'wrong-digest'));
    expect(error).toMatchObject({ kind: 'invalid-argument', message: expect.stringMatching(/digest mismatch for blob sha256:[0-9a-f]{64}: content hashes to/) });
    expect(await svc.ctx.blobs.has(registry.layerDigest('wrong-digest'))).toBe(false);
    await expectNothingLeft(svc);
  });

  it('a connection cut mid-body, every time: 3 attempts, then an error naming the blob and its URL', async () => {
    const svc = await service();
    const error = await settled(pull(svc, 'cut'));
    const digest = registry.layerDigest('cut');
    expect(error).toMatchObject({
      kind: 'unavailable',
      message: `blob ${digest} from http://${registry.host}/v2/cut/blobs/${digest}: the registry closed the connection in the middle of the body (ECONNRESET)`,
    });
    expect(registry.layerRequests('cut')).toBe(3);
    await expectNothingLeft(svc);
  });

  it('redirect loop: given up after as many hops as Go allows', async () => {
    const svc = await service();
    const error = await settled(pull(svc, 'redirect-loop'));
    expect(error).toMatchObject({ message: expect.stringMatching(/too many redirects \(more than 10\) fetching https:\/\/127\.0\.0\.1:\d+\/v2\/redirect-loop\/blobs\/sha256:[0-9a-f]{64}, the last to http:\/\/127\.0\.0\.1:\d+\/v2\/redirect-loop\/blobs\/sha256:[0-9a-f]{64}\?hop=\d+/) });
    expect(registry.layerRequests('redirect-loop')).toBe(MAX_REDIRECTS + 1);
    await expectNothingLeft(svc);
  });

  it("50 MB manifest: refused past containerd's limit without reading the rest", async () => {
    const svc = await service();
    const error = await settled(pull(svc, 'huge-manifest'));
    expect(error).toMatchObject({ kind: 'invalid-argument', message: expect.stringMatching(/manifest latest from http:\/\/127\.0\.0\.1:\d+\/v2\/huge-manifest\/manifests\/latest is larger than the limit of 4393216 bytes/) });
    await expectNothingLeft(svc);
    // What the server wrote beyond 4 MiB sat in socket buffers: the rest was never sent.
    expect(registry.bytesSent('huge-manifest')).toBeLessThan(HUGE_MANIFEST_BYTES / 2);
  });

  it('stalled blob: fails once, after the progress timeout, naming the URL and the timeout', async () => {
    process.env.ISULATS_PULL_PROGRESS_TIMEOUT_MS = '1500';
    try {
      const svc = await service();
      const error = await settled(pull(svc, 'stall'));
      expect(error).toMatchObject({
        kind: 'deadline-exceeded',
        message: `no data from http://${registry.host}/v2/stall/blobs/${registry.layerDigest('stall')} for 1.5s`,
      });
      expect(registry.layerRequests('stall')).toBe(1);
      await expectNothingLeft(svc);
    } finally {
      delete process.env.ISULATS_PULL_PROGRESS_TIMEOUT_MS;
    }
  });
});

describe('a pull whose caller has gone', { timeout: 60_000 }, () => {
  /** Starts a trickle pull and waits until its layer download is under way. */
  async function trickling(svc: ImageService) {
    const abort = new AbortController();
    const before = registry.layerRequests('trickle');
    const pulling = pull(svc, 'trickle', abort.signal);
    pulling.catch(() => undefined);
    await waitFor(async () => registry.layerRequests('trickle') > before, { timeoutMs: 10_000, what: 'the trickle layer request' });
    return { abort, pulling };
  }

  it('stops its download: the connection closes and the partial blob goes', async () => {
    const svc = await service();
    const { abort, pulling } = await trickling(svc);
    abort.abort(new Error('client gone'));
    expect(await settled(pulling)).toMatchObject({ message: 'client gone' });
    await waitFor(async () => registry.activeLayerResponses('trickle') === 0, { timeoutMs: 10_000, what: 'the trickle response to close' });
    await expectNothingLeft(svc);
  });

  it('a download two pulls wait for goes on when the pull that started it leaves, and stops with the last one', async () => {
    const svc = await service();
    const key = downloadKey({ mediaType: '', digest: registry.layerDigest('trickle'), size: TRICKLE_DECLARED_SIZE });
    const first = await trickling(svc);
    const requests = registry.layerRequests('trickle');
    const waiting = new AbortController();
    const second = pull(svc, 'trickle', waiting.signal);
    second.catch(() => undefined);
    await waitFor(async () => svc.ctx.downloads.waiters(key) === 2, { timeoutMs: 10_000, what: 'the second pull to join the download' });
    first.abort.abort(new Error('first caller gone'));
    expect(await settled(first.pulling)).toMatchObject({ message: 'first caller gone' });
    // The second pull still waits, on the same download: no new request, the connection still open.
    expect(await settled(second, 1_000)).toBe('still running');
    expect(registry.layerRequests('trickle')).toBe(requests);
    expect(registry.activeLayerResponses('trickle')).toBe(1);
    expect(svc.ctx.downloads.waiters(key)).toBe(1);
    waiting.abort(new Error('second caller gone'));
    expect(await settled(second)).toMatchObject({ message: 'second caller gone' });
    await waitFor(async () => registry.activeLayerResponses('trickle') === 0, { timeoutMs: 10_000, what: 'the shared download to close' });
    expect(svc.ctx.downloads.waiters(key)).toBe(0);
    await expectNothingLeft(svc);
  });

  it('holds no lock: a pull waiting for the blob leaves at once, a retry downloads at once', async () => {
    const svc = await service();
    const first = await trickling(svc);
    // A second pull of the same image waits for the first one's blob lock; its caller leaves.
    const waiting = new AbortController();
    const second = pull(svc, 'trickle', waiting.signal);
    await sleep(300);
    waiting.abort(new Error('second caller gone'));
    expect(await settled(second)).toMatchObject({ message: 'second caller gone' });
    expect(registry.activeLayerResponses('trickle')).toBe(1); // the first one's download goes on
    first.abort.abort(new Error('first caller gone'));
    expect(await settled(first.pulling)).toMatchObject({ message: 'first caller gone' });
    // A retry asks for the blob at once: no lock is held for the callers that left.
    const retry = await trickling(svc);
    retry.abort.abort(new Error('retry caller gone'));
    expect(await settled(retry.pulling)).toMatchObject({ message: 'retry caller gone' });
    await waitFor(async () => registry.activeLayerResponses('trickle') === 0, { timeoutMs: 10_000, what: 'the trickle responses to close' });
    await expectNothingLeft(svc);
  });

  it('does not hold up RemoveImage: the removed image is collected at once', async () => {
    const svc = await service();
    const { abort, pulling } = await trickling(svc);
    abort.abort(new Error('client gone'));
    await pulling.catch(() => undefined);
    await pull(svc, 'ok');
    expect(await svc.ctx.blobs.has(registry.layerDigest('ok'))).toBe(true);
    await svc.removeImage({ image: { image: registry.image('ok') } });
    expect(await svc.ctx.blobs.has(registry.layerDigest('ok'))).toBe(false);
    await expectNothingLeft(svc);
  });
});
