// The addon's SOCK_SEQPACKET reader (attach sockets) against a real SEQPACKET server
// (node-unix-socket's): message boundaries both ways, nothing read while paused, the half-close,
// the end, and a connect that fails.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SeqpacketServer, SeqpacketSocket } from 'node-unix-socket';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasSeqpacketReader, NativeSeqpacketSocket } from '../../src/runtime/exec/seqpacket-native.js';

let dir: string;
let server: SeqpacketServer | undefined;

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  dir = await mkdtemp('/tmp/isq-');
});
afterEach(() => {
  server?.close();
  server = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A server at a fresh path; resolves its side of the first connection. */
function listen(name: string): { path: string; peer: Promise<SeqpacketSocket> } {
  const path = join(dir, name);
  server = new SeqpacketServer();
  const peer = new Promise<SeqpacketSocket>((resolve) => server!.on('connection', (s: SeqpacketSocket) => resolve(s)));
  server.listen(path);
  return { path, peer };
}

function connect(path: string): Promise<NativeSeqpacketSocket> {
  const sock = new NativeSeqpacketSocket();
  return new Promise((resolve, reject) => {
    sock.on('error', reject);
    sock.connect(path, () => resolve(sock));
  });
}

describe('NativeSeqpacketSocket', () => {
  it('is in the addon', () => {
    expect(hasSeqpacketReader()).toBe(true);
  });

  it('keeps message boundaries both ways, half-closes, then ends and closes', async () => {
    const { path, peer } = listen('a');
    const sock = await connect(path);
    const remote = await peer;
    const got: number[] = [];
    const ended = new Promise<void>((r) => sock.on('end', () => r()));
    const closed = new Promise<void>((r) => sock.on('close', () => r()));
    sock.on('data', (b: Buffer) => got.push(b.length));
    const fromClient: string[] = [];
    const remoteEnded = new Promise<void>((r) => remote.on('end', () => r()));
    remote.on('data', (b: Buffer) => fromClient.push(b.toString()));

    for (const size of [1, 8193, 100]) remote.write(Buffer.alloc(size, 2));
    sock.write(Buffer.from('hello'));
    sock.write(Buffer.from('xxworldxx'), 2, 5);
    sock.end();
    await remoteEnded;
    expect(fromClient).toEqual(['hello', 'world']);
    remote.end();
    await ended;
    await closed;
    expect(got).toEqual([1, 8193, 100]);
  });

  it('reads nothing while paused, then everything in order once resumed', async () => {
    const { path, peer } = listen('b');
    const sock = await connect(path);
    sock.pause();
    const remote = await peer;
    const got: number[] = [];
    sock.on('data', (b: Buffer) => got.push(b.readUInt32BE(0)));
    for (let i = 0; i < 200; i++) {
      const b = Buffer.alloc(4096);
      b.writeUInt32BE(i, 0);
      remote.write(b);
    }
    await sleep(300);
    expect(got).toEqual([]);
    sock.resume();
    for (let i = 0; i < 100 && got.length < 200; i++) await sleep(20);
    expect(got).toEqual(Array.from({ length: 200 }, (_, i) => i));
    sock.destroy();
  });

  it('stops reading when destroyed: the peer sees the socket close', async () => {
    const { path, peer } = listen('c');
    const sock = await connect(path);
    const remote = await peer;
    const closed = new Promise<void>((r) => sock.on('close', () => r()));
    const remoteEnded = new Promise<void>((r) => remote.on('end', () => r()));
    sock.destroy();
    await closed;
    await remoteEnded;
  });

  it('queues what a peer that is not reading cannot take yet, then writes it all, then half-closes', async () => {
    // A server that reads only when told to on its stdin (node-unix-socket's always reads): our
    // nonblocking writes meet a full socket (EAGAIN) and must neither block nor lose a message.
    // Blocking writes would never return here (the test's timeout ends it).
    const path = join(dir, 'd');
    const server = `import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.bind(${JSON.stringify(path)}); s.listen(1)
print('ready', flush=True)
c, _ = s.accept(); sys.stdin.readline(); n = total = 0
while True:
    m = c.recv(65536)
    if not m: break
    n += 1; total += len(m)
print(n, total, flush=True)`;
    const py = spawn('python3', ['-c', server], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    py.stdout.on('data', (b: Buffer) => (out += b.toString()));
    for (let i = 0; i < 100 && !out.includes('ready'); i++) await sleep(20);
    const exited = new Promise<void>((r) => py.on('exit', () => r()));
    const sock = await connect(path);
    let written = 0;
    for (let i = 0; i < 2000; i++) sock.write(Buffer.alloc(8192, 1), 0, 8192, () => written++);
    // Back on the event loop while the peer reads nothing, with most of it still queued, and no
    // libuv thread waits on the socket: file system calls still go through meanwhile.
    await stat(dir);
    expect(written).toBeLessThan(2000);
    py.stdin!.end('read\n');
    sock.end();
    await exited;
    expect(out.trim().split('\n').pop()).toBe(`2000 ${2000 * 8192}`);
    expect(written).toBe(2000);
    sock.destroy();
  }, 60_000);

  it('reports a connect that fails with its code', async () => {
    const sock = new NativeSeqpacketSocket();
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      sock.on('error', resolve);
      sock.connect(join(dir, 'missing'));
    });
    expect(error.code).toBe('ENOENT');
  });
});
