// The daemon's streaming server over real sockets, driven by our own clients
// (runRemoteCommand, startPortForward) and by `ws` directly, with a scripted
// runtime behind it (pure logic: the engine-backed path is in
// test/integration/daemon-streaming.test.ts).
import net from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { StreamIO } from '../../src/client/backend.js';
import { RemoteCommandError, runRemoteCommand, startPortForward, upgradeToSpdy } from '../../src/client/streaming/index.js';
import { StreamingServer } from '../../src/daemon/streaming/server.js';
import { TokenCache } from '../../src/daemon/streaming/token-cache.js';
import type { StreamingRuntime } from '../../src/daemon/streaming/types.js';
import { decodeChannelMessage, encodeChannelMessage } from '../../src/protocols/k8s-channel/index.js';

/** Ends the cleanup of each `exit-then-cleanup` session. */
const cleanups: Array<() => void> = [];

/** Sessions of the `early` command, as the runtime got them. */
const earlySessions: { io: StreamIO; streamsAtStart: boolean; opened?: 'yes' | 'never' }[] = [];

/** A scripted process: cmd[0] names what it does. */
async function fakeExec(cmd: string[], io: StreamIO): Promise<number> {
  const [what, a, b] = cmd;
  if (what === 'early') {
    const session: (typeof earlySessions)[number] = { io, streamsAtStart: !!io.stdout };
    earlySessions.push(session);
    await io.opened?.then(() => (session.opened = 'yes'), () => (session.opened = 'never'));
    io.stdout?.write('ran');
    return 0;
  }
  // A runtime touches no stream before they are all open (StreamIO.opened).
  await io.opened;
  if (what === 'exit-then-cleanup') {
    // The exit is known and the output written; the cleanup after it takes until the test ends it.
    io.stdout?.write('last words');
    io.exited?.(Number(a));
    await new Promise<void>((resolve) => cleanups.push(resolve));
    return Number(a);
  }
  if (what === 'fail') throw new Error('boom: no such container');
  if (what === 'print') {
    io.stdout?.write(a ?? '');
    io.stderr?.write('err\n');
    return Number(b ?? 0);
  }
  if (what === 'tty') {
    void (async () => { for await (const s of io.resize ?? []) io.stdout?.write(`[${s.width}x${s.height}]`); })();
    await new Promise<void>((resolve) => {
      io.stdin?.on('data', (d: Buffer) => io.stdout?.write(d));
      io.stdin?.on('end', () => resolve());
    });
    return 0;
  }
  // echo: stdin to stdout, exit code cmd[1].
  await new Promise<void>((resolve) => {
    if (!io.stdin) return resolve();
    io.stdin.on('data', (d: Buffer) => io.stdout?.write(d));
    io.stdin.on('end', () => resolve());
  });
  return Number(a ?? 0);
}

let echoServer: net.Server;
let echoPort = 0;
const runtime: StreamingRuntime = {
  exec: (req, io) => fakeExec(req.cmd ?? [], io),
  attach: async (_req, io) => { io.stdout?.write('attached\n'); return 9; },
  portForward: (_pod, port) => new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port: port === 80 ? echoPort : 1, allowHalfOpen: true });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  }),
};

function sink(): { stream: PassThrough; text: () => string; bytes: () => Buffer } {
  const stream = new PassThrough();
  const parts: Buffer[] = [];
  stream.on('data', (b: Buffer) => parts.push(b));
  return { stream, text: () => Buffer.concat(parts).toString(), bytes: () => Buffer.concat(parts) };
}

describe('TokenCache', () => {
  it('hands a value out once', () => {
    const c = new TokenCache<string>();
    const t = c.insert('x');
    expect(t).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(c.consume(t)).toBe('x');
    expect(c.consume(t)).toBeUndefined();
  });
  it('forgets tokens after the TTL', () => {
    let now = 1000;
    const c = new TokenCache<string>(60_000, 10, () => now);
    const t = c.insert('x');
    now += 60_001;
    expect(c.consume(t)).toBeUndefined();
    expect(c.size).toBe(0);
  });
  it('refuses new tokens beyond the in-flight bound', () => {
    const c = new TokenCache<number>(60_000, 2);
    c.insert(1);
    c.insert(2);
    expect(() => c.insert(3)).toThrow(/too many streaming requests/);
  });
});

describe('StreamingServer', () => {
  let server: StreamingServer;

  beforeAll(async () => {
    // Answers each chunk in upper case at once, and says "bye" after the client's EOF.
    echoServer = net.createServer({ allowHalfOpen: true }, (s) => {
      s.on('data', (d: Buffer) => s.write(d.toString().toUpperCase()));
      s.on('end', () => s.end('bye'));
    });
    await new Promise<void>((r) => echoServer.listen(0, '127.0.0.1', () => r()));
    echoPort = (echoServer.address() as net.AddressInfo).port;
    server = await StreamingServer.start({ runtime, port: 0, tokenTtlMs: 400 });
  });

  afterAll(async () => {
    await server?.close();
    echoServer?.close();
  });

  const exec = (cmd: string[], o: { stdin?: boolean; stdout?: boolean; stderr?: boolean; tty?: boolean } = {}) =>
    server.getExec({ containerId: 'c1', cmd, stdin: !!o.stdin, stdout: o.stdout ?? true, stderr: o.stderr ?? false, tty: !!o.tty }).url;

  it('hands out URLs of the form http://127.0.0.1:<port>/exec/<token>', () => {
    expect(exec(['print'])).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/exec\/[A-Za-z0-9_-]{22}$/);
    expect(server.getAttach({ containerId: 'c1', stdout: true }).url).toMatch(/\/attach\//);
    expect(server.getPortForward({ podSandboxId: 'p1', port: [80] }).url).toMatch(/\/portforward\//);
  });

  const waitFor = async (check: () => boolean): Promise<void> => {
    for (let i = 0; i < 150 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  };

  it('starts a TTY exec when its URL is handed out, and runs it once the SPDY client has opened its streams', async () => {
    earlySessions.length = 0;
    const url = exec(['early'], { tty: true });
    await waitFor(() => earlySessions.length > 0);
    expect(earlySessions.map((e) => [e.streamsAtStart, e.opened])).toEqual([[false, undefined]]);
    // Error stream only (stdout and resize missing): still waiting.
    const { connection } = await upgradeToSpdy(url, ['v4.channel.k8s.io'], { method: 'POST' });
    connection.on('error', () => {});
    await connection.createStream({ streamtype: 'error' }).waitReply(5_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(earlySessions[0]!.opened).toBeUndefined();
    const out = sink();
    connection.createStream({ streamtype: 'stdout' }).pipe(out.stream);
    await connection.createStream({ streamtype: 'resize' }).waitReply(5_000);
    await waitFor(() => !!out.text());
    expect(out.text()).toBe('ran');
    expect(earlySessions.map((e) => e.opened)).toEqual(['yes']);
    connection.destroy();
  });

  it('starts a TTY exec only after the turn that answers Exec and the next, when the answer has gone out whole', async () => {
    earlySessions.length = 0;
    const turn = () => new Promise((r) => setImmediate(r));
    const url = exec(['early'], { tty: true });
    await Promise.resolve();
    expect(earlySessions).toHaveLength(0); // the answer's message is written in this turn
    await turn();
    expect(earlySessions).toHaveLength(0); // and its trailers from that write's callback, in the next
    await waitFor(() => earlySessions.length > 0);
    expect(earlySessions.map((e) => [e.streamsAtStart, e.opened])).toEqual([[false, undefined]]);
    const out = sink();
    expect((await runRemoteCommand(url, { transport: 'spdy', stdout: out.stream, tty: true })).exitCode).toBe(0);
    expect(out.text()).toBe('ran');
  });

  it('runs nothing of a TTY exec given up before its start, as when the server closes right after handing its URL out', async () => {
    earlySessions.length = 0;
    const other = await StreamingServer.start({ runtime, port: 0 });
    other.getExec({ containerId: 'c1', cmd: ['early'], stdout: true, tty: true });
    await other.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(earlySessions).toEqual([]);
  });

  for (const transport of ['spdy', 'websocket'] as const) {
    it(`sends a TTY exec's output and exit status over ${transport} once the runtime reports the exit, while its cleanup still runs`, async () => {
      cleanups.length = 0;
      const out = sink();
      const done = runRemoteCommand(exec(['exit-then-cleanup', '6'], { tty: true }), { transport, stdout: out.stream, tty: true });
      const result = await Promise.race([done, new Promise((r) => setTimeout(() => r('still waiting for the cleanup'), 3_000))]);
      for (const end of cleanups) end();
      expect(result).toEqual({ exitCode: 6, transport });
      expect(out.text()).toBe('last words');
    });
  }

  it('hands the WebSocket channels to a TTY exec started with its URL', async () => {
    earlySessions.length = 0;
    const out = sink();
    const url = exec(['early'], { tty: true });
    await waitFor(() => earlySessions.length > 0); // started before the client comes, as with a client in another process
    expect((await runRemoteCommand(url, { transport: 'websocket', stdout: out.stream, tty: true })).exitCode).toBe(0);
    expect(out.text()).toBe('ran');
    expect(earlySessions.map((e) => [e.streamsAtStart, e.opened])).toEqual([[false, 'yes']]);
  });

  it('tells a TTY exec its streams will never open when the SPDY client leaves first', async () => {
    earlySessions.length = 0;
    const { connection } = await upgradeToSpdy(exec(['early'], { tty: true }), ['v4.channel.k8s.io'], { method: 'POST' });
    connection.on('error', () => {});
    await connection.createStream({ streamtype: 'error' }).waitReply(5_000);
    connection.destroy();
    await waitFor(() => !!earlySessions[0]?.opened);
    expect(earlySessions.map((e) => e.opened)).toEqual(['never']);
  });

  it('tells a TTY exec its streams will never open when its URL expires unused, or is used for attach', async () => {
    earlySessions.length = 0;
    exec(['early'], { tty: true });
    const misused = exec(['early'], { tty: true }).replace('/exec/', '/attach/');
    await waitFor(() => earlySessions.length === 2); // both started (as with a client in another process)
    await expect(runRemoteCommand(misused, { transport: 'spdy', stdout: sink().stream, tty: true })).rejects.toThrow();
    await waitFor(() => earlySessions.every((e) => !!e.opened) && earlySessions.length === 2);
    expect(earlySessions.map((e) => e.opened)).toEqual(['never', 'never']);
  });

  for (const transport of ['websocket', 'spdy'] as const) {
    it(`runs exec with stdin, stdout, stderr and the exit code over ${transport}`, async () => {
      const out = sink();
      const err = sink();
      const url = exec(['echo', '3'], { stdin: true, stderr: true });
      const res = await runRemoteCommand(url, { transport, stdin: Readable.from([Buffer.from('hello '), Buffer.from('world')]), stdout: out.stream, stderr: err.stream, tty: false });
      expect(res).toEqual({ exitCode: 3, transport });
      expect(out.text()).toBe('hello world');
    });

    it(`passes resizes on a TTY over ${transport}`, async () => {
      const out = sink();
      async function* sizes() {
        yield { width: 80, height: 24 };
        await new Promise((r) => setTimeout(r, 50));
        yield { width: 100, height: 40 };
      }
      const stdin = new PassThrough();
      const url = exec(['tty'], { stdin: true, tty: true });
      const done = runRemoteCommand(url, { transport, stdin, stdout: out.stream, tty: true, resize: sizes() });
      await new Promise((r) => setTimeout(r, 300));
      stdin.end('typed');
      expect((await done).exitCode).toBe(0);
      expect(out.text()).toContain('[80x24]');
      expect(out.text()).toContain('[100x40]');
      expect(out.text()).toContain('typed');
    });

    it(`reports a runtime failure as an error over ${transport}`, async () => {
      await expect(runRemoteCommand(exec(['fail']), { transport, stdout: sink().stream, tty: false })).rejects.toThrow(RemoteCommandError);
    });

    it(`reports attach as Success whatever the process's code over ${transport}`, async () => {
      const out = sink();
      const url = server.getAttach({ containerId: 'c1', stdout: true }).url;
      expect((await runRemoteCommand(url, { transport, stdout: out.stream, tty: false })).exitCode).toBe(0);
      expect(out.text()).toBe('attached\n');
    });
  }

  it('accepts a URL once', async () => {
    const url = exec(['print', 'x', '0']);
    await runRemoteCommand(url, { transport: 'websocket', stdout: sink().stream, tty: false });
    await expect(runRemoteCommand(url, { transport: 'websocket', stdout: sink().stream, tty: false })).rejects.toThrow(/404|token/);
    await expect(runRemoteCommand(url, { transport: 'spdy', stdout: sink().stream, tty: false })).rejects.toThrow(/404|token/);
  });

  it('refuses a URL that was not used within the TTL', async () => {
    const url = exec(['print', 'x', '0']);
    await new Promise((r) => setTimeout(r, 500));
    await expect(runRemoteCommand(url, { transport: 'websocket', stdout: sink().stream, tty: false })).rejects.toThrow(/404/);
  });

  it('refuses a token presented on the wrong path', async () => {
    const url = exec(['print', 'x', '0']).replace('/exec/', '/attach/');
    await expect(runRemoteCommand(url, { transport: 'spdy', stdout: sink().stream, tty: false })).rejects.toThrow(/404/);
  });

  const wsProtocols: Array<[string, boolean, 'json' | 'text']> = [
    ['v5.channel.k8s.io', false, 'json'],
    ['v4.channel.k8s.io', false, 'json'],
    ['v4.base64.channel.k8s.io', true, 'json'],
    ['channel.k8s.io', false, 'text'],
    ['base64.channel.k8s.io', true, 'text'],
  ];
  for (const [protocol, base64, format] of wsProtocols) {
    it(`speaks the ${protocol} WebSocket subprotocol`, async () => {
      const url = exec(['print', 'out', '2'], { stderr: true }).replace('http:', 'ws:');
      const ws = new WebSocket(url, [protocol]);
      const got: Record<number, string> = {};
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        const m = decodeChannelMessage(base64 && !isBinary ? data.toString('latin1') : data, base64 && !isBinary);
        got[m.channel] = (got[m.channel] ?? '') + m.data.toString();
      });
      await new Promise((r) => ws.once('close', r));
      expect(ws.protocol).toBe(protocol);
      expect(got[1]).toBe('out');
      expect(got[2]).toBe('err\n');
      if (format === 'json') {
        expect(JSON.parse(got[3]!)).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '2' }] } });
      } else {
        expect(got[3]).toMatch(/exit status 2/);
      }
    });
  }

  it('ends stdin on the v5 close signal', async () => {
    const url = exec(['echo', '0'], { stdin: true }).replace('http:', 'ws:');
    const ws = new WebSocket(url, ['v5.channel.k8s.io']);
    let out = '';
    let status = '';
    ws.on('message', (d: Buffer) => {
      const m = decodeChannelMessage(d, false);
      if (m.channel === 1) out += m.data.toString();
      if (m.channel === 3) status += m.data.toString();
    });
    await new Promise((r) => ws.once('open', r));
    ws.send(encodeChannelMessage(0, Buffer.from('abc'), false));
    ws.send(Buffer.from([255, 0]));
    await new Promise((r) => ws.once('close', r));
    expect(out).toBe('abc');
    expect(JSON.parse(status).status).toBe('Success');
  });

  for (const [protocol, format] of [['v4.channel.k8s.io', 'json'], ['v3.channel.k8s.io', 'text'], ['v2.channel.k8s.io', 'text'], ['channel.k8s.io', 'text']] as const) {
    it(`speaks the ${protocol} SPDY protocol`, async () => {
      const { connection, protocol: chosen } = await upgradeToSpdy(exec(['print', 'out', '6'], { stderr: true }), [protocol]);
      expect(chosen).toBe(protocol);
      const read = (type: string) => {
        const s = connection.createStream({ streamtype: type });
        s.end();
        const parts: Buffer[] = [];
        s.on('data', (b: Buffer) => parts.push(b));
        return new Promise<string>((resolve) => s.on('end', () => resolve(Buffer.concat(parts).toString())));
      };
      const [error, stdout, stderr] = await Promise.all([read('error'), read('stdout'), read('stderr')]);
      expect([stdout, stderr]).toEqual(['out', 'err\n']);
      if (format === 'json') expect(JSON.parse(error)).toMatchObject({ reason: 'NonZeroExitCode', details: { causes: [{ message: '6' }] } });
      else expect(error).toMatch(/exit status 6/);
      connection.destroy();
    });
  }

  it('refuses an unknown SPDY protocol with 403 and the accepted versions', async () => {
    await expect(upgradeToSpdy(exec(['print']), ['v9.channel.k8s.io'])).rejects.toThrow(/403/);
  });

  it('answers a plain GET on a streaming URL with 400', async () => {
    const res = await fetch(exec(['print']));
    expect(res.status).toBe(400);
  });

  it('forwards a port with half-close over spdy', async () => {
    const url = server.getPortForward({ podSandboxId: 'p1', port: [80] }).url;
    const session = await startPortForward(url, [{ localPort: 0, remotePort: 80 }], { transport: 'spdy' });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const s = net.connect({ port: session.ports[0]!.localPort, host: '127.0.0.1', allowHalfOpen: true });
        const parts: Buffer[] = [];
        s.on('data', (d: Buffer) => parts.push(d));
        s.on('end', () => resolve(Buffer.concat(parts).toString()));
        s.on('error', reject);
        s.end('ping over the tunnel');
      });
      expect(answer).toBe('PING OVER THE TUNNEL' + 'bye');
    } finally {
      await session.close();
    }
  });

  it('forwards a port over websocket', async () => {
    const url = server.getPortForward({ podSandboxId: 'p1', port: [80] }).url;
    const session = await startPortForward(url, [{ localPort: 0, remotePort: 80 }], { transport: 'websocket' });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const s = net.connect({ port: session.ports[0]!.localPort, host: '127.0.0.1' });
        let got = '';
        s.on('data', (d: Buffer) => {
          got += d.toString();
          if (got.length >= 20) {
            s.destroy();
            resolve(got);
          }
        });
        s.on('error', reject);
        s.write('ping over the tunnel');
      });
      expect(answer).toBe('PING OVER THE TUNNEL');
    } finally {
      await session.close();
    }
  });

  it('reports a port it cannot reach on the error stream', async () => {
    const url = server.getPortForward({ podSandboxId: 'p1', port: [81] }).url;
    const errors: Error[] = [];
    const session = await startPortForward(url, [{ localPort: 0, remotePort: 81 }], { transport: 'spdy', onError: (e) => errors.push(e) });
    try {
      await new Promise<void>((resolve) => {
        const s = net.connect({ port: session.ports[0]!.localPort, host: '127.0.0.1' });
        s.on('close', () => resolve());
        s.on('error', () => {});
      });
      expect(errors.map((e) => e.message).join()).toMatch(/error forwarding port 81 to pod p1/);
    } finally {
      await session.close();
    }
  });

  it('carries 100 concurrent sessions without losing a byte', async () => {
    // Default TTL here: the sessions queue up behind each other on this 2-core machine.
    const big = await StreamingServer.start({ runtime, port: 0 });
    const exec = (cmd: string[], o: { stdin: boolean }) => big.getExec({ containerId: 'c1', cmd, stdin: o.stdin, stdout: true }).url;
    const runs = Array.from({ length: 100 }, async (_, i) => {
      const payload = Buffer.alloc(64 * 1024 + i, `session-${i}-`);
      const out = sink();
      const transport = i % 2 ? 'spdy' : 'websocket';
      const res = await runRemoteCommand(exec(['echo', String(i % 7)], { stdin: true }), {
        transport, stdin: Readable.from([payload.subarray(0, 1000), payload.subarray(1000)]), stdout: out.stream, tty: false,
      });
      expect(res.exitCode).toBe(i % 7);
      expect(out.bytes().equals(payload)).toBe(true);
    });
    try {
      await Promise.all(runs);
      expect(big.pendingTokens).toBe(0);
    } finally {
      await big.close();
    }
  }, 60_000);
});

describe('StreamingServer connection cap', () => {
  it('answers a connection past the cap 503 with the reason, and takes one again once a connection closed', async () => {
    const capped = await StreamingServer.start({ runtime, port: 0, maxConnections: 2 });
    const { port } = new URL(capped.url);
    const connect = async (): Promise<net.Socket> => {
      const s = net.connect(Number(port), '127.0.0.1');
      s.on('error', () => undefined);
      await new Promise((r) => s.once('connect', r));
      return s;
    };
    const answerOf = (s: net.Socket): Promise<string> => new Promise((resolve) => {
      let text = '';
      s.on('data', (d: Buffer) => { text += d.toString(); });
      s.on('close', () => resolve(text));
    });
    const held = [await connect(), await connect()];
    try {
      const refused = await answerOf(await connect());
      expect(refused).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(refused).toMatch(/too many streaming connections \(at most 2 at once\); try again later\n$/);
      held.shift()!.destroy();
      // A plain request on a connection taken again: the server's own 400 (upgrades only), not 503.
      let answer = '';
      for (let i = 0; i < 50 && !answer.startsWith('HTTP/1.1 400'); i++) {
        const s = await connect();
        const got = answerOf(s);
        s.end('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
        answer = await got;
        if (!answer.startsWith('HTTP/1.1 400')) await new Promise((r) => setTimeout(r, 20));
      }
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
    } finally {
      for (const s of held) s.destroy();
      await capped.close();
    }
  });
});

describe('StreamingServer port-forward stream pairs', () => {
  it('drops a pair whose data stream never opens within the creation timeout, saying so on its error stream', async () => {
    const timed = await StreamingServer.start({ runtime, port: 0, streamCreationTimeoutMs: 300 });
    try {
      const { url } = timed.getPortForward({ podSandboxId: 'p1', port: [80] });
      const { connection } = await upgradeToSpdy(url, ['portforward.k8s.io'], { method: 'POST' });
      connection.on('error', () => {});
      const error = connection.createStream({ streamtype: 'error', port: '80', requestid: '7' });
      await error.waitReply(5_000);
      const text = await new Promise<string>((resolve, reject) => {
        let got = '';
        error.on('data', (d: Buffer) => { got += d.toString(); });
        error.on('end', () => resolve(got));
        error.on('error', reject);
      });
      expect(text).toBe('timed out waiting for the data stream of request 7');
      connection.destroy();
    } finally {
      await timed.close();
    }
  });
});
