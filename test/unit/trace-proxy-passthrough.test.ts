// The trace proxy forwards bytes, not messages: over real unix sockets, between a grpc-js
// client and a stand-in upstream that answers raw bytes, a request with a field no CRI version
// knows arrives unchanged, the answer comes back unchanged, metadata passes both ways, errors
// keep their code and details, and a server stream arrives whole; each call gives one record.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { startCriProxy, type CriProxy } from '../../src/trace/cri-proxy.js';
import type { TraceRecord } from '../../src/trace/trace-record.js';
import { createLogger } from '../../src/daemon/logger.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const id = (b: Buffer) => b;
const def = (path: string, responseStream = false) => ({ path, requestStream: false, responseStream, requestSerialize: id, requestDeserialize: id, responseSerialize: id, responseDeserialize: id });
// VersionRequest{version: "v1"} followed by field 99 (varint 7), unknown to every CRI version.
const REQUEST = Buffer.from([0x0a, 0x02, 0x76, 0x31, 0x98, 0x06, 0x07]);
const CTR = 'c0ffee'.padEnd(64, '0');

/** The record of the call that just ended: the proxy emits it once the answer went back. */
async function lastRecord(records: TraceRecord[], method: string): Promise<TraceRecord> {
  for (let i = 0; i < 200; i++) {
    const r = records.at(-1);
    if (r?.method === method) return r;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no record of ${method}`);
}

describe('trace proxy passthrough', () => {
  let dir: string;
  let upstream: grpc.Server;
  let proxy: CriProxy;
  let client: grpc.Client;
  const records: TraceRecord[] = [];
  const seen: Buffer[] = [];
  const seenMetadata: string[] = [];

  beforeAll(async () => {
    dir = await makeTempDir('ist-tp-');
    upstream = new grpc.Server();
    upstream.addService({ Version: def('/runtime.v1.RuntimeService/Version') } as any, {
      Version: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
        seen.push(call.request);
        seenMetadata.push(String(call.metadata.get('x-trace-test')[0]));
        const md = new grpc.Metadata();
        md.set('x-upstream', 'yes');
        call.sendMetadata(md);
        cb(null, Buffer.concat([call.request, Buffer.from([0xa0, 0x06, 0x01])]));
      },
    });
    upstream.addService({ ContainerStatus: def('/runtime.v1alpha2.RuntimeService/ContainerStatus') } as any, {
      ContainerStatus: (_call: unknown, cb: grpc.sendUnaryData<Buffer>) => cb({ code: grpc.status.NOT_FOUND, details: `container "${CTR}" not found` }),
    });
    upstream.addService({ GetContainerEvents: def('/runtime.v1.RuntimeService/GetContainerEvents', true) } as any, {
      GetContainerEvents: (call: grpc.ServerWritableStream<Buffer, Buffer>) => {
        for (let i = 0; i < 3; i++) call.write(Buffer.from([0x0a, 0x01, 0x61 + i]));
        call.end();
      },
    });
    const upSock = join(dir, 'up.sock');
    await new Promise<void>((resolve, reject) => upstream.bindAsync(`unix://${upSock}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
    proxy = await startCriProxy({ listen: join(dir, 'p.sock'), upstream: `unix://${upSock}`, onRecord: (r) => records.push(r), log: createLogger('error', () => undefined) });
    client = new grpc.Client(proxy.endpoint, grpc.credentials.createInsecure());
  });

  afterAll(async () => {
    client?.close();
    await proxy?.close();
    upstream?.forceShutdown();
    await removeTempDir(dir);
  });

  it('forwards unknown fields both ways, and metadata', async () => {
    const md = new grpc.Metadata();
    md.set('x-trace-test', 'kubelet');
    let upstreamMd: grpc.Metadata | undefined;
    const res = await new Promise<Buffer>((resolve, reject) => {
      const call = client.makeUnaryRequest('/runtime.v1.RuntimeService/Version', id, id, REQUEST, md, {}, (e, r) => (e ? reject(e) : resolve(r!)));
      call.on('metadata', (m) => (upstreamMd = m));
    });
    expect(seen.at(-1)).toEqual(REQUEST);
    expect(res).toEqual(Buffer.concat([REQUEST, Buffer.from([0xa0, 0x06, 0x01])]));
    expect(seenMetadata.at(-1)).toBe('kubelet');
    expect(upstreamMd?.get('x-upstream')).toEqual(['yes']);
    expect(await lastRecord(records, 'Version')).toMatchObject({ method: 'Version', api: 'v1', status: 'OK' });
  });

  it('passes an error through with its code and details (v1alpha2)', async () => {
    const req = Buffer.concat([Buffer.from([0x0a, 64]), Buffer.from(CTR)]);
    const err = await new Promise<grpc.ServiceError>((resolve) => {
      client.makeUnaryRequest('/runtime.v1alpha2.RuntimeService/ContainerStatus', id, id, req, new grpc.Metadata(), {}, (e) => resolve(e!));
    });
    expect({ code: err.code, details: err.details }).toEqual({ code: grpc.status.NOT_FOUND, details: `container "${CTR}" not found` });
    expect(await lastRecord(records, 'ContainerStatus')).toMatchObject({ method: 'ContainerStatus', api: 'v1alpha2', status: 'NOT_FOUND', subjects: { container: CTR } });
  });

  it('forwards a server stream whole and counts its messages', async () => {
    const got: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const call = client.makeServerStreamRequest('/runtime.v1.RuntimeService/GetContainerEvents', id, id, Buffer.alloc(0), new grpc.Metadata(), {});
      call.on('data', (b: Buffer) => got.push(b));
      call.on('error', reject);
      call.on('end', () => resolve());
    });
    expect(got.map((b) => b.toString('latin1'))).toEqual(['\n\x01a', '\n\x01b', '\n\x01c']);
    expect(await lastRecord(records, 'GetContainerEvents')).toMatchObject({ method: 'GetContainerEvents', status: 'OK', messages: 3 });
  });

  it('answers UNIMPLEMENTED itself for a path no CRI version has', async () => {
    const err = await new Promise<grpc.ServiceError>((resolve) => {
      client.makeUnaryRequest('/runtime.v1.RuntimeService/NoSuchMethod', id, id, Buffer.alloc(0), new grpc.Metadata(), {}, (e) => resolve(e!));
    });
    expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
  });
});
