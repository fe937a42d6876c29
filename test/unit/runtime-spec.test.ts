import { describe, expect, it } from 'vitest';
import {
  buildContainerSpec,
  buildSandboxSpec,
  ALL_CAPABILITIES,
  capabilities,
  DEFAULT_CAPABILITIES,
  DEFAULT_MASKED_PATHS,
  mergeEnv,
  criEnv,
  criEnvInSlices,
  parseCapabilityBound,
  processArgs,
  type ContainerSpecInput,
} from '../../src/runtime/container/spec.js';
import { resolveUser } from '../../src/runtime/container/user-lookup.js';
import { clampOomScoreAdj } from '../../src/runtime/oci/oom-score.js';

const PASSWD = 'root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000:app:/home/app:/bin/sh\n';
const GROUP = 'root:x:0:\napp:x:1000:\nwheel:x:10:app\n';

function input(over: Partial<ContainerSpecInput> = {}, config: ContainerSpecInput['config'] = {}): ContainerSpecInput {
  return {
    id: 'c1',
    rootfs: '/r/rootfs',
    config: { metadata: { name: 'c' }, image: { image: 'busybox' }, ...config },
    sandbox: {
      id: 's1',
      pausePid: 4242,
      netnsPath: '/run/x/netns/s1',
      namespaces: { network: 'POD', pid: 'POD', ipc: 'POD' },
      hostname: 'podhost',
      hostsPath: '/s/hosts',
      hostnamePath: '/s/hostname',
      resolvConfPath: '/s/resolv.conf',
    },
    image: { config: { Entrypoint: ['/entry'], Cmd: ['default'], Env: ['PATH=/bin', 'A=image'], WorkingDir: '/work', User: 'app' }, passwd: PASSWD, group: GROUP },
    host: { oomScoreFloor: 0, apparmor: false, selinux: false },
    cgroupsPath: '/isulats/c1',
    ...over,
  };
}

describe('processArgs', () => {
  it.each([
    ['image entrypoint + cmd', undefined, undefined, ['/entry', 'default']],
    ['args replace cmd', undefined, ['x'], ['/entry', 'x']],
    ['command replaces entrypoint and drops cmd', ['/bin/sh'], undefined, ['/bin/sh']],
    ['command and args', ['/bin/sh'], ['-c', 'true'], ['/bin/sh', '-c', 'true']],
  ])('%s', (_name, command, args, want) => {
    expect(processArgs({ Entrypoint: ['/entry'], Cmd: ['default'] }, command, args)).toEqual(want);
  });

  it('rejects a container with nothing to run', () => {
    expect(() => processArgs({}, [], [])).toThrow(/no command/);
  });
});

describe('mergeEnv', () => {
  it('lets CRI envs override image envs by key and keeps order', () => {
    expect(mergeEnv(['PATH=/bin', 'A=1'], [{ key: 'A', value: '2' }, { key: 'B', value: Buffer.from('3') }])).toEqual(['PATH=/bin', 'A=2', 'B=3']);
  });
  it('adds a default PATH when none is set', () => {
    expect(mergeEnv([], [])[0]).toMatch(/^PATH=\/usr\/local\/sbin/);
  });
  it('keeps a key\'s first position and its last value, extras only where the image and CRI are silent', () => {
    const envs = [{ key: 'B', value: '1' }, { key: 'HOME', value: '/h' }, { key: '', value: 'x' }, { key: 'B', value: Buffer.from('2') }, { key: 'PATH', value: '/p' }];
    expect(mergeEnv(['A=0', 'B=0'], envs, ['HOSTNAME=h', 'HOME=/'])).toEqual(['A=0', 'B=2', 'HOSTNAME=h', 'HOME=/h', 'PATH=/p']);
  });
  it('merges a CRI env deduplicated in slices as it merges the plain list', async () => {
    // Service links with repeats across slices, and keys the image and the extras also set.
    const envs = Array.from({ length: 5000 }, (_, i) => ({ key: `SVC_${i % 3000}_PORT`, value: i % 2 ? String(i) : Buffer.from(String(i)) }));
    envs.push({ key: 'PATH', value: '/cri' }, { key: 'HOSTNAME', value: 'cri' });
    let turns = 0;
    const sliced = await criEnvInSlices(envs, 1024, async () => void turns++);
    expect(turns).toBe(4);
    const image = ['SVC_7_PORT=image', 'LANG=C'];
    expect(mergeEnv(image, sliced, ['HOSTNAME=h', 'HOME=/'])).toEqual(mergeEnv(image, envs, ['HOSTNAME=h', 'HOME=/']));
    expect(mergeEnv(image, criEnv(envs), ['HOSTNAME=h'])).toContain('SVC_1999_PORT=4999');
  });
});

describe('capabilities', () => {
  it('adds and drops with or without the CAP_ prefix', () => {
    const caps = capabilities(['NET_ADMIN'], ['CAP_KILL']);
    expect(caps).toContain('CAP_NET_ADMIN');
    expect(caps).not.toContain('CAP_KILL');
  });
  it('drops ALL but keeps what is added', () => {
    expect(capabilities(['CHOWN'], ['ALL'])).toEqual(['CAP_CHOWN']);
  });
  it('gives the defaults without changes', () => {
    expect(capabilities()).toEqual(DEFAULT_CAPABILITIES);
  });
  it('reads the bounding set by bit number (this host lacks CAP_SYS_RESOURCE, bit 24)', () => {
    const bound = parseCapabilityBound('Name:\tnode\nCapBnd:\t000001fffeffffff\nCapAmb:\t0000000000000000\n');
    expect(bound).toHaveLength(ALL_CAPABILITIES.length - 1);
    expect(bound).not.toContain('CAP_SYS_RESOURCE');
    expect(parseCapabilityBound('CapBnd:\t0000000000001001\n')).toEqual(['CAP_CHOWN', 'CAP_NET_ADMIN']);
    expect(parseCapabilityBound('no such line')).toBeUndefined();
  });
  it('gives privileged and ADD ALL only what the host allows', () => {
    const bound = ALL_CAPABILITIES.filter((c) => c !== 'CAP_SYS_RESOURCE');
    expect(capabilities([], [], true, bound)).toEqual(bound);
    expect(capabilities(['ALL'], ['KILL'], false, bound)).toEqual(bound.filter((c) => c !== 'CAP_KILL'));
    expect(capabilities([], [], true)).toEqual(ALL_CAPABILITIES);
  });
});

describe('resolveUser', () => {
  it.each([
    ['', 0, 0, []],
    ['app', 1000, 1000, [10]],
    ['1000', 1000, 1000, [10]],
    ['app:wheel', 1000, 10, []],
    ['4000:5', 4000, 5, []],
  ])('resolves "%s"', (user, uid, gid, extra) => {
    const r = resolveUser(user, PASSWD, GROUP);
    expect([r.uid, r.gid, r.additionalGids]).toEqual([uid, gid, extra]);
  });
  it('rejects unknown names', () => {
    expect(() => resolveUser('ghost', PASSWD, GROUP)).toThrow(/ghost/);
    expect(() => resolveUser('app:ghosts', PASSWD, GROUP)).toThrow(/ghosts/);
  });
});

describe('buildContainerSpec', () => {
  it('joins the sandbox namespaces and mounts the pod files', () => {
    const spec = buildContainerSpec(input());
    expect(spec.linux.namespaces).toEqual([
      { type: 'mount' },
      { type: 'network', path: '/run/x/netns/s1' },
      { type: 'ipc', path: '/proc/4242/ns/ipc' },
      { type: 'uts', path: '/proc/4242/ns/uts' },
      { type: 'pid', path: '/proc/4242/ns/pid' },
    ]);
    const dests = spec.mounts.map((m: { destination: string }) => m.destination);
    expect(dests).toEqual(expect.arrayContaining(['/proc', '/dev', '/etc/hosts', '/etc/resolv.conf', '/etc/hostname', '/dev/shm']));
    expect(spec.process.env).toContain('HOSTNAME=podhost');
    expect(spec.process.cwd).toBe('/work');
    expect(spec.process.args).toEqual(['/entry', 'default']);
    // containerd's order: the primary group, the image's groups for the user, the CRI's.
    expect(spec.process.user).toEqual({ uid: 1000, gid: 1000, additionalGids: [1000, 10] });
    expect(spec.linux.maskedPaths).toEqual(DEFAULT_MASKED_PATHS);
    expect(spec.linux.cgroupsPath).toBe('/isulats/c1');
    expect(spec.linux.seccomp).toBeUndefined();
  });

  it('joins the pod\'s pinned namespaces; without a pause, POD pid mode gets a namespace of its own', () => {
    const pinned = { ...input().sandbox, pausePid: 0, namespaces: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } as const, ipcnsPath: '/run/x/ipcns/s1', utsnsPath: '/run/x/utsns/s1' };
    for (const pid of ['CONTAINER', 'POD'] as const) {
      const spec = buildContainerSpec(input({ sandbox: pinned }, { linux: { securityContext: { namespaceOptions: { pid } } } }));
      expect(spec.linux.namespaces).toEqual([
        { type: 'mount' },
        { type: 'network', path: '/run/x/netns/s1' },
        { type: 'ipc', path: '/run/x/ipcns/s1' },
        { type: 'uts', path: '/run/x/utsns/s1' },
        { type: 'pid' },
      ]);
    }
  });

  it('uses a private pid namespace for CONTAINER mode and the host one for NODE', () => {
    const own = buildContainerSpec(input({}, { linux: { securityContext: { namespaceOptions: { pid: 'CONTAINER' } } } }));
    expect(own.linux.namespaces).toContainEqual({ type: 'pid' });
    const host = buildContainerSpec(input({}, { linux: { securityContext: { namespaceOptions: { pid: 2, network: 2 } } } }));
    expect(host.linux.namespaces.map((n: { type: string }) => n.type)).not.toContain('pid');
    expect(host.linux.namespaces.map((n: { type: string }) => n.type)).not.toContain('network');
  });

  it('maps mounts with propagation and sets the rootfs propagation', () => {
    const spec = buildContainerSpec(
      input({}, {
        mounts: [
          { containerPath: '/data', hostPath: '/srv/data', readonly: true },
          { containerPath: '/shared', hostPath: '/srv/shared', propagation: 'PROPAGATION_BIDIRECTIONAL' },
          { containerPath: '/slave', hostPath: '/srv/slave', propagation: 1 },
        ],
      }),
    );
    const byDest = Object.fromEntries(spec.mounts.map((m: { destination: string; options: string[] }) => [m.destination, m.options]));
    expect(byDest['/data']).toEqual(['rbind', 'rprivate', 'ro']);
    expect(byDest['/shared']).toEqual(['rbind', 'rshared', 'rw']);
    expect(byDest['/slave']).toEqual(['rbind', 'rslave', 'rw']);
    expect(spec.linux.rootfsPropagation).toBe('rshared');
  });

  describe('supplemental_groups_policy', () => {
    const sc = (policy?: 'Merge' | 'Strict' | number) => ({ linux: { securityContext: { supplementalGroups: [1234], ...(policy === undefined ? {} : { supplementalGroupsPolicy: policy as 'Strict' }) } } });
    it.each([
      ['unset (Merge)', undefined, [1000, 10, 1234]],
      ['Merge', 'Merge' as const, [1000, 10, 1234]],
      ['Strict', 'Strict' as const, [1000, 1234]],
      ['Strict as its number', 1, [1000, 1234]],
    ])('%s', (_name, policy, groups) => {
      expect(buildContainerSpec(input({}, sc(policy))).process.user).toEqual({ uid: 1000, gid: 1000, additionalGids: groups });
    });

    it("Strict on the pod leaves the image's groups out of its containers", () => {
      const base = input({}, sc());
      const spec = buildContainerSpec({ ...base, sandbox: { ...base.sandbox, supplementalGroupsPolicy: 'Strict' } });
      expect(spec.process.user.additionalGids).toEqual([1000, 1234]);
    });
  });

  describe('recursive_read_only mounts', () => {
    const rro = (mount: Record<string, unknown>, supported = true) => buildContainerSpec(input({ recursiveReadOnlyMounts: supported }, {
      mounts: [{ containerPath: '/data', hostPath: '/srv/data', recursiveReadOnly: true, ...mount }],
    }));

    it('adds rro to a read-only private bind mount', () => {
      const spec = rro({ readonly: true });
      expect(spec.mounts.find((m: { destination: string }) => m.destination === '/data').options).toEqual(['rbind', 'rprivate', 'ro', 'rro']);
    });

    it.each([
      ['not read-only', { readonly: false }, true, /recursive_read_only needs readonly/],
      ['host-to-container propagation', { readonly: true, propagation: 'PROPAGATION_HOST_TO_CONTAINER' }, true, /needs propagation PROPAGATION_PRIVATE/],
      ['bidirectional propagation', { readonly: true, propagation: 'PROPAGATION_BIDIRECTIONAL' }, true, /needs propagation PROPAGATION_PRIVATE/],
      ['a handler without rro', { readonly: true }, false, /not supported by the pod's runtime handler/],
    ])('refuses %s with InvalidArgument', (_name, mount, supported, message) => {
      expect(() => rro(mount, supported)).toThrow(expect.objectContaining({ kind: 'invalid-argument', message: expect.stringMatching(message) }));
    });
  });

  it('applies resources and clamps oom_score_adj to the host floor', () => {
    const spec = buildContainerSpec(
      input({ host: { oomScoreFloor: 0, apparmor: false, selinux: false } }, {
        linux: { resources: { cpuShares: '512', cpuQuota: 50000, cpuPeriod: 100000, cpusetCpus: '0', memoryLimitInBytes: 1 << 26, oomScoreAdj: -998 } },
      }),
    );
    expect(spec.linux.resources.cpu).toEqual({ shares: 512, quota: 50000, period: 100000, cpus: '0' });
    expect(spec.linux.resources.memory).toEqual({ limit: 1 << 26 });
    expect(spec.process.oomScoreAdj).toBe(0);
  });

  it('refuses a group without a user, as containerd does', () => {
    expect(() => buildContainerSpec(input({}, { linux: { securityContext: { runAsGroup: { value: 10 } } } }))).toThrow(/without user/);
    expect(buildContainerSpec(input({}, { linux: { securityContext: { runAsUsername: 'app', runAsGroup: { value: 10 } } } })).process.user.gid).toBe(10);
  });

  it('honours the security context', () => {
    const spec = buildContainerSpec(
      input({}, {
        linux: {
          securityContext: {
            runAsUser: { value: 0 },
            runAsGroup: { value: 10 },
            supplementalGroups: [44],
            readonlyRootfs: true,
            noNewPrivs: true,
            capabilities: { addCapabilities: ['SYS_ADMIN'], dropCapabilities: ['NET_RAW'] },
            seccomp: { profileType: 'RuntimeDefault' },
            maskedPaths: ['/proc/secret'],
            readonlyPaths: ['/proc/ro'],
          },
        },
      }),
    );
    expect(spec.process.user).toEqual({ uid: 0, gid: 10, additionalGids: [10, 44] });
    expect(spec.root.readonly).toBe(true);
    expect(spec.process.noNewPrivileges).toBe(true);
    expect(spec.process.capabilities.bounding).toContain('CAP_SYS_ADMIN');
    expect(spec.process.capabilities.bounding).not.toContain('CAP_NET_RAW');
    // RuntimeDefault follows the bounding set: CAP_SYS_ADMIN unlocks mount and lifts the clone rule.
    expect(spec.linux.seccomp.defaultAction).toBe('SCMP_ACT_ERRNO');
    expect(spec.linux.seccomp.syscalls.flatMap((r: { names: string[] }) => r.names)).toContain('mount');
    expect(spec.linux.seccomp.syscalls.some((r: { names: string[] }) => r.names.includes('clone3') && r.names.length === 1)).toBe(false);
    expect(spec.linux.maskedPaths).toEqual(['/proc/secret']);
    expect(spec.linux.readonlyPaths).toEqual(['/proc/ro']);
  });

  it('uses a Localhost seccomp profile given by the caller and refuses a missing one', () => {
    const profile = { defaultAction: 'SCMP_ACT_ERRNO' };
    const spec = buildContainerSpec(input({ localhostSeccomp: profile }, { linux: { securityContext: { seccomp: { profileType: 'Localhost', localhostRef: '/p.json' } } } }));
    expect(spec.linux.seccomp).toEqual(profile);
    expect(() => buildContainerSpec(input({}, { linux: { securityContext: { seccomp: { profileType: 2, localhostRef: '/p.json' } } } }))).toThrow(/was not loaded/);
  });

  it('gives a privileged container every capability, all devices and no masking', () => {
    const spec = buildContainerSpec(input({}, { linux: { securityContext: { privileged: true, seccomp: { profileType: 'RuntimeDefault' } } } }));
    expect(spec.process.capabilities.bounding).toContain('CAP_SYS_ADMIN');
    expect(spec.linux.resources.devices).toEqual([{ allow: true, access: 'rwm' }]);
    expect(spec.linux.maskedPaths).toBeUndefined();
    expect(spec.linux.seccomp).toBeUndefined();
  });

  it('warns and carries on when AppArmor or SELinux is requested on a host without them', () => {
    const warnings: string[] = [];
    buildContainerSpec(input({ warn: (m) => warnings.push(m) }, { linux: { securityContext: { apparmorProfile: 'runtime/default', selinuxOptions: { type: 'spc_t' } } } }));
    expect(warnings).toHaveLength(2);
  });

  it('puts the AppArmor profile into process.apparmorProfile where the host has AppArmor', () => {
    const host = { oomScoreFloor: 0, apparmor: true, selinux: false };
    expect(buildContainerSpec(input({ host })).process.apparmorProfile).toBe('isulats-default');
    expect(buildContainerSpec(input({ host }, { linux: { securityContext: { apparmorProfile: 'localhost/deny-write' } } })).process.apparmorProfile).toBe('deny-write');
    expect(buildContainerSpec(input({ host }, { linux: { securityContext: { apparmor: { profileType: 'Unconfined' } } } })).process.apparmorProfile).toBeUndefined();
    expect(buildContainerSpec(input()).process.apparmorProfile).toBeUndefined();
  });

  it('adds devices with cgroup rules', () => {
    const spec = buildContainerSpec(input({ devices: [{ containerPath: '/dev/xnull', hostPath: '/dev/null', permissions: 'rw', type: 'c', major: 1, minor: 3, fileMode: 0o666, uid: 0, gid: 0 }] }));
    expect(spec.linux.devices).toEqual([{ path: '/dev/xnull', type: 'c', major: 1, minor: 3, fileMode: 0o666, uid: 0, gid: 0 }]);
    expect(spec.linux.resources.devices).toContainEqual({ allow: true, type: 'c', major: 1, minor: 3, access: 'rw' });
  });

  it('sets tty and rejects relative mount targets', () => {
    expect(buildContainerSpec(input({}, { tty: true })).process.terminal).toBe(true);
    expect(() => buildContainerSpec(input({}, { mounts: [{ containerPath: 'rel', hostPath: '/x' }] }))).toThrow(/absolute/);
  });
});

describe('buildSandboxSpec', () => {
  const base = { id: 's1', rootfs: '/r', args: ['/pause'], hostname: 'h', cgroupsPath: '/isulats/s1', host: { oomScoreFloor: 0, apparmor: false, selinux: false } };

  it('creates pod namespaces around the bind-mounted netns with the hostname and sysctls', () => {
    const spec = buildSandboxSpec({ ...base, netnsPath: '/n/s1', config: { metadata: { name: 'p' }, linux: { sysctls: { 'net.ipv4.ip_forward': '1' } } } });
    expect(spec.linux.namespaces).toEqual([{ type: 'mount' }, { type: 'network', path: '/n/s1' }, { type: 'uts' }, { type: 'ipc' }, { type: 'pid' }]);
    expect(spec.hostname).toBe('h');
    expect(spec.linux.sysctl).toEqual({ 'net.ipv4.ip_forward': '1' });
    expect(spec.process.oomScoreAdj).toBe(clampOomScoreAdj(-998, 0));
  });

  it('joins the pinned IPC and UTS namespaces when the pod has them', () => {
    const spec = buildSandboxSpec({ ...base, netnsPath: '/n/s1', ipcnsPath: '/i/s1', utsnsPath: '/u/s1', config: { metadata: { name: 'p' }, linux: { securityContext: { namespaceOptions: { pid: 'POD' } } } } });
    expect(spec.linux.namespaces).toEqual([{ type: 'mount' }, { type: 'network', path: '/n/s1' }, { type: 'uts', path: '/u/s1' }, { type: 'ipc', path: '/i/s1' }, { type: 'pid' }]);
  });

  it('keeps a UTS namespace of the pod\'s own without a hostname (sethostname inside must not reach the node)', () => {
    const spec = buildSandboxSpec({ ...base, hostname: undefined, netnsPath: '/n/s1', config: { metadata: { name: 'p' } } });
    expect(spec.linux.namespaces).toContainEqual({ type: 'uts' });
    expect(spec).not.toHaveProperty('hostname', expect.anything());
  });

  it('uses the host network, pid and ipc namespaces for NODE mode', () => {
    const spec = buildSandboxSpec({ ...base, config: { linux: { securityContext: { namespaceOptions: { network: 'NODE', pid: 'NODE', ipc: 'NODE' } } } } });
    expect(spec.linux.namespaces).toEqual([{ type: 'mount' }]);
    expect(spec.hostname).toBeUndefined();
  });
});

describe('clampOomScoreAdj', () => {
  it.each([
    [-998, 0, 0],
    [-998, -1000, -998],
    [500, 0, 500],
    [2000, 0, 1000],
  ])('wanted %i with host floor %i gives %i', (wanted, floor, want) => {
    expect(clampOomScoreAdj(wanted, floor)).toBe(want);
  });
});
