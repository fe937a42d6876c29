import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CgroupReader, detectCgroupVersion, parsePressure } from '../../src/runtime/oci/cgroups.js';
import { parseSyncMessage } from '../../src/runtime/oci/conmon.js';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';
import { demuxAttachMessage } from '../../src/runtime/exec/attach-client.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

describe('cgroup stats from fixture trees', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await makeTempDir('istcg-');
    const v1 = join(dir, 'v1');
    await mkdir(join(v1, 'cpuacct', 'pods', 'c1'), { recursive: true });
    await mkdir(join(v1, 'memory', 'pods', 'c1'), { recursive: true });
    await writeFile(join(v1, 'cpuacct', 'pods', 'c1', 'cpuacct.usage'), '123456789\n');
    await writeFile(join(v1, 'memory', 'pods', 'c1', 'memory.usage_in_bytes'), '10000\n');
    await writeFile(join(v1, 'memory', 'pods', 'c1', 'memory.stat'), 'cache 10\ntotal_cache 3000\ntotal_rss 5000\ntotal_inactive_file 4000\n');
    await writeFile(join(v1, 'cpuacct', 'pods', 'c1', 'cpuacct.stat'), 'user 7\nsystem 3\n');
    await writeFile(join(v1, 'memory', 'pods', 'c1', 'memory.limit_in_bytes'), '67108864\n');
    await writeFile(join(v1, 'memory', 'pods', 'c1', 'memory.oom_control'), 'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n');
    const v2 = join(dir, 'v2');
    await mkdir(join(v2, 'pods', 'c1'), { recursive: true });
    await writeFile(join(v2, 'cgroup.controllers'), 'cpu memory pids\n');
    await writeFile(join(v2, 'pods', 'c1', 'cpu.stat'), 'usage_usec 5000\nuser_usec 4000\nsystem_usec 1000\n');
    await writeFile(join(v2, 'pods', 'c1', 'memory.current'), '20000\n');
    await writeFile(join(v2, 'pods', 'c1', 'memory.stat'), 'anon 100\ninactive_file 25000\n');
    await writeFile(join(v2, 'pods', 'c1', 'memory.max'), 'max\n');
    await writeFile(join(v2, 'pods', 'c1', 'memory.events'), 'low 0\noom 1\noom_kill 1\n');
  });

  afterAll(async () => {
    await removeTempDir(dir);
  });

  it('detects the cgroup version from the root', () => {
    expect(detectCgroupVersion(join(dir, 'v1'))).toBe(1);
    expect(detectCgroupVersion(join(dir, 'v2'))).toBe(2);
  });

  it('reads v1 usage and subtracts inactive file pages for the working set', async () => {
    const stats = await new CgroupReader(join(dir, 'v1')).stats('/pods/c1');
    expect(stats).toEqual({
      cpuUsageNs: 123456789n, memoryUsageBytes: 10000n, memoryWorkingSetBytes: 6000n, memoryLimitBytes: 67108864n, oomKills: 2,
      cpuUserNs: 70_000_000n, cpuSystemNs: 30_000_000n, memoryRssBytes: 5000n, memoryCacheBytes: 3000n,
    });
  });

  it('reads v2 usage in microseconds as nanoseconds and never goes below zero', async () => {
    const stats = await new CgroupReader(join(dir, 'v2')).stats('/pods/c1');
    expect(stats).toEqual({
      cpuUsageNs: 5_000_000n, memoryUsageBytes: 20000n, memoryWorkingSetBytes: 0n, memoryLimitBytes: undefined, oomKills: 1,
      cpuUserNs: 4_000_000n, cpuSystemNs: 1_000_000n, memoryRssBytes: 100n, memoryCacheBytes: undefined,
    });
  });

  it('reads v2 pressure stall information where the kernel has PSI on', async () => {
    const c2 = join(dir, 'v2', 'pods', 'c2');
    await mkdir(c2, { recursive: true });
    for (const f of ['cpu.stat', 'memory.current', 'memory.stat']) await writeFile(join(c2, f), await readFile(join(dir, 'v2', 'pods', 'c1', f)));
    await writeFile(join(c2, 'cpu.pressure'), 'some avg10=1.50 avg60=0.25 avg300=0.00 total=123456\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=42\n');
    await writeFile(join(c2, 'io.pressure'), 'some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n');
    const stats = await new CgroupReader(join(dir, 'v2')).stats('/pods/c2');
    expect(stats?.pressure).toEqual({
      cpu: { some: { avg10: 1.5, avg60: 0.25, avg300: 0, totalUs: 123456n }, full: { avg10: 0, avg60: 0, avg300: 0, totalUs: 42n } },
      memory: undefined,
      io: { some: { avg10: 0, avg60: 0, avg300: 0, totalUs: 7n } },
    });
    expect(parsePressure('bogus\nsome avg10=x total=y\n')).toEqual({});
  });

  it('returns undefined for a cgroup that does not exist', async () => {
    expect(await new CgroupReader(join(dir, 'v2')).stats('/pods/none')).toBeUndefined();
  });
});

describe('conmon and runner plumbing', () => {
  it('parses conmon sync messages', () => {
    expect(parseSyncMessage('{"data": 4242}')).toEqual({ data: 4242, message: undefined });
    expect(parseSyncMessage('{"data": -1, "message": "runc create failed"}')).toEqual({ data: -1, message: 'runc create failed' });
    expect(() => parseSyncMessage('{"pid": 1}')).toThrow(/unexpected/);
  });

  it('splits attach messages by stream byte', () => {
    expect(demuxAttachMessage(Buffer.from([2, 104, 105]))).toEqual({ stream: 'stdout', data: Buffer.from('hi') });
    expect(demuxAttachMessage(Buffer.from([3, 33])).stream).toBe('stderr');
  });

  it('lets a hook fail a binary on request', async () => {
    const runner = new ProcessRunner();
    const remove = runner.addHook((cmd, args) => {
      if (cmd === 'runc' && args.includes('create')) throw new Error('injected runc failure');
    });
    await expect(runner.run({ cmd: 'runc', args: ['create', 'x'] })).rejects.toThrow('injected runc failure');
    remove();
    expect((await runner.run({ cmd: 'true', args: [] })).code).toBe(0);
  });

  it('caps output and kills on timeout', async () => {
    const runner = new ProcessRunner();
    const big = await runner.run({ cmd: 'sh', args: ['-c', 'head -c 100000 /dev/zero'], maxOutput: 1000 });
    expect(big.stdout.length).toBe(1000);
    expect(big.truncated).toBe(true);
    // An hour's sleep: only the timeout's kill ends it (the test's own timeout bounds the wait).
    const slow = await runner.run({ cmd: 'sleep', args: ['3600'], timeoutMs: 200 });
    expect(slow).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    await expect(runner.check({ cmd: 'sh', args: ['-c', 'echo nope >&2; exit 2'] })).rejects.toThrow(/exited 2: nope/);
  }, 30_000);
});

describe('runc error messages', () => {
  it('takes the msg of logrus text lines, unescaped, and plain lines as they are', async () => {
    const { runcMessage } = await import('../../src/runtime/oci/runc-conmon.js');
    expect(runcMessage('time="2026-11-30T03:03:39Z" level=error msg="exec failed: exec: \\"x\\": executable file not found in $PATH"\n'))
      .toBe('exec failed: exec: "x": executable file not found in $PATH');
    expect(runcMessage('first\nexec failed: plain\n')).toBe('exec failed: plain');
    expect(runcMessage('')).toBe('');
  });
});
