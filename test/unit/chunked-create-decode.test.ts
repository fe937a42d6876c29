// The daemon's decoder for a large CreateContainerRequest: the same request protobufjs gives
// (env values as UTF-8 strings), read in slices with the event loop turning in between.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCriServices, serviceDefinition } from '../../src/api/proto.js';
import { CHUNKED_DECODE_BYTES, ENV_SLICE, chunkedCreateDecoder } from '../../src/daemon/chunked-create-decode.js';

type Def = { requestSerialize: (o: object) => Buffer; requestDeserialize: (b: Buffer) => any };
let create: Def;

beforeAll(async () => {
  await loadCriServices('v1');
  create = serviceDefinition('cri-v1', 'runtime.v1.RuntimeService').CreateContainer as Def;
});

/** Service links as kubelet writes them, about 7 per Service. */
function serviceLinks(count: number): { key: string; value: Buffer }[] {
  const out: { key: string; value: Buffer }[] = [];
  for (let i = 0; i < count; i++) out.push({ key: `SVC_${i}_SERVICE_PORT_HTTP`, value: Buffer.from(String(10000 + (i % 50000))) });
  return out;
}

function request(envs: { key: string; value: Buffer }[]): object {
  return {
    podSandboxId: 'a'.repeat(64),
    config: {
      metadata: { name: 'app', attempt: 1 },
      image: { image: 'registry.k8s.io/e2e-test-images/busybox:1.29-4' },
      command: ['sh', '-c', 'sleep 3600'],
      envs,
      labels: { 'io.kubernetes.container.name': 'app' },
      annotations: { 'io.kubernetes.container.hash': '5d1c2c4a' },
      linux: { resources: { memoryLimitInBytes: '134217728' }, securityContext: { runAsUser: { value: '1000' } } },
      logPath: 'app/0.log',
    },
    sandboxConfig: { metadata: { name: 'web-0', uid: 'b0c5f4a2', namespace: 'default', attempt: 0 }, logDirectory: '/var/log/pods/default_web-0_b0c5f4a2' },
  };
}

/** protobufjs's decode, env values as strings. */
function expected(bytes: Buffer): any {
  const req = create.requestDeserialize(bytes);
  req.config.envs = req.config.envs.map((e: { key: string; value: Buffer }) => ({ key: e.key, value: e.value.toString('utf8') }));
  return req;
}

describe('chunkedCreateDecoder', () => {
  it('decodes a large request as protobufjs does, env values as strings', async () => {
    const bytes = create.requestSerialize(request(serviceLinks(20_000)));
    expect(bytes.length).toBeGreaterThan(CHUNKED_DECODE_BYTES);
    const got = await chunkedCreateDecoder(create.requestDeserialize)(bytes) as any;
    expect(got).toEqual(expected(bytes));
    expect(got.config.envs[19_999]).toEqual({ key: 'SVC_19999_SERVICE_PORT_HTTP', value: '29999' });
  });

  it('lets the event loop turn while it reads the envs', async () => {
    const bytes = create.requestSerialize(request(serviceLinks(10 * ENV_SLICE)));
    let turns = 0;
    let stop = false;
    const spin = () => {
      if (stop) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    await chunkedCreateDecoder(create.requestDeserialize)(bytes);
    stop = true;
    // protobufjs in one step would have resolved before the first turn.
    expect(turns).toBeGreaterThanOrEqual(5);
  });

  it('reads values as TextDecoder does (invalid UTF-8 as U+FFFD), keys too', async () => {
    const envs = serviceLinks(20_000);
    envs[7] = { key: 'BAD', value: Buffer.from([0x61, 0xff, 0x62]) };
    envs[8] = { key: 'ÜNICODE', value: Buffer.from('wert ü 🚀') };
    envs[9] = { key: 'EMPTY', value: Buffer.alloc(0) };
    const got = await chunkedCreateDecoder(create.requestDeserialize)(create.requestSerialize(request(envs))) as any;
    expect(got.config.envs.slice(7, 10)).toEqual([
      { key: 'BAD', value: 'a\uFFFDb' }, { key: 'ÜNICODE', value: 'wert ü 🚀' }, { key: 'EMPTY', value: '' },
    ]);
  });

  it('leaves small requests to protobufjs as they are (values as Buffers)', async () => {
    const bytes = create.requestSerialize(request(serviceLinks(3)));
    const got = await chunkedCreateDecoder(create.requestDeserialize)(bytes);
    expect(got).toEqual(create.requestDeserialize(bytes));
    expect(Buffer.isBuffer((got as any).config.envs[0].value)).toBe(true);
  });

  it('gives a config sent in two pieces to protobufjs, which merges them', async () => {
    const one = create.requestSerialize(request(serviceLinks(20_000)));
    const two = create.requestSerialize({ config: { workingDir: '/srv' } });
    const bytes = Buffer.concat([one, two]);
    const got = await chunkedCreateDecoder(create.requestDeserialize)(bytes) as any;
    expect(got).toEqual(create.requestDeserialize(bytes));
    expect(got.config.workingDir).toBe('/srv');
  });

  it('fails on a truncated request as protobufjs does', async () => {
    const bytes = create.requestSerialize(request(serviceLinks(20_000)));
    const cut = bytes.subarray(0, bytes.length - 3);
    expect(() => create.requestDeserialize(cut)).toThrow();
    await expect(chunkedCreateDecoder(create.requestDeserialize)(cut)).rejects.toThrow();
  });
});
