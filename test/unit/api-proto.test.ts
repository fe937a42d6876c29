// The lazy loaders: service definitions with the right paths and shapes, a
// real grpc-js call through them, direct protobufjs codecs for NRI/ttrpc, and
// nothing heavy loaded when the module is imported.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, describe, expect, it } from 'vitest';
import type { VersionResponse, VersionResponseIn } from '../../src/api/cri.js';
import { CONVERSION_OPTIONS, decodeMessage, encodeMessage, loadCriServices, loadProtoRoot, readDescriptor } from '../../src/api/proto.js';

describe('loadCriServices', () => {
  it('builds RuntimeService and ImageService with the CRI paths of each version', async () => {
    const v1 = await loadCriServices('v1');
    expect(v1.RuntimeService.service.Version.path).toBe('/runtime.v1.RuntimeService/Version');
    expect(v1.ImageService.service.PullImage.path).toBe('/runtime.v1.ImageService/PullImage');
    expect(v1.RuntimeService.service.GetContainerEvents.responseStream).toBe(true);
    const old = await loadCriServices('v1alpha2');
    expect(old.RuntimeService.service.Version.path).toBe('/runtime.v1alpha2.RuntimeService/Version');
    expect(old.RuntimeService.service).not.toHaveProperty('GetContainerEvents');
  });

  it('loads each version once per process', async () => {
    const [a, b] = await Promise.all([loadCriServices('v1'), loadCriServices('v1')]);
    expect(a).toBe(b);
    expect(await loadCriServices('v1')).toBe(a);
  });

  describe('over a real socket', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'isu-p-'));
    const server = new grpc.Server();
    afterAll(async () => {
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    });

    it('carries int64 as strings, enums as names, bytes as Buffers, every field defaulted', async () => {
      const { RuntimeService } = await loadCriServices('v1');
      const seen: unknown[] = [];
      server.addService(RuntimeService.service, {
        Version: (call: grpc.ServerUnaryCall<unknown, VersionResponseIn>, cb: grpc.sendUnaryData<VersionResponseIn>) => {
          seen.push(call.request);
          cb(null, { version: '0.1.0', runtimeName: 'isulats' });
        },
        ContainerStatus: (_call: unknown, cb: grpc.sendUnaryData<object>) =>
          cb(null, { status: { id: 'c1', createdAt: '1732900000123456789', state: 'CONTAINER_RUNNING' }, info: { k: 'v' } }),
        ExecSync: (_call: unknown, cb: grpc.sendUnaryData<object>) => cb(null, { stdout: Buffer.from('hi\n'), exitCode: 3 }),
      });
      const sock = path.join(dir, 's');
      await new Promise<void>((resolve, reject) =>
        server.bindAsync(`unix://${sock}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
      );
      const client = new RuntimeService(`unix://${sock}`, grpc.credentials.createInsecure()) as any;
      const call = <T>(method: string, req: object) =>
        new Promise<T>((resolve, reject) => client[method](req, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))));
      try {
        const version = await call<VersionResponse>('version', { version: 'v1' });
        expect(version).toEqual({ version: '0.1.0', runtimeName: 'isulats', runtimeVersion: '', runtimeApiVersion: '' });
        expect(seen).toEqual([{ version: 'v1' }]);
        const status = await call<any>('containerStatus', { containerId: 'c1' });
        expect(status.status.createdAt).toBe('1732900000123456789');
        expect(status.status.state).toBe('CONTAINER_RUNNING');
        expect(status.status.mounts).toEqual([]);
        expect(status.status.image).toBeNull();
        const exec = await call<any>('execSync', { containerId: 'c1', cmd: ['true'] });
        expect(Buffer.isBuffer(exec.stdout)).toBe(true);
        expect(exec.stdout.toString()).toBe('hi\n');
        expect(exec.stderr).toEqual(Buffer.alloc(0));
      } finally {
        client.close();
      }
    });
  });
});

describe('loadProtoRoot', () => {
  it('encodes and decodes NRI messages directly', async () => {
    const nri = await loadProtoRoot('nri');
    const bytes = encodeMessage(nri, 'nri.pkg.api.v1alpha1.ConfigureRequest', { config: 'x', runtimeName: 'isulats', registrationTimeout: '5000' });
    expect(decodeMessage(nri, 'nri.pkg.api.v1alpha1.ConfigureRequest', bytes)).toMatchObject({
      config: 'x',
      runtimeName: 'isulats',
      registrationTimeout: '5000',
    });
  });

  it('decodes a ttrpc Response with a google.rpc.Status', async () => {
    const ttrpc = await loadProtoRoot('ttrpc');
    const bytes = encodeMessage(ttrpc, 'ttrpc.Response', { status: { code: 5, message: 'not found' } });
    const res = decodeMessage<any>(ttrpc, 'ttrpc.Response', bytes);
    expect(res.status).toEqual({ code: 5, message: 'not found', details: [] });
    expect(res.payload).toEqual(Buffer.alloc(0));
  });

  it('returns the same Root for the same name', async () => {
    expect(await loadProtoRoot('ttrpc')).toBe(await loadProtoRoot('ttrpc'));
  });
});

describe('start-up cost', () => {
  it('imports nothing but node:fs and types at module load', () => {
    const src = readFileSync(path.resolve(import.meta.dirname, '../../src/api/proto.ts'), 'utf8');
    const valueImports = [...src.matchAll(/^import (?!type )[^;]*from '([^']+)'/gm)].map((m) => m[1]);
    expect(valueImports).toEqual(['node:fs', './descriptor-subset.js', '../util/cjs.js']);
  });

  it('parses each descriptor once', () => {
    expect(readDescriptor('cri-v1')).toBe(readDescriptor('cri-v1'));
  });

  it('decodes with the conversion the generated types promise', () => {
    expect(CONVERSION_OPTIONS).toMatchObject({ longs: String, enums: String, bytes: Buffer, defaults: true });
  });
});
