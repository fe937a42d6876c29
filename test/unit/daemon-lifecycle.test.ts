// Shutdown and listener behaviour of startDaemon, with a fake backend whose
// calls block on demand (pure lifecycle logic: no engine involved).
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { loadCriServices } from '../../src/api/proto.js';
import type { CriBackend } from '../../src/client/backend.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/daemon/logger.js';
import { resolveDaemonConfig, type DaemonConfig } from '../../src/runtime/config/daemon-config.js';

const VERSION = { version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1', runtimeApiVersion: 'v1' };

function backend(execMs: number): CriBackend {
  return {
    kind: 'remote', target: 'fake', apiVersion: async () => 'v1', close: async () => undefined,
    version: async () => VERSION,
    execSync: () => new Promise((resolve) => setTimeout(() => resolve({ stdout: Buffer.from('done'), stderr: Buffer.alloc(0), exitCode: 0 }), execMs)),
    async *getContainerEvents(_req: unknown, signal: AbortSignal) {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  } as unknown as CriBackend;
}

let dir = '';
let daemon: Daemon | undefined;
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(execMs: number, graceMs: number, extra: Partial<DaemonConfig> = {}): Promise<string> {
  dir = mkdtempSync('/tmp/ist-dlc-');
  const config = { ...resolveDaemonConfig({}, { socket: `${dir}/d.sock`, pidfile: `${dir}/d.pid`, root: dir, state: dir }), ...extra };
  daemon = await startDaemon({ config, backendFactory: async () => backend(execMs), log: createLogger('error', () => undefined), shutdownGraceMs: graceMs });
  return `unix://${dir}/d.sock`;
}

async function client(target: string): Promise<any> {
  const svc = await loadCriServices('v1');
  return new (svc.RuntimeService as any)(target, grpc.credentials.createInsecure());
}

function unary(c: any, method: string, req: object): Promise<{ code: number; res?: any }> {
  return new Promise((resolve) => c[method](req, (err: grpc.ServiceError | null, res: any) => resolve(err ? { code: err.code } : { code: 0, res })));
}

describe('daemon lifecycle', () => {
  it('lets an in-flight call finish on stop, removing socket and pid file', async () => {
    const target = await start(1500, 5000);
    const c = await client(target);
    expect((await unary(c, 'Version', {})).code).toBe(0);
    const slow = unary(c, 'ExecSync', { containerId: 'c', cmd: ['sleep'] });
    await new Promise((r) => setTimeout(r, 100));
    const stopping = daemon!.stop();
    let finished = false;
    void slow.then(() => (finished = true));
    for (let i = 0; i < 100 && existsSync(`${dir}/d.sock`); i++) await new Promise((r) => setTimeout(r, 10));
    // The socket is gone while the call is still running.
    expect(existsSync(`${dir}/d.sock`)).toBe(false);
    expect(finished).toBe(false);
    const answer = await slow;
    expect(answer.code).toBe(0);
    expect(answer.res.stdout.toString()).toBe('done');
    await stopping;
    expect(existsSync(`${dir}/d.pid`)).toBe(false);
    c.close();
  });

  it('bounds the drain: a call still running after the grace is cut off', async () => {
    // The call would run for an hour: only the grace's end lets stop() return (the test's timeout bounds it).
    const target = await start(3_600_000, 300);
    const c = await client(target);
    const stuck = unary(c, 'ExecSync', { containerId: 'c', cmd: ['sleep'] });
    await new Promise((r) => setTimeout(r, 100));
    await daemon!.stop();
    expect((await stuck).code).not.toBe(0);
    c.close();
  }, 60_000);

  it('ends open event streams with Unavailable instead of waiting for them', async () => {
    // A grace of an hour: were stop() to wait for the stream, only the test's timeout would end it.
    const target = await start(0, 3_600_000);
    const c = await client(target);
    const stream = c.GetContainerEvents({});
    const ended = new Promise<number>((resolve) => {
      stream.on('data', () => undefined);
      stream.on('error', (err: grpc.ServiceError) => resolve(err.code));
    });
    await new Promise((r) => setTimeout(r, 100));
    await daemon!.stop();
    expect(await ended).toBe(grpc.status.UNAVAILABLE);
    c.close();
  }, 60_000);

  it('serves TCP only when a tcp:// host is configured', async () => {
    const target = await start(0, 1000, { hosts: ['tcp://127.0.0.1:0'] });
    expect(target).toBeDefined();
    expect(daemon!.endpoints).toHaveLength(1);
    const tcp = daemon!.endpoints[0];
    expect(tcp).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(`${dir}/d.sock`)).toBe(false);
    const c = await client(tcp.slice('tcp://'.length));
    expect((await unary(c, 'Version', {})).res.runtimeName).toBe('fake');
    c.close();
  });

  it('refuses a second daemon on the same pid file and leaves the first serving', async () => {
    const target = await start(0, 1000);
    const config = resolveDaemonConfig({}, { socket: `${dir}/e.sock`, pidfile: `${dir}/d.pid` });
    await expect(startDaemon({ config, backendFactory: async () => backend(0), log: createLogger('error', () => undefined) })).rejects.toThrow(/holds the lock/);
    expect(existsSync(`${dir}/e.sock`)).toBe(false);
    const c = await client(target);
    expect((await unary(c, 'Version', {})).code).toBe(0);
    c.close();
  });

  it('takes over a pid file left by a dead daemon', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    dir = mkdtempSync('/tmp/ist-dlc-');
    writeFileSync(`${dir}/d.pid`, `${dead}\n`);
    const config = resolveDaemonConfig({}, { socket: `${dir}/d.sock`, pidfile: `${dir}/d.pid` });
    daemon = await startDaemon({ config, backendFactory: async () => backend(0), log: createLogger('error', () => undefined) });
    expect(readFileSync(`${dir}/d.pid`, 'utf8').trim()).toBe(String(process.pid));
  });

  it('drops connections with broken HTTP/2 header blocks and keeps serving others', async () => {
    const target = await start(0, 1000);
    const path = target.slice('unix://'.length);
    const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
    const settings = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);
    // HEADERS on stream 1 whose block indexes a dynamic entry that does not exist.
    const badHeaders = Buffer.from([0, 0, 1, 1, 4, 0, 0, 0, 1, 0xff]);
    for (const bytes of [Buffer.concat([preface, settings, badHeaders]), Buffer.concat([preface, settings, badHeaders.subarray(0, 6)])]) {
      await new Promise<void>((resolve) => {
        const s = connect(path, () => s.end(bytes));
        s.on('data', () => undefined);
        s.on('error', () => resolve());
        s.on('close', () => resolve());
        setTimeout(() => { s.destroy(); resolve(); }, 2000);
      });
    }
    const c = await client(target);
    expect((await unary(c, 'Version', {})).code).toBe(0);
    c.close();
  });
});
