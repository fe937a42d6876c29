import { describe, expect, it } from 'vitest';
import {
  aggregateErrors,
  containerStateFilter,
  goTimeString,
  mapSection,
  matchesRegex,
  newestFirst,
  parseLabels,
  podNameFromLabels,
  podStateFilter,
  rfc3339Nano,
  truncateId,
  truncateImage,
} from '../../src/cli/filters.js';

describe('parseLabels', () => {
  it('builds a selector from repeated k=v flags', () => {
    expect(parseLabels(['a=1', 'b=2'])).toEqual({ a: '1', b: '2' });
    expect(parseLabels(undefined)).toEqual({});
  });

  it.each(['a', 'a=b=c'])('refuses %s as crictl does', (s) => {
    expect(() => parseLabels([s])).toThrow(`incorrectly specified label: ${s}`);
  });
});

describe('state filters', () => {
  it('maps pod states case-insensitively', () => {
    expect(podStateFilter('Ready')).toBe('SANDBOX_READY');
    expect(podStateFilter('notready')).toBe('SANDBOX_NOTREADY');
    expect(() => podStateFilter('running')).toThrow('--state should be ready or notready');
  });

  it('maps container states', () => {
    expect(containerStateFilter('EXITED')).toBe('CONTAINER_EXITED');
    expect(() => containerStateFilter('gone')).toThrow(/created, running, exited or unknown/);
  });
});

describe('matchesRegex', () => {
  it('searches unanchored as Go does, and an empty pattern matches all', () => {
    expect(matchesRegex('ngi', 'my-nginx')).toBe(true);
    expect(matchesRegex('^ngi', 'my-nginx')).toBe(false);
    expect(matchesRegex('', 'x')).toBe(true);
  });

  it('treats an invalid pattern as no match', () => {
    expect(matchesRegex('(', 'x')).toBe(false);
  });
});

describe('newestFirst', () => {
  const items = [{ createdAt: '1700000000000000001' }, { createdAt: '1700000000000000003' }, { createdAt: '1700000000000000002' }];

  it('sorts by creation time, newest first, comparing int64 exactly', () => {
    expect(newestFirst(items, {}).map((i) => i.createdAt.slice(-1))).toEqual(['3', '2', '1']);
  });

  it('keeps one with --latest and n with --last, --last winning', () => {
    expect(newestFirst(items, { latest: true })).toHaveLength(1);
    expect(newestFirst(items, { last: 2 })).toHaveLength(2);
    expect(newestFirst(items, { latest: true, last: 5 })).toHaveLength(3);
  });
});

describe('ID and image cells', () => {
  it('truncates IDs to 13 characters', () => {
    expect(truncateId('0123456789abcdef')).toBe('0123456789abc');
    expect(truncateId('short')).toBe('short');
  });

  it('shortens digests but keeps references', () => {
    expect(truncateImage(`sha256:${'a'.repeat(64)}`)).toBe('a'.repeat(13));
    expect(truncateImage('docker.io/library/busybox:latest')).toBe('docker.io/library/busybox:latest');
    expect(truncateImage('127.0.0.1:5000/busybox:1.36')).toBe('127.0.0.1:5000/busybox:1.36');
  });

  it('names the pod from the kubernetes label or "unknown"', () => {
    expect(podNameFromLabels({ 'io.kubernetes.pod.name': 'web' })).toBe('web');
    expect(podNameFromLabels({})).toBe('unknown');
  });
});

describe('Go time formats', () => {
  it('formats RFC3339Nano with trimmed fraction', () => {
    expect(rfc3339Nano('1700000000123456000', 0)).toBe('2023-11-14T22:13:20.123456Z');
    expect(rfc3339Nano('1700000000000000000', 60)).toBe('2023-11-14T23:13:20+01:00');
    expect(rfc3339Nano('0', 0)).toBe('1970-01-01T00:00:00Z');
  });

  it('formats time.Time String()', () => {
    expect(goTimeString('1700000000000000005', 0, 'UTC')).toBe('2023-11-14 22:13:20.000000005 +0000 UTC');
    expect(goTimeString('1700000000000000000', -300, 'EST')).toBe('2023-11-14 17:13:20 -0500 EST');
  });
});

describe('mapSection', () => {
  it('prints sorted keys and nothing for an empty map', () => {
    expect(mapSection('Labels', { b: '2', a: '1' })).toBe('Labels:\n\ta -> 1\n\tb -> 2\n');
    expect(mapSection('Labels', {})).toBe('');
  });
});

describe('aggregateErrors', () => {
  it('returns one error as is and brackets several', () => {
    expect(aggregateErrors([])).toBeUndefined();
    const e = new Error('x');
    expect(aggregateErrors([e])).toBe(e);
    expect(aggregateErrors([new Error('a'), new Error('b')])?.message).toBe('[a, b]');
  });
});
