import { hostname as nodeHostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hostnameProblem, isDnsHostname, podHostname } from '../../src/runtime/sandbox/pod-hostname.js';
import { kubeletHostname } from '../rig/kubelet-shapes.js';

const meta = { name: `PodSandbox-for-create-container-${'0'.repeat(8)}-4f1c-4d5e-9a7b-0123456789ab`, namespace: 'cri-test', uid: 'u' };

/** What kubelet sends for node e2e's "Hostname of Pod" specs (pod hostfqdn-<n>, subdomain t). */
const fqdn = (clusterDomain?: string) => kubeletHostname({ podName: 'hostfqdn-70490', namespace: 'hostfqdn-5893', subdomain: 't', clusterDomain, setHostnameAsFQDN: true }).hostname;
/** A 64-byte FQDN, the longest kubelet sends. */
const fqdn64 = kubeletHostname({ podName: 'p'.repeat(33), namespace: 'n'.repeat(10), subdomain: 's', clusterDomain: 'cluster.local', setHostnameAsFQDN: true }).hostname;

describe('pod hostname', () => {
  it('builds kubelet\'s shapes as kubelet does', () => {
    expect(fqdn()).toBe('hostfqdn-70490.t.hostfqdn-5893.svc.');
    expect(fqdn('cluster.local')).toBe('hostfqdn-70490.t.hostfqdn-5893.svc.cluster.local');
    expect(Buffer.byteLength(fqdn64)).toBe(64);
    expect(kubeletHostname({ podName: 'web-0', namespace: 'default', subdomain: 'nginx' }).hostname).toBe('web-0');
  });

  it.each([
    'web-0', 'A1', 'x', 'h'.repeat(63), 'web-0.nginx.default.svc.cluster.local',
    // setHostnameAsFQDN, without and with a cluster domain, and the longest FQDN kubelet sends
    fqdn(), fqdn('cluster.local'), fqdn64,
    // what the kernel takes though DNS would not: a 64-byte label, underscores, empty labels, UTF-8
    'h'.repeat(64), 'my_host', '-web', 'a..b', '.', 'wéb', `${'é'.repeat(32)}`,
  ])('accepts %j, as sethostname(2) does', (name) => {
    expect(hostnameProblem(name)).toBeUndefined();
    expect(podHostname({ metadata: meta, hostname: name }, false)).toEqual({ name, setInSpec: true });
  });

  it.each([
    [`${fqdn64}x`, /65 bytes, the kernel takes at most 64/],
    [`${'é'.repeat(32)}x`, /65 bytes, the kernel takes at most 64/],
    ['web\0evil', /NUL byte/],
  ])('refuses %j as InvalidArgument with one line', (name, problem) => {
    expect(hostnameProblem(name)).toMatch(problem);
    expect(() => podHostname({ metadata: meta, hostname: name }, false)).toThrow(expect.objectContaining({ kind: 'invalid-argument', message: expect.stringMatching(/^pod hostname ".*" is invalid: [^\n]+$/) }));
  });

  it('tells the names DNS takes (isula-form run names the pod\'s host after --name only then)', () => {
    for (const name of ['web-0', 'web-0.nginx', 'h'.repeat(63)]) expect(isDnsHostname(name)).toBe(true);
    for (const name of ['my_app.v2', 'web.', 'a..b', '-web', 'h'.repeat(64), 'wéb', '']) expect(isDnsHostname(name)).toBe(false);
  });

  it('gives a pod without a hostname the node\'s, never its (long) metadata name', () => {
    expect(podHostname({ metadata: meta }, false)).toEqual({ name: nodeHostname(), setInSpec: false });
  });

  it('refuses a hostname over 64 bytes: a pod named by its long metadata name', () => {
    expect(() => podHostname({ metadata: meta, hostname: meta.name }, false)).toThrow(expect.objectContaining({ kind: 'invalid-argument' }));
  });

  it('leaves a host-network pod the node\'s hostname whatever it asks for', () => {
    expect(podHostname({ metadata: meta, hostname: 'not_applied' }, true)).toEqual({ name: nodeHostname(), setInSpec: false });
  });
});
