// A call's work ends with its call: the daemon hands every engine call a signal that aborts when
// its client cancels or its deadline passes, and the remote backend (the CLI's client, and the
// daemon's when it fronts another runtime) cancels its call when its own signal aborts. A fake
// backend behind a real daemon socket records what its calls saw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallOptions, CriBackend, PullImageOptions } from '../../src/client/backend.js';
import { RemoteBackend } from '../../src/client/remote.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { fakeBackend as withCalls, startFakeBackendDaemon, type FakeBackendDaemon } from '../rig/fake-backend-daemon.js';
import { waitFor } from '../rig/wait.js';

/** What the fake backend's calls saw, by the image name or the command's first word. */
const seen = new Map<string, { signal?: AbortSignal; reason?: unknown }>();

/** Answers at once for "quick"; otherwise runs until its caller's signal aborts. */
function work(name: string, signal: AbortSignal | undefined): Promise<never> | Promise<Record<string, never>> {
  const entry: { signal?: AbortSignal; reason?: unknown } = { signal };
  seen.set(name, entry);
  if (name === 'quick') return Promise.resolve({});
  return new Promise<never>((_resolve, reject) => {
    signal?.addEventListener('abort', () => {
      entry.reason = signal.reason;
      reject(signal.reason);
    });
  });
}

function fakeBackend(): CriBackend {
  return withCalls({
    pullImage: (req: { image?: { image?: string } }, opts?: PullImageOptions) => work(req.image?.image ?? '', opts?.signal),
    execSync: (req: { cmd?: string[] }, call?: CallOptions) => work(req.cmd?.[0] ?? '', call?.signal),
  });
}

let daemon: FakeBackendDaemon;
let raw: RawCriClient;
let remote: RemoteBackend;

beforeAll(async () => {
  daemon = await startFakeBackendDaemon(fakeBackend(), 'ist-dcc-');
  raw = openCriClient(daemon.endpoint);
  remote = new RemoteBackend({ runtimeEndpoint: daemon.endpoint, timeoutMs: 5000 });
});
afterAll(async () => {
  raw?.close();
  await remote?.close();
  await daemon?.stop();
});

const aborted = (name: string) => waitFor(async () => seen.get(name)?.reason !== undefined, { timeoutMs: 10_000, what: `${name}'s signal to abort` });

describe('the daemon ends a call\'s work with its call', () => {
  it.each(['PullImage', 'ExecSync'])('%s: the client\'s deadline passing aborts the backend call', async (rpc) => {
    const name = `deadline-${rpc}`;
    const call = rpc === 'PullImage' ? raw.image('PullImage', { image: { image: name } }, 300) : raw.runtime('ExecSync', { containerId: 'c', cmd: [name] }, 300);
    await expect(call).rejects.toMatchObject({ code: 4 });
    await aborted(name);
    expect(seen.get(name)!.reason).toMatchObject({ kind: 'deadline-exceeded' });
  });

  it('a call answered in time leaves its signal alone', async () => {
    await raw.image('PullImage', { image: { image: 'quick' } }, 5_000);
    await raw.runtime('Version', {}, 5_000); // the connection is used again after the call ended
    expect(seen.get('quick')!.signal?.aborted).toBe(false);
  });
});

describe('the remote backend cancels its call when its signal aborts', () => {
  it.each(['pullImage', 'execSync'] as const)('%s', async (method) => {
    const name = `cancel-${method}`;
    const abort = new AbortController();
    const call = method === 'pullImage' ? remote.pullImage({ image: { image: name } }, { signal: abort.signal }) : remote.execSync({ containerId: 'c', cmd: [name] }, { signal: abort.signal });
    await waitFor(async () => seen.has(name), { timeoutMs: 10_000, what: `${name} to reach the backend` });
    abort.abort(new Error('caller gone'));
    await expect(call).rejects.toThrow('caller gone');
    // Through the daemon: the cancelled RPC aborted the backend's work.
    await aborted(name);
  });
});
