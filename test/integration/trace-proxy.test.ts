// `isulats trace` between real clients and real runtimes: our Go CRI client (grpc-go, sending
// the socket path as :authority as kubelet before 1.26 does) and our CLI get the same answers
// through the proxy as without it, from the rig's peer (containerd 1.6, or the daemon in the
// daemon run) and from an isulats daemon of its own; and every call prints its line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, runCli } from '../rig/cli.js';
import { goToolPath, runGoCriClient } from '../rig/go-tools.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { signalPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

interface Tracer {
  endpoint: string;
  lines(): string[];
  stop(): Promise<{ code: number | null; stderr: string }>;
}

/** `isulats trace` as a child process, ready once it says it is tracing. */
async function startTrace(dir: string, upstream: string, extra: string[] = []): Promise<Tracer> {
  const sock = join(dir, `t${Math.random().toString(36).slice(2, 6)}.sock`);
  const child: ChildProcess = spawn(process.execPath, ['bin/isulats', 'trace', '--listen', sock, '-r', upstream, ...extra], { cwd: REPO_ROOT, stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await waitFor(async () => err.includes('tracing ') || child.exitCode !== null, { timeoutMs: 20_000, intervalMs: 50, what: 'trace to listen' });
  if (!err.includes('tracing ')) throw new Error(`trace did not start: ${err}`);
  return {
    endpoint: `unix://${sock}`,
    lines: () => out.split('\n').filter(Boolean),
    async stop() {
      signalPid(child.pid!, 'SIGTERM');
      return { code: await exited, stderr: err };
    },
  };
}

const go = async (endpoint: string, args: string[]) => {
  const r = await runGoCriClient(goToolPath('go-cri-client'), ['-endpoint', endpoint, ...args]);
  return r;
};

function traceCases(name: string, peer: () => string) {
  describe(name, () => {
    let dir: string;
    let tracer: Tracer;
    let podId = '';
    const label = `trace-${process.pid}-${name.replace(/\W/g, '')}`;

    beforeAll(async () => {
      dir = await makeTempDir('ist-tr-');
      tracer = await startTrace(dir, peer(), ['-o', 'json']);
    });

    afterAll(async () => {
      if (podId) await go(peer(), ['stop-remove', '-pod', podId]);
      if (tracer) await tracer.stop();
      if (dir) await removeTempDir(dir);
    });

    it('gives the Go client the same answers as the runtime, and prints a line per call', async () => {
      const image = rigEnv().ISULATS_TEST_BUSYBOX;
      const missing = ['container-status', '-id', 'e5f1c2d3b4a5968778695a4b3c2d1e0f00112233445566778899aabbccddeeff'];
      for (const args of [['version'], ['status'], ['pull', '-image', image], ['image-status', '-image', image], missing]) {
        const direct = await go(peer(), args);
        const traced = await go(tracer.endpoint, args);
        expect(traced, args.join(' ')).toEqual(direct);
        expect(traced.code).toBe(args === missing ? 1 : 0);
      }
      // Old Go clients (crictl, kubelet < 1.26) send the socket path itself as :authority.
      const rawAuthority = await go(tracer.endpoint, ['-authority', tracer.endpoint.slice('unix://'.length), 'version']);
      expect(rawAuthority).toEqual(await go(peer(), ['version']));
      const made = await go(tracer.endpoint, ['run-pod-container', '-name', `tr-${process.pid}-7d9f8b6c5d-x2k4q`, '-label', label, '-image', image, '--', 'sleep', '300']);
      expect(made.stderr).toBe('');
      ({ podId } = JSON.parse(made.stdout) as { podId: string });
      const { containerId } = JSON.parse(made.stdout) as { containerId: string };
      const listDirect = await go(peer(), ['list', '-label', label]);
      expect(await go(tracer.endpoint, ['list', '-label', label])).toEqual(listDirect);
      expect(JSON.parse(listDirect.stdout).pods).toHaveLength(1);
      const execDirect = await go(peer(), ['exec-sync', '-id', containerId, '--', 'sh', '-c', 'echo out; echo err >&2; exit 3']);
      expect(await go(tracer.endpoint, ['exec-sync', '-id', containerId, '--', 'sh', '-c', 'echo out; echo err >&2; exit 3'])).toEqual(execDirect);
      expect(execDirect).toEqual({ code: 3, stdout: 'out\n', stderr: 'err\n' });
      // Exec's streaming URL goes through untouched: the client streams straight from the runtime.
      expect(await go(tracer.endpoint, ['exec', '-id', containerId, '--', 'echo', 'streamed'])).toEqual({ code: 0, stdout: 'streamed\n', stderr: '' });
      expect((await go(tracer.endpoint, ['stop-remove', '-pod', podId])).code).toBe(0);
      podId = '';

      await waitFor(async () => tracer.lines().some((l) => l.includes('"RemovePodSandbox"')), { timeoutMs: 5000, intervalMs: 50, what: 'the last trace line' });
      const records = tracer.lines().map((l) => JSON.parse(l) as { method: string; status: string; durationMs: number; subjects: Record<string, unknown> });
      const methods = records.map((r) => r.method);
      for (const m of ['Version', 'Status', 'PullImage', 'ImageStatus', 'RunPodSandbox', 'CreateContainer', 'StartContainer', 'ListPodSandbox', 'ListContainers', 'ExecSync', 'Exec', 'StopContainer', 'RemoveContainer', 'StopPodSandbox', 'RemovePodSandbox']) {
        expect(methods, m).toContain(m);
      }
      const run = records.find((r) => r.method === 'RunPodSandbox')!;
      expect(run.status).toBe('OK');
      expect(run.subjects.name).toMatch(new RegExp(`^.+/tr-${process.pid}-7d9f8b6c5d-x2k4q$`));
      expect(run.subjects.pod).toMatch(/^[0-9a-f]{64}$/);
      expect(records.find((r) => r.method === 'PullImage')!.subjects.image).toBe(image);
      expect(records.find((r) => r.method === 'ExecSync')!.subjects.container).toBe(containerId);
      const failed = records.find((r) => r.method === 'ContainerStatus' && r.status !== 'OK')!;
      expect(failed.status).toBe('NOT_FOUND');
      expect(failed.subjects.container).toBe(missing[2]);
      expect(records.every((r) => typeof r.durationMs === 'number' && r.durationMs >= 0)).toBe(true);
    });

    it('gives our CLI the same answers, errors included', async () => {
      for (const args of [['version'], ['images', '-q'], ['pods', '-q'], ['inspectp', 'no-such-pod-3f1e']]) {
        const direct = await runCli(['-r', peer(), ...args]);
        const traced = await runCli(['-r', tracer.endpoint, ...args]);
        expect({ ...traced, stderr: traced.stderr.replaceAll(tracer.endpoint, 'EP') }, args.join(' '))
          .toEqual({ ...direct, stderr: direct.stderr.replaceAll(peer(), 'EP') });
      }
      await waitFor(async () => tracer.lines().some((l) => l.includes('"ListImages"')), { timeoutMs: 5000, intervalMs: 50, what: 'the ListImages line' });
    });
  });
}

describe('isulats trace', () => {
  let daemon: IsulatsDaemon | undefined;

  beforeAll(async () => {
    daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE });
  }, 120_000);

  afterAll(async () => {
    await daemon?.cleanup();
  });

  traceCases(`the rig's ${rigEnv().ISULATS_TEST_CRI_PEER}`, () => rigEnv().ISULATS_TEST_CRI_ENDPOINT);
  traceCases('an isulats daemon of its own', () => daemon!.endpoint);

  describe('selection and bad input', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await makeTempDir('ist-tr-');
    });
    afterAll(async () => {
      await removeTempDir(dir);
    });

    it('prints only calls matching --filter, and with --slow only slow ones', async () => {
      const peer = rigEnv().ISULATS_TEST_CRI_ENDPOINT;
      const filtered = await startTrace(dir, peer, ['--filter', '^Version$']);
      const slow = await startTrace(dir, peer, ['--slow', '1h']);
      try {
        for (const t of [filtered, slow]) {
          expect((await runCli(['-r', t.endpoint, 'version'])).code).toBe(0);
          expect((await runCli(['-r', t.endpoint, 'pods', '-q'])).code).toBe(0);
        }
        await waitFor(async () => filtered.lines().length >= 1, { timeoutMs: 5000, intervalMs: 50, what: 'a Version line' });
        expect(filtered.lines()).toHaveLength(1);
        expect(filtered.lines()[0]).toMatch(/^\S+Z Version - \d+\.\dms OK$/);
        expect(slow.lines()).toEqual([]);
      } finally {
        await filtered.stop();
        await slow.stop();
      }
    });

    it.each([
      [['--listen', '/tmp/x.sock', '--filter', '(', '-r', 'unix:///tmp/y.sock'], /^isulats: --filter: Invalid regular expression/],
      [['--listen', '/tmp/x.sock', '--slow', 'soon', '-r', 'unix:///tmp/y.sock'], /^isulats: invalid duration "soon"/],
      [['-r', 'unix:///tmp/y.sock'], /Missing required flag listen/],
      [['--listen', '/tmp/x.sock', '-r', 'unix:///tmp/x.sock'], /^isulats: --listen and the runtime endpoint are the same socket$/],
      [['--listen', 'relative.sock', '-r', 'unix:///tmp/y.sock'], /use unix:\/\/\/path/],
    ])('rejects %j with one line', async (args, message) => {
      const r = await runCli(['trace', ...args], { env: { CONTAINER_RUNTIME_ENDPOINT: '' } });
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
    });
  });
});
