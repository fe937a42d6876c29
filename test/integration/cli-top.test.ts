// `isulats top` against an `isulats daemon` with a pod running a busy
// container (capped at 30 % of a core) and an idle one: the plain tables when
// stdout is not a terminal, and the live view in a real terminal (tmux):
// CPU % and memory per container, moving, inspect and back, sorting, quitting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { REPO_ROOT, runCli, type CliResult } from '../rig/cli.js';
import { writeContainerConfig, writePodConfig } from '../rig/pod-configs.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { startTmux } from '../rig/tmux.js';

const NS = `top-${process.pid}`;
const POD = `load-${process.pid}-6f7c9d8b5-q4wzt`;
let daemon: IsulatsDaemon;
let dir: string;
let podId = '';
let busy = '';

const cli = (args: string[]): Promise<CliResult> => runCli(['-r', daemon.endpoint, '--timeout', '30s', ...args], { timeoutMs: 120_000 });

async function ok(args: string[]): Promise<string> {
  const r = await cli(args);
  expect(r.stderr, `isulats ${args.join(' ')}`).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  const env = rigEnv();
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  dir = await makeTempDir('ist-top-');
  const podConfig = await writePodConfig(dir, { name: POD, namespace: NS, logDirectory: join(dir, 'logs'), labels: { app: 'load' } });
  podId = (await ok(['runp', podConfig])).trim();
  const capped = { linux: { resources: { cpu_period: 100000, cpu_quota: 30000, memory_limit_in_bytes: 64 * 1024 * 1024 } } };
  const busyCfg = await writeContainerConfig(dir, { name: 'busy', image: env.ISULATS_TEST_BUSYBOX, command: ['sh', '-c', 'while :; do :; done'], logPath: 'busy/0.log', extra: capped });
  const idleCfg = await writeContainerConfig(dir, { name: 'idle', image: env.ISULATS_TEST_BUSYBOX, command: ['sleep', '3600'], logPath: 'idle/0.log' });
  busy = (await ok(['create', '--with-pull', podId, busyCfg, podConfig])).trim();
  const idle = (await ok(['create', podId, idleCfg, podConfig])).trim();
  await ok(['start', busy]);
  await ok(['start', idle]);
}, 180_000);

afterAll(async () => {
  if (podId) await cli(['rmp', '-f', podId]);
  await daemon?.cleanup();
  if (dir) await removeTempDir(dir);
}, 120_000);

describe('top', () => {
  it('prints plain tables when stdout is not a terminal, and stops after -n refreshes', async () => {
    const out = await ok(['top', '-n', '2', '--interval', '1s', '--namespace', NS]);
    const tables = out.trimEnd().split(/\n(?=NAMESPACE)/);
    expect(tables).toHaveLength(2);
    const busyRow = tables[1]!.split('\n').find((l) => l.includes(' busy '));
    expect(busyRow, out).toMatch(new RegExp(`^${NS}\\s+${POD}\\s+busy\\s+${busy.slice(0, 13)}\\s+\\d+\\.\\d\\d\\s+\\d`));
    const cpu = Number(busyRow!.trim().split(/\s+/)[4]);
    expect(cpu).toBeGreaterThan(5);
    expect(cpu).toBeLessThan(60);
    expect(tables[1]).toMatch(/\(node total\)/);
    expect(await ok(['top', '-n', '1', '--interval', '200ms', '--namespace', 'no-such-namespace'])).toMatch(/^NAMESPACE.*\n\s+\(node total\)\s+-\s+0B\n\n$/);
  });

  it('shows the live view in a terminal: CPU of the busy container, moving, inspect and back, sorting, q', async () => {
    const cmd = `cd ${REPO_ROOT} && node bin/isulats -r ${daemon.endpoint} --timeout 30s top --interval 1s --label app=load; echo "TOP-EXITED:$?"; sleep 60`;
    const term = await startTmux(cmd, { width: 120, height: 30 });
    try {
      const screen = await term.waitForScreen(/^>\s+busy\s+([1-9]\d*\.\d) \[/m);
      expect(screen).toMatch(new RegExp(`^isulats top - unix://\\S+ - 1 pods, 2 containers - CPU \\d+\\.\\d% MEM \\S+ - every 1s - sort: cpu`, 'm'));
      expect(screen).toMatch(new RegExp(`^\\s+${NS}/${POD}\\s+\\d+\\.\\d`, 'm'));
      await term.send('Down');
      await term.waitForScreen(/^>\s+idle\s/m);
      await term.send('Up');
      await term.waitForScreen(/^>\s+busy\s/m);
      await term.send('Enter');
      const page = await term.waitForScreen(/press any key to return/);
      expect(page).toContain(`"id": "${busy}"`);
      await term.send('x');
      await term.waitForScreen(/^>\s+busy\s/m);
      await term.send('s');
      await term.waitForScreen(/sort: mem$/m);
      await term.send('q');
      await term.waitForScreen(/^TOP-EXITED:0$/m);
    } finally {
      await term.close();
    }
  });

  it('refuses bad flags in one line', async () => {
    for (const [args, pattern] of [
      [['top', '--interval', 'soon'], /^isulats: top: --interval: invalid duration "soon"/],
      [['top', '--interval', '10ms'], /^isulats: top: --interval must be at least 100ms/],
      [['top', '--label', 'app'], /^isulats: top: --label: incorrectly specified label: app/],
      [['top', '--sort', 'disk'], /Expected --sort=disk to be one of: cpu, mem, name/],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code).toBe(1);
      expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
    }
  });
});

// The same view through containerd 1.6 (the rig's peer): only CRI list and stats calls, so any
// runtime serves it. This file runs in the containerd pass of `npm test`.
describe('top against containerd', () => {
  const CNS = `top-ctd-${process.pid}`;
  let endpoint = '';
  let ctdDir = '';
  let ctdPod = '';
  let ctdBusy = '';
  const ctd = (args: string[]) => runCli(['-r', endpoint, '--timeout', '30s', ...args], { timeoutMs: 120_000 });
  async function ctdOk(args: string[]): Promise<string> {
    const r = await ctd(args);
    if (r.code !== 0) throw new Error(`isulats ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return r.stdout.trim();
  }

  beforeAll(async () => {
    const env = rigEnv();
    endpoint = env.ISULATS_TEST_CONTAINERD;
    ctdDir = await makeTempDir('ist-topc-');
    const podConfig = await writePodConfig(ctdDir, { name: `load-ctd-${process.pid}`, namespace: CNS, logDirectory: join(ctdDir, 'logs') });
    ctdPod = await ctdOk(['runp', podConfig]);
    const capped = { linux: { resources: { cpu_period: 100000, cpu_quota: 30000 } } };
    const busyCfg = await writeContainerConfig(ctdDir, { name: 'busy', image: env.ISULATS_TEST_BUSYBOX, command: ['sh', '-c', 'while :; do :; done'], logPath: 'busy/0.log', extra: capped });
    ctdBusy = await ctdOk(['create', '--with-pull', ctdPod, busyCfg, podConfig]);
    await ctdOk(['start', ctdBusy]);
  }, 180_000);

  afterAll(async () => {
    if (ctdPod) await ctd(['rmp', '-f', ctdPod]);
    if (ctdDir) await removeTempDir(ctdDir);
  }, 120_000);

  it('prints the busy container with its CPU share from containerd\'s stats', async () => {
    const out = await ctdOk(['top', '-n', '2', '--interval', '1s', '--namespace', CNS]);
    const tables = out.split(/\n(?=NAMESPACE)/);
    expect(tables).toHaveLength(2);
    const row = tables[1]!.split('\n').find((l) => l.includes(' busy '));
    expect(row, out).toMatch(new RegExp(`^${CNS}\\s+load-ctd-${process.pid}\\s+busy\\s+${ctdBusy.slice(0, 13)}\\s+\\d+\\.\\d\\d\\s+\\d`));
    const cpu = Number(row!.trim().split(/\s+/)[4]);
    expect(cpu).toBeGreaterThan(5);
    expect(cpu).toBeLessThan(60);
  });
});
