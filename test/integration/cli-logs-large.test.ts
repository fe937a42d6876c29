// `isulats logs` on logs no reader may hold whole, against the rig's CRI peer (the log file path
// comes from ContainerStatus, as crictl reads it; the embedded backend reads the same way):
// - a log over 2 GiB (a sparse hole, then real CRI lines at its end): --tail reads backwards from
//   the end, so `--tail 1` answers at once, with --timestamps and --since too (reading the whole
//   file failed: Node cannot read a file over 2 GiB into one buffer);
// - one logical line of 512 MiB, written as two P records and an F record: it is streamed out
//   joined, and the logs process's peak RSS (VmHWM) stays far below the line's size.
import { spawn } from 'node:child_process';
import { appendFile, readFile, truncate, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../rig/cli.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { kubeletContainer, kubeletPod, kubepodsLevelsPresent, removeKubeletPodCgroup, type KubeletPod } from '../rig/kubelet-shapes.js';
import { signalPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** The logs process may use this much at its peak (Node's own ~50 MB and a few 1 MiB chunks). */
const PEAK_RSS_BOUND = 200 * MiB;
const PIECE = 256 * MiB;

async function vmHwm(pid: number): Promise<number> {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

describe('isulats logs: files over 2 GiB and lines of hundreds of MB', () => {
  const endpoint = rigEnv().ISULATS_TEST_CRI_ENDPOINT;
  const kubepodsBefore = kubepodsLevelsPresent();
  let cri: RawCriClient;
  let logRoot: string;
  let pod: KubeletPod | undefined;
  let podSandboxId = '';
  let containerId = '';
  let logPath = '';

  beforeAll(async () => {
    logRoot = await makeTempDir('ist-logs-');
    cri = openCriClient(endpoint);
    const image = rigEnv().ISULATS_TEST_BUSYBOX;
    await cri.image('PullImage', { image: { image } }, 120_000);
    pod = kubeletPod({ app: 'big-logs', node: 'node-5a1e0c3d', namespace: 'logs', logRoot });
    ({ podSandboxId } = await cri.runtime('RunPodSandbox', { config: pod.config }, 120_000));
    const config = kubeletContainer(pod, { name: 'quiet', image, command: ['sleep', '3600'] });
    config.envs = [];
    ({ containerId } = await cri.runtime('CreateContainer', { podSandboxId, sandboxConfig: pod.config, config }, 60_000));
    await cri.runtime('StartContainer', { containerId }, 60_000);
    logPath = (await cri.runtime('ContainerStatus', { containerId })).status.logPath as string;
  }, 180_000);

  afterAll(async () => {
    if (podSandboxId) {
      await cri.runtime('StopPodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
      await cri.runtime('RemovePodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
    }
    if (pod) await removeKubeletPodCgroup(pod, kubepodsBefore);
    cri?.close();
    if (logRoot) await removeTempDir(logRoot);
  }, 120_000);

  const logs = (args: string[]) => runCli(['-r', endpoint, 'logs', ...args, containerId], { timeoutMs: 120_000 });

  it('reads the last lines of a log over 2 GiB, with --timestamps and --since', async () => {
    // 2.3 GiB of hole (no disk used), ended by a newline, then the lines a container wrote last.
    await truncate(logPath, 0);
    await truncate(logPath, Math.floor(2.3 * GiB));
    await appendFile(logPath, [
      '',
      '2026-12-07T05:00:01.000000001Z stdout F before the end',
      '2026-12-07T05:00:02.5Z stderr P the last ',
      '2026-12-07T05:00:02.6Z stderr F line',
      '',
    ].join('\n'));

    const last = await logs(['--tail', '1']);
    expect({ code: last.code, stdout: last.stdout, stderr: last.stderr }).toEqual({ code: 0, stdout: '', stderr: 'the last line\n' });
    const two = await logs(['--tail', '2', '-t']);
    expect({ code: two.code, stdout: two.stdout, stderr: two.stderr }).toEqual({
      code: 0,
      stdout: '2026-12-07T05:00:01.000000001Z before the end\n',
      stderr: '2026-12-07T05:00:02.500000000Z the last line\n',
    });
    const since = await logs(['--tail', '2', '--since', '2026-12-07T05:00:02Z']);
    expect({ code: since.code, stdout: since.stdout, stderr: since.stderr }).toEqual({ code: 0, stdout: '', stderr: 'the last line\n' });
  }, 180_000);

  it(`streams a line of ${(2 * PIECE) / MiB} MiB joined from P records, its peak RSS under ${PEAK_RSS_BOUND / MiB} MiB`, async () => {
    await truncate(logPath, 0);
    const block = Buffer.alloc(8 * MiB, 'x');
    for (const tag of ['P', 'F']) {
      await appendFile(logPath, `2026-12-07T05:01:00Z stdout ${tag} `);
      for (let n = 0; n < PIECE; n += block.length) await appendFile(logPath, block);
      await appendFile(logPath, '\n');
    }
    const total = 2 * PIECE + 1;
    let child: ReturnType<typeof spawn> | undefined;
    try {
      child = spawn(process.execPath, ['bin/isulats', '-r', endpoint, 'logs', containerId], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let received = 0;
      let tail = '';
      let peak = 0;
      let stderr = '';
      const c = child;
      c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
      c.stdout!.on('data', (b: Buffer) => {
        const before = received;
        received += b.length;
        tail = (tail + b.subarray(Math.max(0, b.length - 4)).toString('latin1')).slice(-4);
        // Near the end (the child writes only as fast as this side reads), its peak so far.
        if (before < total * 0.9 && received >= total * 0.9) {
          c.stdout!.pause();
          void vmHwm(c.pid!).then((hwm) => { peak = hwm; }, () => undefined).finally(() => c.stdout!.resume());
        }
      });
      const code = await new Promise<number | null>((resolve) => c.once('close', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(received).toBe(total);
      expect(tail).toBe('xxx\n');
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThan(PEAK_RSS_BOUND);
    } finally {
      if (child?.pid && child.exitCode === null) signalPid(child.pid, 'SIGKILL');
      await writeFile(logPath, '');
    }
  }, 300_000);
});
