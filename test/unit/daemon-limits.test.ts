// The daemon's bounds (limits.ts) and the gRPC connection cap (connection-limit.ts), on real
// loopback sockets: what a client past the cap reads, and the count going down as they close.
import { once } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionLimit, ENHANCE_YOUR_CALM } from '../../src/daemon/connection-limit.js';
import { DEFAULT_LIMITS, daemonLimits } from '../../src/daemon/limits.js';

describe('daemon limits', () => {
  it('defaults to the references: grpc-go\'s 120 s handshake, 2 h keepalive, 20 s to answer; kubelet\'s 4 h stream idle', () => {
    expect(daemonLimits({})).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toMatchObject({
      grpcHandshakeTimeoutMs: 120_000, grpcKeepaliveTimeMs: 7_200_000, grpcKeepaliveTimeoutMs: 20_000, streamIdleTimeoutMs: 14_400_000,
    });
  });

  it('takes each count and time bound from its variable, and names a bad one', () => {
    expect(daemonLimits({ ISULATS_MAX_GRPC_CONNECTIONS: '8', ISULATS_GRPC_IDLE_TIMEOUT_MS: '500' }))
      .toMatchObject({ maxGrpcConnections: 8, grpcIdleTimeoutMs: 500, grpcHandshakeTimeoutMs: 120_000 });
    expect(() => daemonLimits({ ISULATS_STREAM_IDLE_TIMEOUT_MS: '0' })).toThrow('ISULATS_STREAM_IDLE_TIMEOUT_MS=0: must be a positive integer');
    expect(() => daemonLimits({ ISULATS_MAX_STREAMING_CONNECTIONS: '1e3x' })).toThrow(/ISULATS_MAX_STREAMING_CONNECTIONS/);
  });
});

describe('ConnectionLimit', () => {
  it('admits up to the cap, refuses the next with SETTINGS then GOAWAY ENHANCE_YOUR_CALM and the reason, and admits again once one closed', async () => {
    const refusals: number[] = [];
    const limit = new ConnectionLimit(2, (n) => refusals.push(n));
    const admitted: net.Socket[] = [];
    const server = net.createServer((s) => { if (limit.admit(s)) admitted.push(s); });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as net.AddressInfo;
    const connect = async (): Promise<net.Socket> => {
      const c = net.connect(port, '127.0.0.1');
      c.on('error', () => undefined);
      await once(c, 'connect');
      return c;
    };
    const clients = [await connect(), await connect()];
    try {
      const probe = await connect();
      const bytes: Buffer[] = [];
      probe.on('data', (b: Buffer) => bytes.push(b));
      await once(probe, 'close');
      const all = Buffer.concat(bytes);
      expect([...all.subarray(0, 9)]).toEqual([0, 0, 0, 4, 0, 0, 0, 0, 0]);
      expect(all[9 + 3]).toBe(7);
      expect(all.readUInt32BE(9 + 9)).toBe(0);
      expect(all.readUInt32BE(9 + 13)).toBe(ENHANCE_YOUR_CALM);
      expect(all.subarray(9 + 17).toString()).toBe('isulats: too many connections (at most 2 at once); try again later');
      expect(refusals).toEqual([1]);
      expect(limit.connections).toBe(2);
      admitted[0]!.destroy();
      for (let i = 0; i < 100 && limit.connections > 1; i++) await new Promise((r) => setTimeout(r, 10));
      expect(limit.connections).toBe(1);
      clients.push(await connect());
      for (let i = 0; i < 100 && admitted.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
      expect(admitted.length).toBe(3);
      expect(limit.connections).toBe(2);
    } finally {
      for (const c of clients) c.destroy();
      for (const s of admitted) s.destroy();
      server.close();
    }
  });
});
