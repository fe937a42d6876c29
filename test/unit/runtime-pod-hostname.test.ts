import { hostname as nodeHostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hostnameProblem, podHostname } from '../../src/runtime/sandbox/pod-hostname.js';

const meta = { name: `PodSandbox-for-create-container-${'0'.repeat(8)}-4f1c-4d5e-9a7b-0123456789ab`, namespace: 'cri-test', uid: 'u' };

describe('pod hostname', () => {
  it.each([
    'web-0', 'A1', 'x', 'h'.repeat(63), 'web-0.nginx.default.svc.cluster.local', `${'a'.repeat(31)}.${'b'.repeat(32)}`,
  ])('accepts %s', (name) => {
    expect(hostnameProblem(name)).toBeUndefined();
  });

  it.each([
    ['', /RFC 1123/],
    ['h'.repeat(64), /has 64 characters, at most 63/],
    [`${'a'.repeat(31)}.${'b'.repeat(33)}`, /65 characters, at most 64/],
    ['my_host', /RFC 1123/],
    ['-web', /RFC 1123/],
    ['web-', /RFC 1123/],
    ['a..b', /RFC 1123/],
    ['web.', /RFC 1123/],
    ['wéb', /RFC 1123/],
  ])('refuses %j', (name, problem) => {
    expect(hostnameProblem(name)).toMatch(problem);
  });

  it('gives a pod without a hostname the node\'s, never its (long) metadata name', () => {
    expect(podHostname({ metadata: meta }, false)).toEqual({ name: nodeHostname(), setInSpec: false });
  });

  it('sets an explicit hostname in the spec and refuses a bad one as InvalidArgument', () => {
    expect(podHostname({ metadata: meta, hostname: 'web-0' }, false)).toEqual({ name: 'web-0', setInSpec: true });
    expect(() => podHostname({ metadata: meta, hostname: meta.name }, false)).toThrow(expect.objectContaining({ kind: 'invalid-argument' }));
  });

  it('leaves a host-network pod the node\'s hostname whatever it asks for', () => {
    expect(podHostname({ metadata: meta, hostname: 'not_applied' }, true)).toEqual({ name: nodeHostname(), setInSpec: false });
  });
});
