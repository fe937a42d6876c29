// exec, attach and port-forward through containerd's own streaming server
// (the kubelet streaming library, Go spdystream and gorilla-style WebSocket),
// with URLs from the CRI Exec/Attach/PortForward RPCs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough, Readable, Writable } from 'node:stream';
import { openCriClient, type CriMessage as Msg, type RawCriClient } from '../rig/cri-client.js';
import { rigEnv, type RigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';
import { runRemoteCommand, startPortForward } from '../../src/client/streaming/index.js';

function collector(): { stream: Writable; text: () => string } {
  const parts: Buffer[] = [];
  const stream = new Writable({ write(c: Buffer, _e, cb) { parts.push(c); cb(); } });
  return { stream, text: () => Buffer.concat(parts).toString() };
}

let env: RigEnv;
let cri: RawCriClient;
let logDir: string;
let podId: string | undefined;
let shellId: string;
let attachId: string;

async function startContainer(sandboxConfig: Msg, container: Msg): Promise<string> {
  const { containerId } = await cri.runtime('CreateContainer', { podSandboxId: podId, config: container, sandboxConfig });
  await cri.runtime('StartContainer', { containerId });
  return containerId as string;
}

beforeAll(async () => {
  env = rigEnv();
  cri = openCriClient(env.ISULATS_TEST_CONTAINERD);
  logDir = await makeTempDir('ist-strm-');
  const image = env.ISULATS_TEST_BUSYBOX;
  const config = {
    metadata: { name: 'streaming', uid: `uid-streaming-${process.pid}`, namespace: 'streaming-test', attempt: 0 },
    hostname: 'streaming',
    logDirectory: logDir,
    linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
  };
  ({ podSandboxId: podId } = await cri.runtime('RunPodSandbox', { config }));
  await cri.image('PullImage', { image: { image }, sandboxConfig: config });
  shellId = await startContainer(config, {
    metadata: { name: 'shell', attempt: 0 },
    image: { image },
    command: ['sh', '-c', 'mkdir -p /www && echo hello-pf > /www/index.html && dd if=/dev/zero of=/www/big bs=1024 count=1024 && exec httpd -f -p 8080 -h /www'],
    logPath: 'shell.log',
  });
  attachId = await startContainer(config, {
    metadata: { name: 'attach', attempt: 0 },
    image: { image },
    command: ['sh', '-c', 'while read line; do echo attached-$line; done'],
    stdin: true,
    stdinOnce: true,
    logPath: 'attach.log',
  });
}, 120_000);

afterAll(async () => {
  if (podId) {
    await cri.runtime('StopPodSandbox', { podSandboxId: podId }).catch(() => undefined);
    await cri.runtime('RemovePodSandbox', { podSandboxId: podId }).catch(() => undefined);
  }
  cri?.close();
  if (logDir) await removeTempDir(logDir);
});

async function execUrl(cmd: string[], opts: { stdin?: boolean; tty?: boolean }): Promise<string> {
  const res = await cri.runtime('Exec', {
    containerId: shellId, cmd, tty: !!opts.tty, stdin: !!opts.stdin, stdout: true, stderr: !opts.tty,
  });
  return res.url as string;
}

describe('streaming against containerd', () => {
  it('execs with stdin over SPDY: stdin EOF ends cat and the exit code comes back', async () => {
    const out = collector();
    const url = await execUrl(['cat'], { stdin: true });
    const result = await runRemoteCommand(url, {
      stdin: Readable.from([Buffer.from('hello from spdy\n')]), stdout: out.stream, stderr: collector().stream, tty: false, transport: 'spdy',
    });
    expect(result).toEqual({ exitCode: 0, transport: 'spdy' });
    expect(out.text()).toBe('hello from spdy\n');
  });

  it('streams 1 MiB of stdin over SPDY to a server that does no flow control', async () => {
    const out = collector();
    const url = await execUrl(['wc', '-c'], { stdin: true });
    const chunks = Array.from({ length: 16 }, () => Buffer.alloc(64 * 1024, 0x61));
    const result = await runRemoteCommand(url, { stdin: Readable.from(chunks), stdout: out.stream, stderr: collector().stream, tty: false, transport: 'spdy' });
    expect(result.exitCode).toBe(0);
    expect(out.text().trim()).toBe(String(1024 * 1024));
  });

  it.each(['spdy', 'websocket'] as const)('receives 5 MiB of output over %s', async (transport) => {
    let bytes = 0;
    const sink = new Writable({ write(c: Buffer, _e, cb) { bytes += c.length; cb(); } });
    const url = await execUrl(['dd', 'if=/dev/zero', 'bs=1048576', 'count=5'], {});
    const result = await runRemoteCommand(url, { stdout: sink, stderr: collector().stream, tty: false, transport });
    expect(result.exitCode).toBe(0);
    expect(bytes).toBe(5 * 1024 * 1024);
  });

  it.each(['spdy', 'websocket'] as const)('returns a non-zero exit code and keeps stderr apart over %s', async (transport) => {
    const out = collector();
    const err = collector();
    const url = await execUrl(['sh', '-c', 'echo out; echo err >&2; exit 3'], {});
    const result = await runRemoteCommand(url, { stdout: out.stream, stderr: err.stream, tty: false, transport });
    expect(result).toEqual({ exitCode: 3, transport });
    expect(out.text()).toBe('out\n');
    expect(err.text()).toBe('err\n');
  });

  it('sends stdin over WebSocket (v4: no stdin EOF) to a command that ends by itself', async () => {
    const out = collector();
    const url = await execUrl(['sh', '-c', 'read x; echo got-$x; exit 4'], { stdin: true });
    const result = await runRemoteCommand(url, {
      stdin: Readable.from([Buffer.from('abc\n')]), stdout: out.stream, stderr: collector().stream, tty: false, transport: 'websocket',
    });
    expect(result).toEqual({ exitCode: 4, transport: 'websocket' });
    expect(out.text()).toBe('got-abc\n');
  });

  it.each(['spdy', 'websocket'] as const)('execs with a TTY and applies the terminal size over %s', async (transport) => {
    const out = collector();
    const stdin = new PassThrough();
    const url = await execUrl(['sh', '-c', 'read x; stty size; echo got-$x'], { stdin: true, tty: true });
    async function* sizes(): AsyncGenerator<{ width: number; height: number }> {
      yield { width: 100, height: 30 };
    }
    const running = runRemoteCommand(url, { stdin, stdout: out.stream, tty: true, transport, resize: sizes() });
    // Give the resize a head start, then answer the read.
    setTimeout(() => stdin.write('abc\r'), 500);
    const result = await running;
    expect(result).toEqual({ exitCode: 0, transport });
    expect(out.text()).toContain('30 100');
    expect(out.text()).toContain('got-abc');
  });

  it('auto runs a command without stdin over WebSocket and piped stdin over SPDY', async () => {
    const noInput = await runRemoteCommand(await execUrl(['true'], {}), { stdout: collector().stream, stderr: collector().stream, tty: false });
    expect(noInput).toEqual({ exitCode: 0, transport: 'websocket' });
    const out = collector();
    const piped = await runRemoteCommand(await execUrl(['cat'], { stdin: true }), {
      stdin: Readable.from(['piped']), stdout: out.stream, stderr: collector().stream, tty: false,
    });
    expect(piped).toEqual({ exitCode: 0, transport: 'spdy' });
    expect(out.text()).toBe('piped');
  });

  it('attaches to a running container, writes to its stdin and sees its output', async () => {
    const out = collector();
    const { url } = await cri.runtime('Attach', { containerId: attachId, stdin: true, stdout: true, stderr: true, tty: false });
    const stdin = new PassThrough();
    const running = runRemoteCommand(url as string, { stdin, stdout: out.stream, stderr: collector().stream, tty: false, transport: 'spdy' });
    stdin.write('one\n');
    await waitFor(async () => out.text().includes('attached-one'), { timeoutMs: 10_000, what: 'attach output' });
    // stdinOnce: closing our stdin closes the container's, so its loop ends and the attach with it.
    stdin.end();
    const result = await running;
    expect(result.exitCode).toBe(0);
    expect(out.text()).toBe('attached-one\n');
  });

  it('forwards a local port to a port inside the pod over SPDY', async () => {
    const { url } = await cri.runtime('PortForward', { podSandboxId: podId, port: [8080] });
    const session = await startPortForward(url as string, [{ localPort: 0, remotePort: 8080 }], { transport: 'spdy' });
    try {
      const port = session.ports[0]!.localPort;
      // httpd may still be starting: retry over new connections, all carried by the one session.
      const body = await waitFor(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/index.html`);
        return res.ok ? await res.text() : undefined;
      }, { timeoutMs: 15_000, what: 'httpd through the port forward' });
      expect(body).toBe('hello-pf\n');
      const big = await fetch(`http://127.0.0.1:${port}/big`, { headers: { connection: 'close' } });
      expect((await big.arrayBuffer()).byteLength).toBe(1024 * 1024);
    } finally {
      await session.close();
    }
  });
});
