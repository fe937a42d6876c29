// CDI pure logic: qualified names, spec validation (versions, strictness),
// the registry's priority, conflicts and re-read on change, and the edits
// applied to an OCI spec (with a scripted host device lookup).
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isQualifiedName, parseQualifiedName } from '../../src/runtime/cdi/qualified-name.js';
import { requiredVersion, validateSpec } from '../../src/runtime/cdi/spec-validate.js';
import { applyEdits, collectEdits, completeDeviceNode } from '../../src/runtime/cdi/apply-edits.js';
import { CdiRegistry, MAX_CDI_SPEC_BYTES } from '../../src/runtime/cdi/spec-registry.js';
import { injectCdiDevices } from '../../src/runtime/cdi/inject.js';
import { requestedCdiDevices } from '../../src/runtime/cdi/device-requests.js';
import { splitDev } from '../../src/runtime/cdi/host-device.js';
import type { HostDeviceInfo } from '../../src/runtime/cdi/cdi-types.js';
import { evaluateCdi } from '../../src/doctor/checks/cdi.js';
import { evaluateNodeFeatures } from '../../src/doctor/checks/node-features.js';
import { parseDaemonJson, resolveDaemonConfig } from '../../src/runtime/config/daemon-config.js';

const gpuSpec = (over: Record<string, unknown> = {}) => ({
  cdiVersion: '0.5.0',
  kind: 'nvidia.com/gpu',
  devices: [
    { name: '0', containerEdits: { deviceNodes: [{ path: '/dev/nvidia0' }] } },
    { name: 'all', containerEdits: { deviceNodes: [{ path: '/dev/nvidia0' }, { path: '/dev/nvidia1' }] } },
  ],
  containerEdits: { env: ['NVIDIA_VISIBLE_DEVICES=void'], deviceNodes: [{ path: '/dev/nvidiactl' }] },
  ...over,
});

const hostDevs: Record<string, HostDeviceInfo> = {
  '/dev/nvidia0': { type: 'c', major: 195, minor: 0, fileMode: 0o666 },
  '/dev/nvidia1': { type: 'c', major: 195, minor: 1, fileMode: 0o666 },
  '/dev/nvidiactl': { type: 'c', major: 195, minor: 255, fileMode: 0o666 },
  '/dev/sdz': { type: 'b', major: 8, minor: 16, fileMode: 0o660 },
};
const lookup = (p: string) => hostDevs[p] ?? new Error('no such device node on the host');

describe('CDI qualified names', () => {
  it('accepts vendor.com/class=name and the reference parser\'s characters', () => {
    expect(parseQualifiedName('nvidia.com/gpu=0')).toEqual({ vendor: 'nvidia.com', class: 'gpu', name: '0' });
    expect(parseQualifiedName('vendor.example.com/class_x-1=dev:a.b')).toEqual({ vendor: 'vendor.example.com', class: 'class_x-1', name: 'dev:a.b' });
    expect(isQualifiedName('nvidia.com/gpu=all')).toBe(true);
  });
  it.each([
    ['/dev/null', /unqualified/],
    ['nvidia.com/gpu', /unqualified/],
    ['nvidia.com=0', /unqualified/],
    ['nvidia.com/gpu=', /unqualified/],
    ['1vendor.com/gpu=0', /vendor .* should start with a letter/],
    ['nvidia.com/gpu-=0', /class .* should end with a letter or digit/],
    ['nvidia.com/gpu=a/b', /invalid character '\/'/],
    ['nvidia.com/gpu=-a', /device name .* should start/],
  ])('refuses %s', (name, why) => {
    const r = parseQualifiedName(name);
    expect('error' in r && r.error).toMatch(why);
  });
});

describe('CDI spec validation', () => {
  it('takes versions 0.3.0 to 1.0.0 (with or without v) and refuses others', () => {
    for (const v of ['0.5.0', 'v0.6.0', '0.8.0', '1.0.0']) expect(validateSpec(gpuSpec({ cdiVersion: v })).cdiVersion).toBe(v.replace('v', ''));
    expect(validateSpec({ cdiVersion: '0.3.0', kind: 'x.com/y', devices: [{ name: 'a', containerEdits: { env: ['A=1'] } }] }).cdiVersion).toBe('0.3.0');
    expect(() => validateSpec(gpuSpec({ cdiVersion: '0.2.0' }))).toThrow(/cdiVersion "0.2.0" is not supported/);
    expect(() => validateSpec(gpuSpec({ cdiVersion: '1.1.0' }))).toThrow(/not supported/);
  });
  it('refuses fields newer than the declared version, as the reference\'s minimum-version rules', () => {
    // A device name starting with a digit needs 0.5.0.
    expect(() => validateSpec(gpuSpec({ cdiVersion: '0.4.0' }))).toThrow(/need cdiVersion 0.5.0 or later \(declared 0.4.0\)/);
    const gids = { cdiVersion: '0.6.0', kind: 'x.com/y', devices: [{ name: 'a', containerEdits: { additionalGids: [44] } }] };
    expect(() => validateSpec(gids)).toThrow(/0.7.0/);
    expect(requiredVersion(validateSpec({ ...gids, cdiVersion: '0.7.0' }))).toBe('0.7.0');
    expect(requiredVersion(validateSpec({ cdiVersion: '0.6.0', kind: 'x.com/y.z', devices: [{ name: 'a', containerEdits: { env: ['A=1'] } }] }))).toBe('0.6.0');
  });
  it.each([
    [{ devices: [] }, /no devices/],
    [{ kind: 'gpu' }, /expected vendor.com\/class/],
    [{ devices: [{ name: 'a', containerEdits: {} }] }, /device "a": no container edits/],
    [{ devices: [{ name: 'a', containerEdits: { env: ['A=1'] } }, { name: 'a', containerEdits: { env: ['A=1'] } }] }, /defined twice/],
    [{ devices: [{ name: 'a', containerEdits: { env: ['=1'] } }] }, /invalid environment variable/],
    [{ devices: [{ name: 'a', containerEdits: { deviceNodes: [{ path: '/dev/x', type: 'z' }] } }] }, /invalid type "z"/],
    [{ devices: [{ name: 'a', containerEdits: { deviceNodes: [{ path: '/dev/x', permissions: 'rwx' }] } }] }, /invalid permissions/],
    [{ devices: [{ name: 'a', containerEdits: { hooks: [{ hookName: 'preStart', path: '/bin/true' }] } }] }, /invalid hook name "preStart"/],
    [{ devices: [{ name: 'a', containerEdits: { mounts: [{ hostPath: '/x' }] } }] }, /containerPath: required/],
    [{ devices: [{ name: 'a', containerEdits: { env: ['A=1'], extra: 1 } }] }, /unknown field "extra"/],
    [{ vendorExtension: true }, /unknown field "vendorExtension"/],
  ])('refuses a bad spec (%#)', (over, why) => {
    expect(() => validateSpec(gpuSpec(over as Record<string, unknown>))).toThrow(why);
  });
});

describe('CDI edits', () => {
  const base = () => ({
    process: { user: { uid: 0, gid: 0 }, env: ['PATH=/bin', 'NVIDIA_VISIBLE_DEVICES=none'] },
    mounts: [{ destination: '/proc', type: 'proc', source: 'proc' }, { destination: '/dev/shm', source: 'shm' }],
    linux: { devices: [], resources: { devices: [{ allow: false, access: 'rwm' }] } },
  });

  it('applies spec-level edits once, then each device\'s, filling major/minor from the host', () => {
    const spec = validateSpec(gpuSpec());
    const from = { path: '/etc/cdi/nvidia.yaml', priority: 0, spec };
    const edits = collectEdits([
      { name: 'nvidia.com/gpu=0', device: spec.devices[0]!, from },
      { name: 'nvidia.com/gpu=all', device: spec.devices[1]!, from },
    ]);
    expect(edits).toHaveLength(3);
    const out = applyEdits(base(), edits, lookup);
    expect(out.process.env).toEqual(['PATH=/bin', 'NVIDIA_VISIBLE_DEVICES=void']);
    expect(out.linux.devices).toEqual([
      { path: '/dev/nvidiactl', type: 'c', major: 195, minor: 255, fileMode: 0o666 },
      { path: '/dev/nvidia0', type: 'c', major: 195, minor: 0, fileMode: 0o666 },
      { path: '/dev/nvidia1', type: 'c', major: 195, minor: 1, fileMode: 0o666 },
    ]);
    expect(out.linux.resources.devices.slice(1)).toEqual([
      { allow: true, type: 'c', major: 195, minor: 255, access: 'rwm' },
      { allow: true, type: 'c', major: 195, minor: 0, access: 'rwm' },
      { allow: true, type: 'c', major: 195, minor: 0, access: 'rwm' },
      { allow: true, type: 'c', major: 195, minor: 1, access: 'rwm' },
    ]);
  });

  it('applies mounts (replacing, sorted by depth), hooks, intelRdt, additional GIDs and node owners', () => {
    const spec = base();
    (spec.process.user as Record<string, unknown>).uid = 1000;
    const out = applyEdits(spec, [{
      mounts: [{ hostPath: '/opt/lib', containerPath: '/usr/lib/x', options: ['ro', 'rbind'] }, { hostPath: '/host/shm', containerPath: '/dev/shm', type: 'bind' }],
      hooks: [{ hookName: 'createContainer', path: '/usr/bin/hook', args: ['hook', 'ldcache'], env: ['A=1'], timeout: 5 }, { hookName: 'poststop', path: '/bin/true' }],
      intelRdt: { closID: 'gold' },
      additionalGids: [0, 44, 44, 107],
      deviceNodes: [{ path: '/dev/xvdz', hostPath: '/dev/sdz', permissions: 'rw' }, { path: '/dev/fake', type: 'c', major: 240, minor: 1, permissions: 'none', gid: 5 }],
    }], lookup);
    expect(out.mounts).toEqual([
      { destination: '/proc', type: 'proc', source: 'proc' },
      { destination: '/dev/shm', source: '/host/shm', type: 'bind' },
      { destination: '/usr/lib/x', source: '/opt/lib', options: ['ro', 'rbind'] },
    ]);
    expect(out.hooks).toEqual({ createContainer: [{ path: '/usr/bin/hook', args: ['hook', 'ldcache'], env: ['A=1'], timeout: 5 }], poststop: [{ path: '/bin/true' }] });
    expect(out.linux.intelRdt).toEqual({ closID: 'gold' });
    expect(out.process.user.additionalGids).toEqual([44, 107]);
    // The host node's type and numbers under the container path; the process's uid for an unowned node.
    expect(out.linux.devices).toEqual([
      { path: '/dev/xvdz', type: 'b', major: 8, minor: 16, fileMode: 0o660, uid: 1000 },
      // Fully described, absent on the host: taken as written.
      { path: '/dev/fake', type: 'c', major: 240, minor: 1, uid: 1000, gid: 5 },
    ]);
    expect(out.linux.resources.devices.slice(1)).toEqual([
      { allow: true, type: 'b', major: 8, minor: 16, access: 'rw' },
      { allow: true, type: 'c', major: 240, minor: 1, access: '' },
    ]);
  });

  it('fails on a node missing on the host or of another type', () => {
    expect(() => completeDeviceNode({ path: '/dev/gone' }, lookup)).toThrow(/\/dev\/gone: no such device node/);
    expect(() => completeDeviceNode({ path: '/dev/nvidia0', type: 'b' }, lookup)).toThrow(/type b does not match the host's c/);
    expect(completeDeviceNode({ path: '/dev/nvidia0', type: 'u' }, lookup)).toMatchObject({ type: 'u', major: 195, minor: 0 });
  });

  it('splits dev_t as glibc does', () => {
    expect(splitDev(0x103n)).toEqual({ major: 1, minor: 3 });
    // makedev(0x1234abc, 0x98765): the high bits of each above bit 32 and 20.
    expect(splitDev((0x1234000n << 32n) | (0x98700n << 12n) | (0xabcn << 8n) | 0x65n)).toEqual({ major: 0x1234abc, minor: 0x98765 });
  });
});

describe('CDI device requests', () => {
  it('merges the CRI field and cdi.k8s.io annotations without repeats, in order', () => {
    expect(requestedCdiDevices({
      CDIDevices: [{ name: 'nvidia.com/gpu=0' }, { name: 'vendor.com/net=eth1' }],
      annotations: { 'cdi.k8s.io/nvidia-device-plugin_uuid': 'nvidia.com/gpu=0,nvidia.com/gpu=1', 'io.kubernetes.x': 'nvidia.com/gpu=9' },
    })).toEqual(['nvidia.com/gpu=0', 'vendor.com/net=eth1', 'nvidia.com/gpu=1']);
  });
  it('refuses a malformed name with InvalidArgument, naming where it came from', () => {
    expect(() => requestedCdiDevices({ annotations: { 'cdi.k8s.io/x': 'nvidia.com/gpu=0,gpu0' } })).toThrow(expect.objectContaining({ kind: 'invalid-argument', message: expect.stringMatching(/annotation cdi.k8s.io\/x: unqualified device "gpu0"/) }));
    expect(() => requestedCdiDevices({ CDIDevices: Array.from({ length: 200 }, (_, i) => ({ name: `v.com/c=d${i}` })) })).toThrow(/at most 128/);
  });
});

describe('CDI registry', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const dirs = () => {
    dir = mkdtempSync(join(tmpdir(), 'cdi-unit-'));
    const etc = join(dir, 'etc');
    const run = join(dir, 'run');
    mkdirSync(etc);
    mkdirSync(run);
    return { etc, run };
  };
  const spec = (kind: string, name: string, env: string) => ({ cdiVersion: '0.6.0', kind, devices: [{ name, containerEdits: { env: [env] } }] });

  it('reads JSON and YAML; a later dir wins; same-priority duplicates conflict; bad files are reported', async () => {
    const { etc, run } = dirs();
    writeFileSync(join(etc, 'a.json'), JSON.stringify(spec('v.com/c', 'x', 'FROM=etc')));
    writeFileSync(join(run, 'a.yaml'), 'cdiVersion: "0.6.0"\nkind: v.com/c\ndevices:\n  - name: x\n    containerEdits:\n      env: ["FROM=run"]\n');
    writeFileSync(join(etc, 'd1.json'), JSON.stringify(spec('v.com/d', 'y', 'N=1')));
    writeFileSync(join(etc, 'd2.json'), JSON.stringify(spec('v.com/d', 'y', 'N=2')));
    writeFileSync(join(etc, 'broken.yaml'), 'cdiVersion: [');
    writeFileSync(join(etc, 'big.json'), ' '.repeat(MAX_CDI_SPEC_BYTES + 1));
    writeFileSync(join(etc, 'notes.txt'), 'ignored');
    const reg = new CdiRegistry([etc, run]);
    const snap = await reg.snapshot();
    expect([...snap.devices.keys()]).toEqual(['v.com/c=x']);
    expect(snap.devices.get('v.com/c=x')!.device.containerEdits.env).toEqual(['FROM=run']);
    expect([...snap.errors.keys()].sort()).toEqual(['big.json', 'broken.yaml', 'd1.json', 'd2.json'].map((f) => join(etc, f)));
    expect(snap.errors.get(join(etc, 'd1.json'))).toMatch(/conflicting device "v.com\/d=y"/);
    expect(snap.errors.get(join(etc, 'big.json'))).toMatch(/larger than 1048576 bytes/);
    expect(evaluateCdi({ enabled: true, dirs: [{ path: etc, exists: true }], specs: snap.specs.length, devices: snap.devices.size, errors: [...snap.errors] })[0]).toMatchObject({ status: 'warn', evidence: expect.stringMatching(/^1 device\(s\) in 4 spec\(s\) .*; 4 spec file\(s\) skipped/) });
  });

  it('re-reads a spec rewritten in place, and a spec added later', async () => {
    const { etc } = dirs();
    const file = join(etc, 'v.json');
    writeFileSync(file, JSON.stringify(spec('v.com/c', 'x', 'GEN=1')));
    const reg = new CdiRegistry([etc]);
    const first = await reg.snapshot();
    expect(await reg.snapshot()).toBe(first);
    writeFileSync(file, JSON.stringify(spec('v.com/c', 'x', 'GEN=22')));
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    expect((await reg.snapshot()).devices.get('v.com/c=x')!.device.containerEdits.env).toEqual(['GEN=22']);
    writeFileSync(join(etc, 'w.yaml'), JSON.stringify(spec('v.com/w', 'z', 'W=1')));
    expect([...(await reg.snapshot()).devices.keys()].sort()).toEqual(['v.com/c=x', 'v.com/w=z']);
  });

  it('names the unresolvable device and the dirs searched', async () => {
    const { etc, run } = dirs();
    writeFileSync(join(etc, 'bad.json'), '{');
    const err = await injectCdiDevices(new CdiRegistry([etc, run]), {}, ['nvidia.com/gpu=7']).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'invalid-argument' });
    expect((err as Error).message.startsWith(`CDI: unresolvable CDI device(s) nvidia.com/gpu=7 (searched ${etc}, ${run}; 1 spec file(s) skipped: ${join(etc, 'bad.json')}: `)).toBe(true);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('CDI in daemon.json', () => {
  it('defaults to /etc/cdi and /var/run/cdi; cdi-spec-dirs takes absolute paths', () => {
    expect(resolveDaemonConfig({}).cdiSpecDirs).toEqual(['/etc/cdi', '/var/run/cdi']);
    expect(resolveDaemonConfig(parseDaemonJson('{"cdi-spec-dirs": ["/etc/cdi", "/run/cdi"]}')).cdiSpecDirs).toEqual(['/etc/cdi', '/run/cdi']);
    expect(() => parseDaemonJson('{"cdi-spec-dirs": ["cdi"]}')).toThrow(/cdi-spec-dirs\[0\]/);
  });
});

describe('doctor rows', () => {
  it('says which node features the runtime has, and why not', () => {
    const nodeFeatures = JSON.stringify({ cdi: { available: true }, imageVolumes: { available: true }, checkpoint: { available: false, reason: 'criu check failed: vdso' } });
    expect(evaluateNodeFeatures({ nodeFeatures })).toEqual([{ id: 'features', title: 'node features', status: 'ok', evidence: 'CDI devices: yes; image volumes: yes; checkpoint: no (criu check failed: vdso)' }]);
    expect(evaluateNodeFeatures({ config: '{}' })[0]).toMatchObject({ status: 'warn', evidence: expect.stringMatching(/^skipped/) });
  });
  it('CDI: ok with the counts, or off in the runtime configuration', () => {
    expect(evaluateCdi({ enabled: true, dirs: [{ path: '/etc/cdi', exists: false }, { path: '/var/run/cdi', exists: true }], specs: 2, devices: 9, errors: [] })).toEqual([{ id: 'cdi', title: 'CDI', status: 'ok', evidence: '9 device(s) in 2 spec(s) from /etc/cdi (missing), /var/run/cdi' }]);
    expect(evaluateCdi({ enabled: false, dirs: [], specs: 0, devices: 0, errors: [] })[0]).toMatchObject({ status: 'warn', evidence: expect.stringMatching(/enable_cdi: false/) });
  });
});
