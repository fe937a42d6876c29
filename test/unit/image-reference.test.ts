import { describe, expect, it } from 'vitest';
import { formatReference, isLoopbackHost, parseReference, registryHost } from '../../src/runtime/image/reference.js';

describe('image reference normalisation', () => {
  it.each([
    ['busybox', 'docker.io/library/busybox:latest'],
    ['busybox:1.36', 'docker.io/library/busybox:1.36'],
    ['library/busybox', 'docker.io/library/busybox:latest'],
    ['user/app:v1', 'docker.io/user/app:v1'],
    ['index.docker.io/library/busybox', 'docker.io/library/busybox:latest'],
    ['localhost/app', 'localhost/app:latest'],
    ['127.0.0.1:5001/a/b:c', '127.0.0.1:5001/a/b:c'],
    ['registry.k8s.io/pause:3.9', 'registry.k8s.io/pause:3.9'],
    [`quay.io/x/y@sha256:${'a'.repeat(64)}`, `quay.io/x/y@sha256:${'a'.repeat(64)}`],
    [`quay.io/x/y:t@sha256:${'b'.repeat(64)}`, `quay.io/x/y:t@sha256:${'b'.repeat(64)}`],
  ])('%s -> %s', (input, want) => {
    expect(formatReference(parseReference(input))).toBe(want);
  });

  it.each(['', 'Busybox', 'busybox:', 'a//b', 'busybox@sha256:xyz', 'bad host/x', 'x:tag with space'])('rejects %j', (input) => {
    expect(() => parseReference(input)).toThrow();
  });

  it('limits the normalised repository name to 255 characters, as distribution/reference does', () => {
    // docker.io/library/ (18) + 237 = 255: the longest name; the tag does not count.
    expect(formatReference(parseReference(`${'a'.repeat(237)}:v1`))).toBe(`docker.io/library/${'a'.repeat(237)}:v1`);
    expect(() => parseReference('a'.repeat(238))).toThrow(/repository name must not be more than 255 characters \(256\)/);
    const host = '127.0.0.1:5000';
    expect(parseReference(`${host}/x/${'y'.repeat(255 - host.length - 3)}`).path).toHaveLength(255 - host.length - 1);
    expect(() => parseReference(`${host}/x/${'y'.repeat(256 - host.length - 3)}:v1`)).toThrow(/must not be more than 255 characters/);
  });

  it('sends docker.io to registry-1.docker.io', () => {
    expect(registryHost('docker.io')).toBe('registry-1.docker.io');
    expect(registryHost('127.0.0.1:5001')).toBe('127.0.0.1:5001');
  });

  it.each([
    ['localhost:5000', true],
    ['127.0.0.1:5001', true],
    ['127.1.2.3', true],
    ['[::1]:5000', true],
    ['docker.io', false],
    ['10.0.0.1:5000', false],
  ])('loopback(%s) = %s', (host, want) => {
    expect(isLoopbackHost(host)).toBe(want);
  });
});
