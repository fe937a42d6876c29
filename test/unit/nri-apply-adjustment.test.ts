import { describe, expect, it } from 'vitest';
import { applyAdjustment } from '../../src/nri/adaptation/apply-adjustment.js';
import { nriContainerFromOci } from '../../src/nri/adaptation/from-oci.js';
import { loadNriCodec } from '../../src/nri/protocol.js';
import type * as nri from '../../src/api/nri.js';
import type { OciSpec } from '../../src/nri/adaptation/oci-spec.js';

const base = (): OciSpec => ({
  ociVersion: '1.0.2',
  process: { args: ['sh'], env: ['PATH=/bin', 'OLD=1'], rlimits: [{ type: 'RLIMIT_NOFILE', hard: 10, soft: 10 }] },
  mounts: [
    { destination: '/proc', type: 'proc', source: 'proc' },
    { destination: '/data', type: 'bind', source: '/old', options: ['rbind'] },
  ],
  annotations: { keep: 'x', drop: 'y' },
  linux: { namespaces: [{ type: 'pid' }, { type: 'network', path: '/run/netns/a' }], resources: { memory: { limit: 1 } } },
});

describe('applyAdjustment', () => {
  it('leaves the input spec untouched and returns a copy', () => {
    const spec = base();
    const before = JSON.stringify(spec);
    const { spec: out } = applyAdjustment(spec, { annotations: { a: 'b' } });
    expect(JSON.stringify(spec)).toBe(before);
    expect(out.annotations).toEqual({ keep: 'x', drop: 'y', a: 'b' });
  });

  it('adds, replaces and removes annotations, mounts and environment', () => {
    const { spec } = applyAdjustment(base(), {
      annotations: { '-drop': '', added: 'v' },
      mounts: [{ destination: '/data', type: 'bind', source: '/new', options: ['ro'] }, { destination: '-/proc' }],
      env: [{ key: 'NEW', value: 'v' }, { key: 'PATH', value: '/usr/bin' }, { key: '-OLD', value: '' }],
      args: ['echo', 'hi'],
    });
    expect(spec.annotations).toEqual({ keep: 'x', added: 'v' });
    expect(spec.mounts).toEqual([{ destination: '/data', type: 'bind', source: '/new', options: ['ro'] }]);
    expect(spec.process?.env).toEqual(['PATH=/usr/bin', 'NEW=v']);
    expect(spec.process?.args).toEqual(['echo', 'hi']);
  });

  it('appends hooks and replaces rlimits by type', () => {
    const { spec } = applyAdjustment(base(), {
      hooks: { prestart: [{ path: '/bin/hook', args: ['hook', 'x'], env: [], timeout: { value: '5' } }], poststop: [] },
      rlimits: [{ type: 'RLIMIT_NOFILE', hard: '2048', soft: '1024' }, { type: 'RLIMIT_NPROC', hard: '99', soft: '98' }],
    });
    expect(spec.hooks).toEqual({ prestart: [{ path: '/bin/hook', args: ['hook', 'x'], timeout: 5 }] });
    expect(spec.process?.rlimits).toEqual([
      { type: 'RLIMIT_NOFILE', hard: 2048, soft: 1024 },
      { type: 'RLIMIT_NPROC', hard: 99, soft: 98 },
    ]);
  });

  it('adds devices with a matching device cgroup rule and removes marked ones', () => {
    const spec = base();
    spec.linux!.devices = [{ path: '/dev/old', type: 'c', major: 1, minor: 1 }];
    const { spec: out } = applyAdjustment(spec, {
      linux: { devices: [{ path: '/dev/nri-null', type: 'c', major: '1', minor: '3', fileMode: { value: 0o666 }, uid: { value: 0 } }, { path: '-/dev/old' }] },
    });
    expect(out.linux?.devices).toEqual([{ path: '/dev/nri-null', type: 'c', major: 1, minor: 3, fileMode: 0o666, uid: 0 }]);
    expect(out.linux?.resources?.devices).toEqual([{ allow: true, type: 'c', major: 1, minor: 3, access: 'rwm' }]);
  });

  it('applies resources, cgroups path, OOM score and I/O priority', () => {
    const { spec, blockioClass } = applyAdjustment(base(), {
      linux: {
        resources: {
          memory: { limit: { value: '268435456' }, swappiness: { value: '10' }, disableOomKiller: { value: true } },
          cpu: { shares: { value: '512' }, quota: { value: '50000' }, period: { value: '100000' }, cpus: '0-1', mems: '0' },
          hugepageLimits: [{ pageSize: '2MB', limit: '4194304' }],
          blockioClass: { value: 'slow' },
          rdtClass: { value: 'gold' },
          unified: { 'memory.high': '1G' },
          pids: { limit: '64' },
        },
        cgroupsPath: '/nri/ctr',
        oomScoreAdj: { value: '500' },
        ioPriority: { class: 'IOPRIO_CLASS_BE', priority: 4 },
      },
    });
    expect(spec.linux?.resources).toEqual({
      memory: { limit: 268435456, swappiness: 10, disableOOMKiller: true },
      cpu: { shares: 512, quota: 50000, period: 100000, cpus: '0-1', mems: '0' },
      hugepageLimits: [{ pageSize: '2MB', limit: 4194304 }],
      unified: { 'memory.high': '1G' },
      pids: { limit: 64 },
    });
    expect(spec.linux?.intelRdt).toEqual({ closID: 'gold' });
    expect(blockioClass).toBe('slow');
    expect(spec.linux?.cgroupsPath).toBe('/nri/ctr');
    expect(spec.process?.oomScoreAdj).toBe(500);
    expect(spec.process?.ioPriority).toEqual({ class: 'IOPRIO_CLASS_BE', priority: 4 });
  });

  it('sets the seccomp policy, namespaces and sysctls', () => {
    const { spec } = applyAdjustment(base(), {
      linux: {
        seccompPolicy: {
          defaultAction: 'SCMP_ACT_ALLOW',
          architectures: ['SCMP_ARCH_X86_64'],
          syscalls: [{ names: ['mkdir'], action: 'SCMP_ACT_ERRNO', errnoRet: { value: 1 }, args: [] }],
        },
        namespaces: [{ type: 'network', path: '/run/netns/b' }, { type: '-pid' }, { type: 'ipc', path: '' }],
        sysctl: { 'net.ipv4.ip_forward': '1' },
      },
    });
    expect(spec.linux?.seccomp).toEqual({
      defaultAction: 'SCMP_ACT_ALLOW',
      architectures: ['SCMP_ARCH_X86_64'],
      syscalls: [{ names: ['mkdir'], action: 'SCMP_ACT_ERRNO', errnoRet: 1 }],
    });
    expect(spec.linux?.namespaces).toEqual([{ type: 'network', path: '/run/netns/b' }, { type: 'ipc' }]);
    expect(spec.linux?.sysctl).toEqual({ 'net.ipv4.ip_forward': '1' });
  });

  it('returns CDI device names for the engine to resolve', () => {
    const { cdiDevices } = applyAdjustment(base(), { CDIDevices: [{ name: 'vendor.com/gpu=0' }] });
    expect(cdiDevices).toEqual(['vendor.com/gpu=0']);
  });

  it('accepts an adjustment with every field present but empty', () => {
    const spec = base();
    const { spec: out } = applyAdjustment(spec, { annotations: {}, mounts: [], env: [], hooks: null, linux: null, rlimits: [], CDIDevices: [], args: [] });
    expect(out).toEqual(spec);
  });
});

describe('nriContainerFromOci', () => {
  it('describes a spec as an NRI container that survives the wire', async () => {
    const spec = base();
    spec.process!.oomScoreAdj = 100;
    spec.linux!.resources = { memory: { limit: 1048576 }, cpu: { shares: 2, cpus: '0' }, pids: { limit: 10 }, devices: [{ allow: false, access: 'rwm' }] };
    spec.hooks = { prestart: [{ path: '/h', timeout: 3 }] };
    const ctr = nriContainerFromOci(spec, { id: 'c1', podSandboxId: 'p1', name: 'app', state: 'CONTAINER_CREATED', createdAt: '1700000000000000000' });
    const codec = await loadNriCodec();
    const back = codec.decode<nri.Container>('Container', codec.encode('Container', ctr));
    expect(back).toMatchObject({
      id: 'c1',
      name: 'app',
      state: 'CONTAINER_CREATED',
      args: ['sh'],
      env: ['PATH=/bin', 'OLD=1'],
      annotations: { keep: 'x', drop: 'y' },
      createdAt: '1700000000000000000',
      rlimits: [{ type: 'RLIMIT_NOFILE', hard: '10', soft: '10' }],
    });
    expect(back.mounts.map((m) => m.destination)).toEqual(['/proc', '/data']);
    expect(back.hooks?.prestart).toEqual([{ path: '/h', args: [], env: [], timeout: { value: '3' } }]);
    expect(back.linux?.namespaces).toEqual([{ type: 'pid', path: '' }, { type: 'network', path: '/run/netns/a' }]);
    expect(back.linux?.oomScoreAdj).toEqual({ value: '100' });
    expect(back.linux?.resources?.memory?.limit).toEqual({ value: '1048576' });
    expect(back.linux?.resources?.cpu).toMatchObject({ shares: { value: '2' }, cpus: '0' });
    expect(back.linux?.resources?.pids).toEqual({ limit: '10' });
  });
});
