// v1alpha2 <-> v1 conversion, checked against what the wire itself does:
// encoding with one version and decoding with the other must agree with the
// converted objects.
import type { Root } from 'protobufjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContainerConfigIn, PodSandboxStatusResponseIn } from '../../src/api/cri.js';
import { fromV1alpha2, rpcMessageTypes, toV1alpha2, v1alpha2HasRpc, v1OnlyRpcs } from '../../src/api/convert.js';
import { decodeMessage, encodeMessage, loadCriServices, loadProtoRoot } from '../../src/api/proto.js';

let v1: Root;
let v1alpha2: Root;

beforeAll(async () => {
  [v1, v1alpha2] = await Promise.all([loadProtoRoot('cri-v1'), loadProtoRoot('cri-v1alpha2')]);
});

/** Sends `obj` as `type` from one version and reads it with the other, like a peer would. */
function overTheWire(from: Root, to: Root, type: string, obj: object) {
  const fromPkg = from === v1 ? 'runtime.v1' : 'runtime.v1alpha2';
  const toPkg = to === v1 ? 'runtime.v1' : 'runtime.v1alpha2';
  return decodeMessage(to, `${toPkg}.${type}`, encodeMessage(from, `${fromPkg}.${type}`, obj));
}

const containerConfig: ContainerConfigIn = {
  metadata: { name: 'web', attempt: 1 },
  image: { image: 'busybox:latest', userSpecifiedImage: 'busybox', annotations: { a: 'b' } },
  command: ['sh', '-c'],
  args: ['sleep 10'],
  envs: [
    { key: 'PATH', value: Buffer.from('/usr/bin:/bin') },
    { key: 'GREETING', value: Buffer.from('grüße ✓') },
  ],
  mounts: [{ containerPath: '/data', hostPath: '/tmp/x', readonly: true, propagation: 'PROPAGATION_HOST_TO_CONTAINER', recursiveReadOnly: true }],
  labels: { app: 'web' },
  tty: true,
  CDIDevices: [{ name: 'vendor.com/gpu=0' }],
  stopSignal: 'SIGNAL_SIGKILL',
};

describe('toV1alpha2', () => {
  it('turns env values into strings and drops what only v1 has', () => {
    const out = toV1alpha2<Record<string, any>>('ContainerConfig', containerConfig);
    expect(out.envs).toEqual([
      { key: 'PATH', value: '/usr/bin:/bin' },
      { key: 'GREETING', value: 'grüße ✓' },
    ]);
    expect(out).not.toHaveProperty('CDIDevices');
    expect(out).not.toHaveProperty('stopSignal');
    expect(out.image).toEqual({ image: 'busybox:latest', annotations: { a: 'b' } });
    expect(out.mounts).toEqual([{ containerPath: '/data', hostPath: '/tmp/x', readonly: true, propagation: 'PROPAGATION_HOST_TO_CONTAINER' }]);
  });

  it('gives a v1alpha2 peer what it would decode from v1 bytes (ContainerConfig)', () => {
    const wire = overTheWire(v1, v1alpha2, 'ContainerConfig', containerConfig);
    const converted = decodeMessage(v1alpha2, 'runtime.v1alpha2.ContainerConfig',
      encodeMessage(v1alpha2, 'runtime.v1alpha2.ContainerConfig', toV1alpha2('ContainerConfig', containerConfig)));
    expect(converted).toEqual(wire);
    expect((wire as any).envs[1].value).toBe('grüße ✓');
  });

  it('reads base64 text as bytes, as protobufjs does for bytes input', () => {
    const out = toV1alpha2<any>('KeyValue', { key: 'k', value: Buffer.from('hi').toString('base64') });
    expect(out).toEqual({ key: 'k', value: 'hi' });
  });

  it('drops enum values the peer does not know', () => {
    expect(toV1alpha2('ContainerStatus', { id: 'c1', state: 'CONTAINER_EXITED' })).toEqual({ id: 'c1', state: 'CONTAINER_EXITED' });
    expect(toV1alpha2('ContainerStatus', { id: 'c1', state: 'NO_SUCH_STATE' })).toEqual({ id: 'c1' });
    expect(toV1alpha2('ContainerStatus', { id: 'c1', state: 99 })).toEqual({ id: 'c1' });
  });

  it('refuses a message that exists only in v1', () => {
    expect(() => toV1alpha2('GetEventsRequest', {})).toThrow(/no message GetEventsRequest/);
  });

  it('accepts package-qualified type names', () => {
    expect(toV1alpha2('runtime.v1.VersionRequest', { version: '0.1.0' })).toEqual({ version: '0.1.0' });
  });
});

describe('fromV1alpha2', () => {
  const v1alpha2Status = {
    status: {
      id: 'p1',
      metadata: { name: 'nginx', uid: 'u1', namespace: 'default', attempt: 0 },
      state: 'SANDBOX_READY',
      createdAt: '1732900000123456789',
      network: { ip: '10.88.0.2', additionalIps: [{ ip: 'fd00::2' }] },
      labels: { app: 'nginx' },
    },
    info: { info: '{"pid":1}' },
  };

  it('gives v1 code what a v1 decoder would read from v1alpha2 bytes (PodSandboxStatusResponse)', () => {
    const decoded = overTheWire(v1alpha2, v1alpha2, 'PodSandboxStatusResponse', v1alpha2Status);
    const converted = fromV1alpha2<Record<string, any>>('PodSandboxStatusResponse', decoded);
    expect(converted).toEqual(overTheWire(v1alpha2, v1, 'PodSandboxStatusResponse', v1alpha2Status));
    expect(converted.containersStatuses).toEqual([]);
    expect(converted.timestamp).toBe('0');
    expect(converted.status.createdAt).toBe('1732900000123456789');
  });

  it('turns env strings into Buffers and fills v1-only fields with defaults', () => {
    const decoded = overTheWire(v1alpha2, v1alpha2, 'ContainerConfig', { envs: [{ key: 'A', value: 'b' }] });
    const out = fromV1alpha2<Record<string, any>>('ContainerConfig', decoded);
    expect(out.envs).toEqual([{ key: 'A', value: Buffer.from('b') }]);
    expect(out.stopSignal).toBe('SIGNAL_RUNTIME_DEFAULT');
    expect(out.CDIDevices).toEqual([]);
    expect(out).toEqual(overTheWire(v1alpha2, v1, 'ContainerConfig', { envs: [{ key: 'A', value: 'b' }] }));
  });

  it('defaults every shared message exactly as a v1 decoder would', () => {
    const pkg = v1alpha2.lookup('runtime.v1alpha2')!;
    const types = (pkg as any).nestedArray.filter((t: any) => t.fieldsArray).map((t: any) => t.name as string);
    expect(types.length).toBeGreaterThan(100);
    for (const type of types) {
      const empty = overTheWire(v1alpha2, v1alpha2, type, {});
      expect(fromV1alpha2(type, empty), type).toEqual(overTheWire(v1alpha2, v1, type, {}));
    }
  });

  it('round-trips v1 -> v1alpha2 -> v1 for fields both versions share', () => {
    const there = toV1alpha2('ContainerConfig', containerConfig);
    const back = fromV1alpha2<Record<string, any>>('ContainerConfig', there);
    expect(back.envs).toEqual(containerConfig.envs);
    expect(back.command).toEqual(containerConfig.command);
    expect(back.stopSignal).toBe('SIGNAL_RUNTIME_DEFAULT'); // lost on the way: v1alpha2 has no stop signal
  });
});

describe('rpcs', () => {
  it('knows which rpcs a v1alpha2 peer serves', () => {
    expect(v1alpha2HasRpc('RuntimeService', 'Version')).toBe(true);
    expect(v1alpha2HasRpc('RuntimeService', 'podSandboxStatus')).toBe(true);
    expect(v1alpha2HasRpc('RuntimeService', 'GetContainerEvents')).toBe(false);
    expect(v1OnlyRpcs()).toEqual(expect.arrayContaining(['RuntimeService/GetContainerEvents', 'ImageService/StreamImages', 'RuntimeService/RuntimeConfig']));
    expect(v1OnlyRpcs()).not.toContain('RuntimeService/Version');
  });

  it('names the messages of an rpc', () => {
    expect(rpcMessageTypes('RuntimeService', 'getContainerEvents')).toEqual({ request: 'GetEventsRequest', response: 'ContainerEventResponse' });
    expect(rpcMessageTypes('ImageService', 'PullImage')).toEqual({ request: 'PullImageRequest', response: 'PullImageResponse' });
    expect(rpcMessageTypes('ImageService', 'NoSuchRpc')).toBeUndefined();
  });

  it('serializes with v1 services and deserializes with v1alpha2 ones, as the daemon does', async () => {
    const [a, b] = await Promise.all([loadCriServices('v1'), loadCriServices('v1alpha2')]);
    const req: PodSandboxStatusResponseIn = { status: { id: 'p1', createdAt: '1732900000123456789' }, timestamp: '5' };
    const bytes = a.RuntimeService.service.PodSandboxStatus.responseSerialize(req);
    const seen = b.RuntimeService.service.PodSandboxStatus.responseDeserialize(bytes) as Record<string, any>;
    expect(seen.status.createdAt).toBe('1732900000123456789');
    expect(seen).not.toHaveProperty('timestamp');
    expect(fromV1alpha2<Record<string, any>>('PodSandboxStatusResponse', seen).timestamp).toBe('0');
  });
});
