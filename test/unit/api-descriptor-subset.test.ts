import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { descriptorSubset, resolveTypePath } from '../../src/api/descriptor-subset.js';
import { readDescriptor, CONVERSION_OPTIONS } from '../../src/api/proto.js';

const full = readDescriptor('cri-v1');

describe('descriptorSubset', () => {
  it('keeps a message and everything its fields reach, and nothing else', () => {
    const sub = descriptorSubset(full, ['runtime.v1.VersionRequest', 'runtime.v1.VersionResponse']) as any;
    expect(Object.keys(sub.nested.runtime.nested.v1.nested).sort()).toEqual(['VersionRequest', 'VersionResponse']);
  });

  it('follows nested types, enums and maps transitively', () => {
    const sub = descriptorSubset(full, ['runtime.v1.CreateContainerRequest']) as any;
    const names = Object.keys(sub.nested.runtime.nested.v1.nested);
    for (const n of ['ContainerConfig', 'PodSandboxConfig', 'KeyValue', 'Mount', 'MountPropagation', 'SecurityProfile', 'LinuxContainerSecurityContext']) {
      expect(names).toContain(n);
    }
    expect(names.length).toBeLessThan(Object.keys((full as any).nested.runtime.nested.v1.nested).length);
  });

  it('encodes and decodes exactly as the full descriptor does', () => {
    const msg = {
      podSandboxId: 'p',
      config: { metadata: { name: 'c' }, image: { image: 'busybox' }, envs: [{ key: 'A', value: Buffer.from('b') }], mounts: [{ containerPath: '/x', propagation: 'PROPAGATION_BIDIRECTIONAL' }], linux: { securityContext: { seccomp: { profileType: 'Localhost', localhostRef: '/p.json' } } } },
    };
    const fullType = protobuf.Root.fromJSON(full).lookupType('runtime.v1.CreateContainerRequest');
    const subType = protobuf.Root.fromJSON(descriptorSubset(full, ['runtime.v1.CreateContainerRequest'])).lookupType('runtime.v1.CreateContainerRequest');
    const a = fullType.encode(fullType.fromObject(msg)).finish();
    const b = subType.encode(subType.fromObject(msg)).finish();
    expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
    expect(subType.toObject(subType.decode(a), CONVERSION_OPTIONS)).toEqual(fullType.toObject(fullType.decode(a), CONVERSION_OPTIONS));
  });

  it('resolves references from the innermost scope outwards', () => {
    expect(resolveTypePath(full as any, ['runtime', 'v1', 'SecurityProfile'], 'ProfileType')).toEqual(['runtime', 'v1', 'SecurityProfile', 'ProfileType']);
    expect(resolveTypePath(full as any, ['runtime', 'v1', 'ContainerConfig'], 'KeyValue')).toEqual(['runtime', 'v1', 'KeyValue']);
    expect(resolveTypePath(full as any, ['runtime', 'v1'], 'NoSuchType')).toBeUndefined();
  });

  it('refuses an unknown type', () => {
    expect(() => descriptorSubset(full, ['runtime.v1.Nope'])).toThrow(/no type runtime\.v1\.Nope/);
  });
});
