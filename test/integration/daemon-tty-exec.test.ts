// A TTY exec through `isulats daemon` without conmon: build/ttyexec runs `runc exec -d --tty`
// and waits for the process as its subreaper; the daemon holds the terminal's master side. Driven
// by the Go client (client-go's SPDY executor, as crictl and kubelet use it): what it spawns, the
// exit code, a failed start, the end of the client's stdin (compared with containerd 1.6 on the
// same command), and what is left once a client goes away mid-session (its terminal is hung up).
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execName, traceExecs } from '../rig/exec-trace.js';
import { goToolPath, runGoCriClient, type GoRunOptions } from '../rig/go-tools.js';
import { processesMentioning } from '../rig/host-cleanup.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { startContainerd, type Containerd } from '../rig/containerd.js';
import { rigEnv } from '../rig/rig-env.js';
import { waitFor } from '../rig/wait.js';

let daemon: IsulatsDaemon;
let containerd: Containerd | undefined;
let busybox: string;
const targets: Record<'isulats' | 'containerd', { endpoint: string; podId: string; ctr: string }> = {
  isulats: { endpoint: '', podId: '', ctr: '' },
  containerd: { endpoint: '', podId: '', ctr: '' },
};

const go = (endpoint: string, args: string[], opts?: GoRunOptions) => runGoCriClient(goToolPath('go-cri-client'), ['-endpoint', endpoint, ...args], opts);

async function runSleeper(t: (typeof targets)['isulats']): Promise<void> {
  const r = await go(t.endpoint, ['run-pod-container', '-name', `tty-exec-${randomUUID()}`, '-label', 'tty-exec', '-image', busybox, '--', 'sleep', '3600']);
  expect(r.stderr).toBe('');
  const { podId, containerId } = JSON.parse(r.stdout) as { podId: string; containerId: string };
  Object.assign(t, { podId, ctr: containerId });
}

/** The daemon's open fds (a session left behind would keep its terminal or sockets). */
async function openFds(pid: number): Promise<number> {
  return (await readdir(`/proc/${pid}/fd`)).length;
}

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  containerd = await startContainerd({ sandboxImage: env.ISULATS_TEST_PAUSE, plainHttpRegistries: [env.ISULATS_TEST_REGISTRY] });
  targets.isulats.endpoint = daemon.endpoint;
  targets.containerd.endpoint = containerd.endpoint;
  for (const t of Object.values(targets)) {
    expect((await go(t.endpoint, ['pull', '-image', busybox])).code).toBe(0);
    await runSleeper(t);
  }
}, 180_000);

afterAll(async () => {
  await daemon?.cleanup();
  await containerd?.stop();
});

describe('TTY exec through isulats daemon', () => {
  it('spawns ttyexec, runc exec and runc init only (no conmon)', async () => {
    const trace = await traceExecs(daemon.pid);
    let execs;
    try {
      const r = await go(daemon.endpoint, ['exec', '-id', targets.isulats.ctr, '-tty', '--', 'echo', 'hi']);
      expect(r).toEqual({ code: 0, stdout: 'hi\r\n', stderr: '' });
      await sleep(300);
    } finally {
      execs = await trace.stop();
    }
    expect(execs.map(execName).filter((n) => n !== 'echo').sort()).toEqual(['runc exec', 'runc init', 'ttyexec']);
  });

  it('reports the exit code, and 128 + the signal that ended the process', async () => {
    const id = targets.isulats.ctr;
    expect((await go(daemon.endpoint, ['exec', '-id', id, '-tty', '--', 'sh', '-c', 'echo out; exit 7'])))
      .toEqual({ code: 7, stdout: 'out\r\n', stderr: '' });
    expect((await go(daemon.endpoint, ['exec', '-id', id, '-tty', '--', 'sh', '-c', 'kill -KILL $$'])).code).toBe(137);
  });

  it('fails a command the container lacks with one line, and leaves no session behind', async () => {
    const before = await openFds(daemon.pid);
    const r = await go(daemon.endpoint, ['exec', '-id', targets.isulats.ctr, '-tty', '--', '/no/such/binary']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/no\/such\/binary/);
    await waitFor(async () => (await processesMentioning(join(daemon.state, 'exec'))).length === 0, { timeoutMs: 10_000, intervalMs: 50, what: 'no ttyexec left' });
    await waitFor(async () => (await openFds(daemon.pid)) <= before, { timeoutMs: 10_000, intervalMs: 50, what: 'the daemon back to its fds' });
    expect(await readdir(join(daemon.state, 'exec'))).toEqual([]);
  });

  it("keeps the terminal open when the client's stdin ends, as containerd does", async () => {
    // containerd 1.6 passes no EOF to a terminal and does not hang it up when stdin ends (it closes
    // only the client's output streams): the shell's second read is still waiting when a timer of
    // its own kills the shell (143); an EOF would end the read first, and the shell would stop the
    // timer and exit 3.
    const script = 'read l; echo "got:$l"; (sleep 5; kill $$) & read m; kill $!; exit 3';
    const results: Record<string, { code: number }> = {};
    for (const [name, t] of Object.entries(targets)) {
      const r = await go(t.endpoint, ['exec', '-id', t.ctr, '-tty', '-stdin', '--', 'sh', '-c', script], { input: 'hello\n', timeoutMs: 60_000 });
      results[name] = { code: r.code };
    }
    expect(results, JSON.stringify(results)).toEqual({ containerd: { code: 143 }, isulats: { code: 143 } });
  }, 90_000);

  it('leaves no process, fd or file behind when the client goes away mid-session', async () => {
    const token = `gone-${randomUUID().slice(0, 8)}`;
    const before = await openFds(daemon.pid);
    // The client is killed (by PID) after 3 s, its stdin still open: it never says goodbye.
    const r = await go(daemon.endpoint, ['exec', '-id', targets.isulats.ctr, '-tty', '-stdin', '--', 'sh', '-c', `sleep 300; echo ${token}`],
      { keepStdinOpen: true, timeoutMs: 3_000 });
    expect(r.code).not.toBe(0);
    await waitFor(async () => (await processesMentioning(token)).length === 0, { timeoutMs: 15_000, intervalMs: 100, what: 'the exec process ended' });
    await waitFor(async () => (await processesMentioning(join(daemon.state, 'exec'))).length === 0, { timeoutMs: 10_000, intervalMs: 50, what: 'no ttyexec left' });
    await waitFor(async () => (await openFds(daemon.pid)) <= before, { timeoutMs: 10_000, intervalMs: 50, what: 'the daemon back to its fds' });
    expect(await readdir(join(daemon.state, 'exec'))).toEqual([]);
    expect((await readdir(join(daemon.state, 'sk'))).filter((n) => n.startsWith(targets.isulats.ctr.slice(0, 12) + '-'))).toEqual([]);
  }, 60_000);
});
