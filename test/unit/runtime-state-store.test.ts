import { writeFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isKind } from '../../src/runtime/errors.js';
import { NameRegistry, newId } from '../../src/runtime/store/id-registry.js';
import { StateStore } from '../../src/runtime/store/state-store.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

interface Rec {
  id: string;
  state: 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED';
  count: number;
}

describe('StateStore', () => {
  let dir: string;
  let store: StateStore<Rec>;

  beforeEach(async () => {
    dir = await makeTempDir('iststore-');
    store = new StateStore<Rec>(dir, 'containers');
    await store.init();
  });

  afterEach(async () => {
    await removeTempDir(dir);
  });

  it('creates, reads, updates and removes a record', async () => {
    const id = newId();
    await store.create({ id, state: 'CONTAINER_CREATED', count: 0 });
    await expect(store.create({ id, state: 'CONTAINER_CREATED', count: 0 })).rejects.toThrow(/already exists/);
    const next = await store.update(id, (r) => ({ ...r, state: 'CONTAINER_RUNNING' }));
    expect(next.state).toBe('CONTAINER_RUNNING');
    expect((await store.get(id))?.state).toBe('CONTAINER_RUNNING');
    await store.remove(id);
    expect(await store.get(id)).toBeUndefined();
    await store.update(id, (r) => r).catch((error) => expect(isKind(error, 'not-found')).toBe(true));
  });

  it('serialises concurrent updates of one record so none is lost', async () => {
    const id = newId();
    await store.create({ id, state: 'CONTAINER_CREATED', count: 0 });
    await Promise.all(Array.from({ length: 20 }, () => store.update(id, async (r) => ({ ...r, count: r.count + 1 }))));
    expect((await store.get(id))?.count).toBe(20);
  });

  it('lists records and resolves unique ID prefixes', async () => {
    const a = `aaaa${newId().slice(4)}`;
    const b = `aaab${newId().slice(4)}`;
    await store.create({ id: a, state: 'CONTAINER_CREATED', count: 0 });
    await store.create({ id: b, state: 'CONTAINER_EXITED', count: 0 });
    expect((await store.list()).map((r) => r.id).sort()).toEqual([a, b]);
    expect(await store.resolve('aaaa')).toBe(a);
    await expect(store.resolve('aaa')).rejects.toThrow(/ambiguous/);
    expect(await store.resolve('ffff')).toBeUndefined();
    expect(await store.resolve('../etc')).toBeUndefined();
  });
});

describe('NameRegistry', () => {
  let dir: string;
  let names: NameRegistry;

  beforeEach(async () => {
    dir = await makeTempDir('istnames-');
    names = new NameRegistry(dir, 'sandboxes');
    await names.init();
  });

  afterEach(async () => {
    await removeTempDir(dir);
  });

  it('never gives one name to two owners, and accepts underscores and slashes', async () => {
    const name = 'k8s_POD_my_pod_with_underscores_ns/x_uid_0';
    await names.reserve(name, 'id1');
    await names.reserve(name, 'id1');
    await expect(names.reserve(name, 'id2')).rejects.toThrow(/reserved for id1/);
    const results = await Promise.allSettled(['a', 'b', 'c'].map((id) => names.reserve('contended', id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('releases only its own reservation', async () => {
    await names.reserve('n', 'id1');
    await names.release('n', 'id2');
    expect(await names.owner('n')).toBe('id1');
    await names.release('n', 'id1');
    expect(await names.owner('n')).toBeUndefined();
  });

  it('reclaims old reservations whose owner has no record', async () => {
    await names.reserve('orphan', 'gone');
    await names.reserve('kept', 'alive');
    await names.reserve('young', 'gone2');
    const old = new Date(Date.now() - 3600_000);
    await utimes(join(dir, 'names', 'sandboxes', 'orphan'), old, old);
    await utimes(join(dir, 'names', 'sandboxes', 'kept'), old, old);
    await writeFile(join(dir, 'unused'), '');
    expect(await names.reclaim(async (id) => id === 'alive')).toBe(1);
    expect(await names.owner('orphan')).toBeUndefined();
    expect(await names.owner('kept')).toBe('alive');
    expect(await names.owner('young')).toBe('gone2');
  });
});
