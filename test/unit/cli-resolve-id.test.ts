import { describe, expect, it } from 'vitest';
import { filterId, matchId, podIdMatcher, resolveContainerId, resolvePodId } from '../../src/cli/resolve-id.js';
import { IsulatsError } from '../../src/runtime/errors.js';
import type { CriBackend } from '../../src/client/backend.js';

const A = 'abc123' + '0'.repeat(58);
const B = 'abd456' + '1'.repeat(58);
const C = 'abc' + 'f'.repeat(61);

function fakeBackend(podIds: string[], ctrIds: string[]) {
  const calls: string[] = [];
  const backend = {
    listPodSandbox: async () => {
      calls.push('listPodSandbox');
      return { items: podIds.map((id) => ({ id })) };
    },
    listContainers: async () => {
      calls.push('listContainers');
      return { containers: ctrIds.map((id) => ({ id })) };
    },
  } as unknown as CriBackend;
  return { backend, calls };
}

describe('matchId', () => {
  it('returns an exact ID even when it is also the prefix of another', () => {
    expect(matchId(['abc', 'abcd'], 'abc', 'container')).toBe('abc');
  });

  it('resolves a unique prefix', () => {
    expect(matchId([A, B], 'abc1', 'sandbox')).toBe(A);
  });

  it('refuses an ambiguous prefix and lists the matches', () => {
    try {
      matchId([A, B, C], 'abc', 'container');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(IsulatsError);
      expect((err as IsulatsError).kind).toBe('invalid-argument');
      expect((err as Error).message).toContain('ambiguous');
      expect((err as Error).message).toContain(A);
      expect((err as Error).message).toContain(C);
      expect((err as Error).message).not.toContain(B);
    }
  });

  it('words an unknown ID as containerd does', () => {
    expect(() => matchId([A], 'zzz', 'sandbox')).toThrow('an error occurred when try to find sandbox "zzz": not found');
    expect(() => matchId([A], 'zzz', 'sandbox')).toThrow(expect.objectContaining({ kind: 'not-found' }));
  });

  it('refuses an empty ID', () => {
    expect(() => matchId([A], '', 'container')).toThrow('ID cannot be empty');
  });

  it('resolves an exact name after an exact ID and before an ID prefix, as docker and isula do', () => {
    // 'abc' is a name of B and a prefix of A and C: the name wins.
    expect(matchId([{ id: A }, { id: B, name: 'abc' }, { id: C }], 'abc', 'container')).toBe(B);
    expect(matchId([{ id: A, name: 'web' }], 'web', 'sandbox')).toBe(A);
    // An exact ID beats a name equal to it.
    expect(matchId([{ id: 'abc' }, { id: B, name: 'abc' }], 'abc', 'container')).toBe('abc');
  });

  it('refuses a name that several carry, listing them', () => {
    expect(() => matchId([{ id: A, name: 'app' }, { id: B, name: 'app' }], 'app', 'container')).toThrow(`container name "app" is ambiguous: it names ${A}, ${B}`);
  });
});

describe('resolvePodId / resolveContainerId', () => {
  it('skips the listing RPC for a full 64-hex ID', async () => {
    const { backend, calls } = fakeBackend([A], [B]);
    expect(await resolvePodId(backend, B)).toBe(B);
    expect(calls).toEqual([]);
  });

  it('lists pods for a prefix and containers for a container prefix', async () => {
    const { backend, calls } = fakeBackend([A, B], [C]);
    expect(await resolvePodId(backend, 'abd')).toBe(B);
    expect(await resolveContainerId(backend, 'abcf')).toBe(C);
    expect(calls).toEqual(['listPodSandbox', 'listContainers']);
  });

  it('lists once for many inputs and fails per input', async () => {
    const { backend, calls } = fakeBackend([A, B], []);
    const match = await podIdMatcher(backend, ['abc', 'nope']);
    expect(match('abc')).toBe(A);
    expect(() => match('nope')).toThrow(/not found/);
    expect(calls).toEqual(['listPodSandbox']);
  });
});

describe('filterId', () => {
  it('keeps an unknown ID as typed so the list is empty', () => {
    expect(filterId([A], 'zzz', 'container')).toBe('zzz');
  });

  it('still refuses an ambiguous prefix', () => {
    expect(() => filterId([A, C], 'abc', 'container')).toThrow(/ambiguous/);
  });
});
