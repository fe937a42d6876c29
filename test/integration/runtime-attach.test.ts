import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessSpawns, nativeWithPipesEnabled } from '../../src/runtime/oci/process-runner.js';
import { creatorAlive } from '../../src/runtime/recovery/creator.js';
import { sessionOwner } from '../../src/runtime/exec/session-dir.js';
import { processesMentioning } from '../rig/host-cleanup.js';
import { startTmux, type TmuxSession } from '../rig/tmux.js';
import { waitFor } from '../rig/wait.js';
import { BUSYBOX_REF, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';
import { readdirSync } from 'node:fs';
import type { StreamIO } from '../../src/client/backend.js';

function collect(stream: PassThrough): () => string {
  const parts: Buffer[] = [];
  stream.on('data', (b: Buffer) => parts.push(b));
  return () => Buffer.concat(parts).toString();
}

describe('runtime: attach and in-process exec', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('attaches from a new engine to a container made by another, with stdin, until it exits', async () => {
    const pod = podConfig('attach');
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: pod });
    const { containerId } = await fx.engine.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'reader' }, image: { image: BUSYBOX_REF }, command: ['sh', '-c', 'while read l; do echo "got $l"; echo "err $l" >&2; done; echo bye'], stdin: true, stdinOnce: true },
    });
    await fx.engine.startContainer({ containerId });
    const e2 = await fx.reopen();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    const err = collect(stderr);
    const done = e2.streamInProcess('attach', { containerId, stdin: true, stdout: true, stderr: true }, { stdin, stdout, stderr, tty: false });
    stdin.write('one\n');
    await waitFor(async () => out().includes('got one'), { timeoutMs: 10_000, what: 'echo of the first line' });
    stdin.end('two\n');
    expect(await done).toBe(0);
    expect(out()).toContain('got two');
    expect(out()).toContain('bye');
    expect(err()).toContain('err one');
    expect((await e2.containerStatus({ containerId })).status?.state).toBe('CONTAINER_EXITED');
    await e2.removePodSandbox({ podSandboxId });
  });

  it('attaches to a TTY container and passes the terminal size', async () => {
    const e = await fx.reopen();
    const pod = podConfig('tty');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'shell' }, image: { image: BUSYBOX_REF }, command: ['sh'], stdin: true, tty: true },
    });
    await e.startContainer({ containerId });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = collect(stdout);
    async function* sizes() {
      yield { width: 101, height: 37 };
    }
    const done = e.streamInProcess('attach', { containerId, stdin: true, stdout: true, tty: true }, { stdin, stdout, tty: true, resize: sizes() });
    await new Promise((r) => setTimeout(r, 500));
    stdin.write('stty size; exit 7\n');
    await done;
    expect(out()).toContain('37 101');
    const status = await waitFor(async () => {
      const s = (await e.containerStatus({ containerId })).status!;
      return s.state === 'CONTAINER_EXITED' ? s : undefined;
    }, { timeoutMs: 10_000, what: 'shell exit' });
    expect(status.exitCode).toBe(7);
    await e.removePodSandbox({ podSandboxId });
  });

  it('holds a client\'s stdin in its own stream while the container does not read it', async () => {
    const e = await fx.reopen();
    const pod = podConfig('stdin-bound');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'deaf' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], stdin: true },
    });
    await e.startContainer({ containerId });
    // 64 MiB offered as fast as it is taken: only what conmon, the socket and the bound hold may go.
    let pulled = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const stdin = Readable.from((function* () {
      for (let i = 0; i < 1024; i++) {
        pulled += chunk.length;
        yield chunk;
      }
    })());
    const done = e.streamInProcess('attach', { containerId, stdin: true, stdout: true }, { stdin, stdout: new PassThrough(), tty: false });
    const outcome = done.then(() => 'ended', (error: Error) => error.message);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(pulled).toBeLessThan(8 * 1024 * 1024);
    await e.removePodSandbox({ podSandboxId });
    // The container killed with stdin unread (conmon resets the socket) ends the attach, not as an error.
    expect(await outcome).toBe('ended');
    stdin.destroy();
  });

  it('runs an in-process exec with stdin and returns its exit code', async () => {
    const e = await fx.reopen();
    const pod = podConfig('execio');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'idle' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = collect(stdout);
    const done = e.streamInProcess('exec', { containerId, cmd: ['sh', '-c', 'cat; exit 4'], stdin: true, stdout: true }, { stdin, stdout, tty: false });
    stdin.end('piped through\n');
    expect(await done).toBe(4);
    expect(out()).toBe('piped through\n');
    await e.removePodSandbox({ podSandboxId });
  });
});

describe('runtime: exec with a TTY', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('runs an in-process exec on a terminal with the requested size and returns its exit code', async () => {
    const e = fx.engine;
    const pod = podConfig('ttyexec');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'idle' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = collect(stdout);
    async function* sizes() {
      yield { width: 90, height: 33 };
    }
    // The exec's monitor (ttyexec) starts through the addon (posix_spawn from a thread), not a fork of this process.
    expect(nativeWithPipesEnabled()).toBe(true);
    const forksBefore = childProcessSpawns();
    const done = e.streamInProcess('exec', { containerId, cmd: ['sh'], stdin: true, stdout: true, tty: true }, { stdin, stdout, tty: true, resize: sizes() });
    await new Promise((r) => setTimeout(r, 500));
    stdin.write('[ -t 0 ] && echo is-a-tty; stty size; exit 5\n');
    expect(await done).toBe(5);
    expect(out()).toContain('is-a-tty');
    expect(out()).toContain('33 90');
    expect(childProcessSpawns()).toBe(forksBefore);
    expect(await readdir(join(fx.options.state, 'exec'))).toEqual([]);
    // The link to the exec session (<state>/sk/<id12>-<session>) went with the session.
    expect((await readdir(join(fx.options.state, 'sk'))).filter((n) => n.startsWith(`${containerId.slice(0, 12)}-`))).toEqual([]);
    await e.removePodSandbox({ podSandboxId });
  });

  it('writes the process spec while the client still opens its streams, and runs the command only once they are open', async () => {
    const e = fx.engine;
    const pod = podConfig('ttyexec-early');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'idle' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const stdout = new PassThrough();
    const out = collect(stdout);
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    // As the streaming server starts a session with its URL: the streams come later.
    const io: StreamIO = { tty: true, opened };
    const done = e.streamInProcess('exec', { containerId, cmd: ['sh', '-c', 'echo ran'], stdout: true, tty: true }, io);
    const sessions = join(fx.options.state, 'exec');
    const specs = async () => (await Promise.all((await readdir(sessions)).map((d) => readdir(join(sessions, d)).catch(() => [])))).flat();
    await waitFor(async () => (await specs()).includes('process.json'), { timeoutMs: 10_000, what: 'the process spec written before the streams open' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await specs()).not.toContain('pid'); // nothing ran yet
    io.stdout = stdout;
    open();
    expect(await done).toBe(0);
    expect(out()).toBe('ran\r\n');
    await e.removePodSandbox({ podSandboxId });
  });

  it('reports the exit code with all the output forwarded, before the session is cleaned up, and settles once it is', async () => {
    const e = fx.engine;
    const pod = podConfig('ttyexec-exited');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'idle' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const stdout = new PassThrough();
    const out = collect(stdout);
    const sessions = join(fx.options.state, 'exec');
    let atExit: { code: number; output: string; sessions: string[] } | undefined;
    const io = {
      stdout,
      tty: true,
      exited: (code: number) => { atExit = { code, output: out(), sessions: readdirSync(sessions) }; },
    };
    const done = e.streamInProcess('exec', { containerId, cmd: ['sh', '-c', 'echo last words; exit 6'], stdout: true, tty: true }, io);
    expect(await done).toBe(6);
    expect(atExit).toMatchObject({ code: 6, output: 'last words\r\n' });
    expect(atExit!.sessions).toHaveLength(1); // reported before the cleanup
    expect(await readdir(sessions)).toEqual([]); // settled after it
    await e.removePodSandbox({ podSandboxId });
  });

  it('leaves no session dir or link behind when the exec monitor (ttyexec, or conmon) cannot start', async () => {
    const e = fx.engine;
    const pod = podConfig('ttyexec-nostart');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'idle' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const remove = e.ctx.runner.addHook((cmd, args) => {
      if (args.includes('--exec-attach') || cmd.endsWith('/ttyexec')) throw new Error('injected monitor start failure');
    });
    try {
      const stdout = new PassThrough();
      await expect(e.streamInProcess('exec', { containerId, cmd: ['sh'], stdout: true, tty: true }, { stdout, tty: true })).rejects.toThrow('injected monitor start failure');
    } finally {
      remove();
    }
    expect(await readdir(join(fx.options.state, 'exec'))).toEqual([]);
    expect((await readdir(join(fx.options.state, 'sk'))).filter((n) => n.startsWith(`${containerId.slice(0, 12)}-`))).toEqual([]);
    await e.removePodSandbox({ podSandboxId });
  });

  it('keeps a conmon TTY exec\'s session dir while its conmon runs the process after the CLI that owned it was killed, and removes it at the first open after', async () => {
    const e = fx.engine;
    const pod = podConfig('ttyexec-orphan');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'idle' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const sessions = join(fx.options.state, 'exec');
    const links = async () => (await readdir(join(fx.options.state, 'sk'))).filter((n) => n.startsWith(`${containerId.slice(0, 12)}-`));
    let cli: TmuxSession | undefined;
    try {
      // A CLI-embedded engine on the same root runs the session on conmon (the fallback path).
      const env = { ISULATS_TTY_EXEC: 'conmon', ISULATS_CNI_CONF_DIR: fx.options.cniConfDir!, ISULATS_DAEMON_CONFIG: '', CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_SOCKET: join(fx.dir, 'no-daemon.sock') };
      const args = ['--root', fx.options.root, '--state', fx.options.state, 'exec', '-it', containerId, 'sh', '-c', "'echo started; sleep 3601'"];
      cli = await startTmux(`${process.execPath} ${join(process.cwd(), 'bin', 'isulats')} ${args.join(' ')}`, { width: 100, height: 20 }, env);
      await cli.waitForScreen(/started/, 60_000);
      const [name] = await readdir(sessions);
      const session = join(sessions, name!);
      const owner = sessionOwner(name!)!;
      process.kill(owner.pid, 'SIGKILL');
      await waitFor(async () => !(await creatorAlive(owner)), { timeoutMs: 10_000, intervalMs: 50, what: 'the CLI dead' });
      // conmon went on running the process: it still names the dir (its bundle and exit dir).
      expect(await processesMentioning(session)).not.toEqual([]);

      await fx.reopen();
      expect(existsSync(session)).toBe(true);
      expect(await links()).toHaveLength(1);

      // The process ends with the container; conmon records its exit in the dir and goes.
      await e.stopContainer({ containerId, timeout: 0 });
      await waitFor(async () => (await processesMentioning(session)).length === 0, { timeoutMs: 10_000, intervalMs: 50, what: 'the exec conmon gone' });
      await fx.reopen();
      expect(await readdir(sessions)).toEqual([]);
      expect(await links()).toEqual([]);
    } finally {
      await cli?.close();
      await e.removePodSandbox({ podSandboxId });
    }
  }, 120_000);
});
