import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/runtime/store/id-registry.js';
import { RACY_MS } from '../../src/runtime/store/json-cache.js';
import { RecordCache } from '../../src/runtime/store/record-cache.js';
import { StateStore } from '../../src/runtime/store/state-store.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

interface Rec {
  id: string;
  state: 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED';
  config: { labels: Record<string, string> };
}

const kubeletLabels = (pod: string) => ({
  'io.kubernetes.container.name': 'app',
  'io.kubernetes.pod.name': pod,
  'io.kubernetes.pod.namespace': 'default',
  'io.kubernetes.pod.uid': '3f9f2a4e-7d1c-4b8e-9a51-0c6f2d8e4b17',
});

describe('StateStore.listShared (the list answers\' record cache)', () => {
  let dir: string;
  let store: StateStore<Rec>;
  /** Another process sharing the root (a CLI on the embedded engine): its own store, its own cache. */
  let other: StateStore<Rec>;

  beforeEach(async () => {
    dir = await makeTempDir('istrc-');
    store = new StateStore<Rec>(dir, 'containers');
    other = new StateStore<Rec>(dir, 'containers');
    await store.init();
  });

  afterEach(async () => {
    await removeTempDir(dir);
  });

  it('gives the same frozen record objects while their files are unchanged', async () => {
    const id = newId();
    await store.create({ id, state: 'CONTAINER_RUNNING', config: { labels: kubeletLabels('web-7c9d8b5f4-x2kq9') } });
    // A parse is kept once the file's last change is older than a clock tick can hide.
    await sleep(RACY_MS + 20);
    const [first] = store.listShared();
    const [second] = store.listShared();
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first!.config.labels)).toBe(true);
  });

  it('sees every change another process writes, an object it adds and one it removes', async () => {
    const a = newId();
    const b = newId();
    await store.create({ id: a, state: 'CONTAINER_RUNNING', config: { labels: kubeletLabels('web-7c9d8b5f4-x2kq9') } });
    expect(store.listShared().map((r) => r.state)).toEqual(['CONTAINER_RUNNING']);
    // Same size and a write within the same clock tick: only the file's identity tells them apart.
    await other.update(a, (r) => ({ ...r, state: 'CONTAINER_EXITED' }));
    await other.update(a, (r) => ({ ...r, state: 'CONTAINER_CREATED' }));
    expect(store.listShared().map((r) => r.state)).toEqual(['CONTAINER_CREATED']);
    await other.create({ id: b, state: 'CONTAINER_RUNNING', config: { labels: kubeletLabels('db-0') } });
    expect(store.listShared().map((r) => r.id).sort()).toEqual([a, b].sort());
    await other.remove(a);
    expect(store.listShared().map((r) => r.id)).toEqual([b]);
  });

  it('keeps a parse only once the file\'s last change is older than a clock tick (a racy identity)', () => {
    // Inode numbers are reused and older kernels keep coarse file times, so a rewrite within one
    // tick can show the identity of the version read; this host's fine-grained times hide that,
    // so the identity is held still here.
    const path = join(dir, 'record.json');
    const identity = { ino: 7, size: 30, mtimeMs: Date.now(), ctimeMs: Date.now() };
    const cache = new RecordCache<{ state: string }>(() => identity);
    writeFileSync(path, JSON.stringify({ state: 'CONTAINER_RUNNING' }));
    expect(cache.read('r', path)?.state).toBe('CONTAINER_RUNNING');
    writeFileSync(path, JSON.stringify({ state: 'CONTAINER_CREATED' }));
    expect(cache.read('r', path)?.state).toBe('CONTAINER_CREATED');
    // Once the change is old enough, the parse is kept and given out while the identity holds.
    identity.ctimeMs = identity.mtimeMs = Date.now() - RACY_MS - 1;
    const kept = cache.read('r', path);
    writeFileSync(path, JSON.stringify({ state: 'CONTAINER_EXITED' }));
    expect(cache.read('r', path)).toBe(kept);
  });

  it('sees a record rewritten in place, and skips one that does not parse', async () => {
    const a = newId();
    const b = newId();
    await store.create({ id: a, state: 'CONTAINER_RUNNING', config: { labels: {} } });
    await store.create({ id: b, state: 'CONTAINER_RUNNING', config: { labels: {} } });
    expect(store.listShared()).toHaveLength(2);
    await writeFile(join(dir, 'containers', a, 'meta.json'), JSON.stringify({ id: a, state: 'CONTAINER_EXITED', config: { labels: {} } }));
    await writeFile(join(dir, 'containers', b, 'meta.json'), '{"id":');
    expect(store.listShared().map((r) => [r.id, r.state])).toEqual([[a, 'CONTAINER_EXITED']]);
  });

  it('gives status answers the shared record, and a change or removal by another process at once', async () => {
    const id = newId();
    await store.create({ id, state: 'CONTAINER_RUNNING', config: { labels: kubeletLabels('web-7c9d8b5f4-x2kq9') } });
    await sleep(RACY_MS + 20);
    const [listed] = store.listShared();
    expect(store.mustGetShared(id)).toBe(listed);
    await other.update(id, (r) => ({ ...r, state: 'CONTAINER_EXITED' }));
    expect(store.mustGetShared(id).state).toBe('CONTAINER_EXITED');
    await other.remove(id);
    expect(() => store.mustGetShared(id)).toThrow(`container "${id}" not found`);
    expect(() => store.mustGetShared('not-an-id')).toThrow('container "not-an-id" not found');
  });
});
