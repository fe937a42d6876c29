import { describe, expect, it } from 'vitest';
import type * as nri from '../../src/api/nri.js';
import { OwnershipConflictError } from '../../src/nri/adaptation/owners.js';
import { Result } from '../../src/nri/adaptation/result.js';
import { validateDefault } from '../../src/nri/adaptation/validator.js';
import { eventsIn, maskOf, VALID_EVENTS, prettyEvents } from '../../src/nri/adaptation/events.js';
import { effectiveAnnotation } from '../../src/nri/annotations.js';

function container(): nri.Container {
  return {
    id: 'c1', podSandboxId: 'p1', name: 'app', state: 'CONTAINER_CREATED', labels: {}, annotations: { a: '1' }, args: ['sh'], env: ['A=1'],
    mounts: [], hooks: null, linux: { namespaces: [], devices: [], resources: null, oomScoreAdj: null, cgroupsPath: '', ioPriority: null, seccompProfile: null, seccompPolicy: null, sysctl: {}, netDevices: {}, scheduler: null, rdt: null },
    pid: 0, rlimits: [], createdAt: '0', startedAt: '0', finishedAt: '0', exitCode: 0, statusReason: '', statusMessage: '', CDIDevices: [], user: null, image: null,
  };
}

const adj = (a: Partial<nri.ContainerAdjustment>): { adjust: nri.ContainerAdjustment } => ({
  adjust: { annotations: {}, mounts: [], env: [], hooks: null, linux: null, rlimits: [], CDIDevices: [], args: [], ...a },
});

describe('merging plugin adjustments', () => {
  it('merges keyed fields from different plugins and updates the container', () => {
    const c = container();
    const r = new Result(c);
    r.applyCreate(adj({ annotations: { x: '1', '-a': '' }, env: [{ key: 'B', value: '2' }] }), '10-a');
    r.applyCreate(adj({ annotations: { y: '2' }, env: [{ key: 'C', value: '3' }] }), '20-b');
    expect(r.adjust.annotations).toEqual({ x: '1', '-a': '', y: '2' });
    expect(r.adjust.env).toEqual([{ key: 'B', value: '2' }, { key: 'C', value: '3' }]);
    expect(c.annotations).toEqual({ x: '1', y: '2' });
    expect(c.env).toEqual(['A=1', 'B=2', 'C=3']);
  });

  it.each([
    ['annotations', adj({ annotations: { k: 'v' } }), 'annotation "k"'],
    ['removal vs set', adj({ annotations: { '-k': '' } }), 'annotation "k"'],
    ['mounts', adj({ mounts: [{ destination: '/d', source: '/s', type: 'bind', options: [] }] }), 'mount "/d"'],
    ['args', adj({ args: ['x'] }), 'arguments'],
    ['rlimits', adj({ rlimits: [{ type: 'RLIMIT_NOFILE', hard: '1', soft: '1' }] }), 'rlimit "RLIMIT_NOFILE"'],
  ])('reports a conflict on %s', (_name, first, what) => {
    const r = new Result(container());
    r.applyCreate(first, '10-a');
    const second = structuredClone(first);
    if (second.adjust.annotations['-k'] !== undefined) second.adjust.annotations = { k: 'w' };
    expect(() => r.applyCreate(second, '20-b')).toThrow(OwnershipConflictError);
    expect(() => r.applyCreate(second, '20-b')).toThrow(`NRI plugins "10-a" and "20-b" both tried to set ${what} of container c1`);
  });

  it('lets the same plugin set a field twice', () => {
    const r = new Result(container());
    r.applyCreate(adj({ args: ['x'] }), '10-a');
    expect(() => r.applyCreate(adj({ args: ['y'] }), '10-a')).not.toThrow();
    expect(r.adjust.args).toEqual(['y']);
  });

  it('merges container updates per container and field', () => {
    const r = new Result(null);
    const upd = (id: string, res: Partial<nri.LinuxResources>): nri.ContainerUpdate => ({
      containerId: id,
      ignoreFailure: false,
      linux: { resources: { memory: null, cpu: null, hugepageLimits: [], blockioClass: null, rdtClass: null, unified: {}, devices: [], pids: null, ...res } },
    });
    r.applyUpdates([upd('c2', { pids: { limit: '10' } })], '10-a');
    r.applyUpdates([upd('c2', { unified: { 'cpu.max': '1' } }), upd('c3', { pids: { limit: '5' } })], '20-b');
    expect(r.updateList().map((u) => [u.containerId, u.linux?.resources?.pids, u.linux?.resources?.unified])).toEqual([
      ['c2', { limit: '10' }, { 'cpu.max': '1' }],
      ['c3', { limit: '5' }, {}],
    ]);
    expect(() => r.applyUpdates([upd('c2', { pids: { limit: '1' } })], '30-c')).toThrow(/"10-a" and "30-c" both tried to set pids limit of container c2/);
  });

  it('records every hook contributor without conflict', () => {
    const r = new Result(container());
    const hooks = { prestart: [{ path: '/h', args: [], env: [], timeout: null }], createRuntime: [], createContainer: [], startContainer: [], poststart: [], poststop: [] };
    r.applyCreate(adj({ hooks }), '10-a');
    r.applyCreate(adj({ hooks }), '20-b');
    expect(r.adjust.hooks?.prestart).toHaveLength(2);
    expect(r.owners.owner('c1', 'OciHooks')).toBe('10-a,20-b');
    expect(r.owners.toProto().owners.c1.simple[3]).toBe('10-a,20-b');
  });
});

describe('default validator', () => {
  const pod = { annotations: {} } as unknown as nri.PodSandbox;
  function owned(a: Partial<nri.ContainerAdjustment>) {
    const r = new Result(container());
    r.applyCreate(adj(a), '10-a');
    return { pod, container: container(), adjust: r.adjust, owners: r.owners, plugins: ['a'] };
  }

  it('does nothing unless enabled', () => {
    expect(() => validateDefault({ enable: false, rejectOCIHookAdjustment: true }, owned({ hooks: { prestart: [{ path: '/h', args: [], env: [], timeout: null }], createRuntime: [], createContainer: [], startContainer: [], poststart: [], poststop: [] } }))).not.toThrow();
  });

  it('rejects namespace and sysctl adjustments when configured', () => {
    const linux = { devices: [], resources: null, cgroupsPath: '', oomScoreAdj: null, ioPriority: null, seccompPolicy: null, namespaces: [{ type: 'network', path: '/x' }], sysctl: { 'kernel.x': '1' }, netDevices: {}, scheduler: null, rdt: null, memoryPolicy: null };
    expect(() => validateDefault({ enable: true, rejectNamespaceAdjustment: true }, owned({ linux }))).toThrow('attempted restricted namespace adjustment by plugin(s) "10-a" (namespace "network")');
    expect(() => validateDefault({ enable: true, rejectSysctlAdjustment: true }, owned({ linux }))).toThrow('attempted restricted sysctl adjustment by plugin(s) 10-a');
  });

  it('rejects seccomp changes by the kind of the container profile', () => {
    const linux = { devices: [], resources: null, cgroupsPath: '', oomScoreAdj: null, ioPriority: null, seccompPolicy: { defaultAction: 'SCMP_ACT_ALLOW', defaultErrno: null, architectures: [], flags: [], listenerPath: '', listenerMetadata: '', syscalls: [] }, namespaces: [], sysctl: {}, netDevices: {}, scheduler: null, rdt: null, memoryPolicy: null };
    const input = owned({ linux });
    expect(() => validateDefault({ enable: true, rejectUnconfinedSeccompAdjustment: true }, input)).toThrow(/unconfined seccomp/);
    input.container.linux!.seccompProfile = { profileType: 'RUNTIME_DEFAULT', localhostRef: '' };
    expect(() => validateDefault({ enable: true, rejectUnconfinedSeccompAdjustment: true }, input)).not.toThrow();
    expect(() => validateDefault({ enable: true, rejectRuntimeDefaultSeccompAdjustment: true }, input)).toThrow(/runtime default seccomp/);
  });

  it('requires plugins from config and annotations unless tolerated', () => {
    const input = owned({});
    input.pod = { annotations: { 'required-plugins.noderesource.dev/container.app': '[a, b]' } } as unknown as nri.PodSandbox;
    expect(() => validateDefault({ enable: true }, input)).toThrow('required plugin "b" not present');
    input.pod.annotations['tolerate/pod'] = 'true';
    expect(() => validateDefault({ enable: true, tolerateMissingPluginsAnnotation: 'tolerate' }, input)).not.toThrow();
  });
});

describe('event masks and annotations', () => {
  it('maps events to bits N-1 like NRI', () => {
    expect(maskOf(['RUN_POD_SANDBOX'])).toBe(1);
    expect(maskOf(['CREATE_CONTAINER'])).toBe(1 << 3);
    expect(VALID_EVENTS).toBe((1 << 14) - 1);
    expect(eventsIn(maskOf(['STOP_CONTAINER', 'VALIDATE_CONTAINER_ADJUSTMENT']))).toEqual(['STOP_CONTAINER', 'VALIDATE_CONTAINER_ADJUSTMENT']);
    expect(prettyEvents(1 | 8)).toEqual(['RunPodSandbox', 'CreateContainer']);
  });

  it('resolves scoped annotations container first, then pod, then plain', () => {
    const pod = { annotations: { k: 'plain', 'k/pod': 'pod', 'k/container.app': 'app' } };
    expect(effectiveAnnotation(pod, 'k', 'app')).toBe('app');
    expect(effectiveAnnotation(pod, 'k', 'other')).toBe('pod');
    expect(effectiveAnnotation({ annotations: { k: 'plain' } }, 'k', 'x')).toBe('plain');
    expect(effectiveAnnotation({ annotations: {} }, 'k', 'x', { annotations: { k: 'ctr' } })).toBe('ctr');
  });
});
