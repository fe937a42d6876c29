// ProcessRunner.run()/check() with real processes, once through the native addon's runProcess
// (posix_spawn from a thread) and once through child_process (ISULATS_NATIVE_SPAWN=0): the same
// assertions hold for both, so the fast path is a drop-in for the old one.
import { chmod, mkdir, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRunProcess, hasSpawnDetached, hasSpawnPiped, hasSpawnWithPipes, spawnStats } from '../../src/runtime/native.js';
import { childProcessSpawns, nativeDetachedEnabled, nativePipedEnabled, nativeSpawnEnabled, nativeWithPipesEnabled, ProcessRunner } from '../../src/runtime/oci/process-runner.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const PATH = '/usr/sbin:/usr/bin:/sbin:/bin';

/** This process's children that are zombies (exited, never reaped). */
async function zombies(): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' && Number(fields[1]) === process.pid) found.push(Number(entry));
  }
  return found;
}

async function openFds(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
}

async function threads(): Promise<number> {
  return Number(/^Threads:\s+(\d+)/m.exec(await readFile('/proc/self/status', 'utf8'))?.[1]);
}

/** Runs the enclosing describe with ISULATS_NATIVE_SPAWN=flag and a temp dir of its own. */
function useSpawnPath(flag: string, prefix: string): { readonly dir: string } {
  let saved: string | undefined;
  const state = { dir: '' };
  beforeAll(async () => {
    saved = process.env.ISULATS_NATIVE_SPAWN;
    process.env.ISULATS_NATIVE_SPAWN = flag;
    state.dir = await makeTempDir(prefix);
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.ISULATS_NATIVE_SPAWN;
    else process.env.ISULATS_NATIVE_SPAWN = saved;
    await removeTempDir(state.dir);
  });
  return state;
}

/** Lets handles Node closes asynchronously (the child_process path's pipes) finish closing. */
const settle = () => new Promise((r) => setTimeout(r, 100));

describe.each([
  ['native', '1'],
  ['node', '0'],
])('ProcessRunner.run through %s spawning', (path, flag) => {
  const runner = new ProcessRunner();
  const tmp = useSpawnPath(flag, 'ist-pr-');

  it('takes the path under test', () => {
    if (path === 'native') expect(hasRunProcess()).toBe(true);
    expect(nativeSpawnEnabled()).toBe(path === 'native');
  });

  it('captures stdout, stderr and the exit code', async () => {
    const r = await runner.run({ cmd: 'sh', args: ['-c', 'printf out; printf err >&2; exit 7'] });
    expect(r).toEqual({ code: 7, signal: undefined, stdout: Buffer.from('out'), stderr: Buffer.from('err'), timedOut: false, truncated: false });
    await expect(runner.check({ cmd: 'sh', args: ['-c', 'echo nope >&2; exit 2'] })).rejects.toThrow(/exited 2: nope/);
    expect((await runner.check({ cmd: 'true', args: [] })).code).toBe(0);
  });

  it('passes binary input through stdin and binary output back', async () => {
    const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));
    const r = await runner.run({ cmd: 'cat', args: [], input: bytes });
    expect(r.stdout.equals(bytes)).toBe(true);
    expect((await runner.run({ cmd: 'cat', args: [], input: 'héllo\n' })).stdout.toString()).toBe('héllo\n');
    // No input: stdin is at EOF at once (cat would wait forever otherwise).
    expect((await runner.run({ cmd: 'cat', args: [], timeoutMs: 5000 })).timedOut).toBe(false);
    // A child that never reads its stdin does not hold the run up.
    expect((await runner.run({ cmd: 'true', args: [], input: Buffer.alloc(4 << 20) })).code).toBe(0);
  });

  it('moves several MB each way without deadlocking', async () => {
    const input = Buffer.alloc(6 << 20, 'a');
    const echoed = await runner.run({ cmd: 'sh', args: ['-c', 'cat; head -c 5000000 /dev/zero >&2'], input, timeoutMs: 30_000 });
    expect(echoed.timedOut).toBe(false);
    expect(echoed.stdout.length).toBe(input.length);
    expect(echoed.stdout.equals(input)).toBe(true);
    expect(echoed.stderr.length).toBe(5_000_000);
  }, 60_000);

  it('keeps the first maxOutput bytes of each stream and drains the rest', async () => {
    const r = await runner.run({ cmd: 'sh', args: ['-c', 'seq 1 100000; seq 1 100000 >&2'], maxOutput: 1000 });
    // Draining lets the writer finish normally (no SIGPIPE, no hang).
    expect(r.code).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.stdout.toString()).toBe(Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join('').slice(0, 1000));
    expect(r.stderr.length).toBe(1000);
    const exact = await runner.run({ cmd: 'head', args: ['-c', '1000', '/dev/zero'], maxOutput: 1000 });
    expect(exact.truncated).toBe(false);
  });

  it('kills on timeout with SIGKILL', async () => {
    // The children would run for an hour: only the timeout's kill ends them (the test's own timeout bounds the wait).
    const slow = await runner.run({ cmd: 'sleep', args: ['3600'], timeoutMs: 200 });
    expect(slow).toMatchObject({ timedOut: true, code: 137, signal: 'SIGKILL' });
    // Also when the child has closed its output early (only its exit is left to wait for).
    const quiet = await runner.run({ cmd: 'sh', args: ['-c', 'exec >&- 2>&-; exec sleep 3600'], timeoutMs: 200 });
    expect(quiet).toMatchObject({ timedOut: true, code: 137, signal: 'SIGKILL' });
    await expect(runner.check({ cmd: 'sleep', args: ['3600'], timeoutMs: 100 })).rejects.toThrow(/timed out/);
    const fast = await runner.run({ cmd: 'true', args: [], timeoutMs: 5000 });
    expect(fast).toMatchObject({ timedOut: false, code: 0 });
  }, 30_000);

  it('rejects like spawn when the binary cannot be run', async () => {
    const missing = await runner.run({ cmd: 'isulats-no-such-binary', args: ['x'] }).catch((e: NodeJS.ErrnoException) => e);
    expect(missing).toBeInstanceOf(Error);
    expect(missing).toMatchObject({ code: 'ENOENT', errno: -2, syscall: 'spawn isulats-no-such-binary', message: 'spawn isulats-no-such-binary ENOENT' });
    await expect(runner.run({ cmd: join(tmp.dir, 'absent'), args: [] })).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFile(join(tmp.dir, 'not-executable'), 'echo hi\n');
    await expect(runner.run({ cmd: join(tmp.dir, 'not-executable'), args: [] })).rejects.toMatchObject({ code: 'EACCES' });
    await expect(runner.run({ cmd: 'true', args: [], cwd: join(tmp.dir, 'no-such-dir') })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('runs in cwd with exactly the given environment, searching its PATH', async () => {
    expect((await runner.run({ cmd: 'pwd', args: [], cwd: tmp.dir })).stdout.toString()).toBe(`${tmp.dir}\n`);
    const env = await runner.run({ cmd: '/usr/bin/env', args: [], env: { ISULATS_T: 'a b=c', PATH } });
    expect(env.stdout.toString().split('\n').filter(Boolean).sort()).toEqual([`ISULATS_T=a b=c`, `PATH=${PATH}`]);
    await writeFile(join(tmp.dir, 'tool-isulats-t'), '#!/bin/sh\necho "$0 $1"\n');
    await chmod(join(tmp.dir, 'tool-isulats-t'), 0o755);
    // Found through the PATH given in env (this process's PATH does not have the temp dir).
    const found = await runner.run({ cmd: 'tool-isulats-t', args: ['arg'], env: { PATH: `/nonexistent:${tmp.dir}:/usr/bin:/bin` } });
    expect(found.stdout.toString()).toBe(`${tmp.dir}/tool-isulats-t arg\n`);
    await expect(runner.run({ cmd: 'tool-isulats-t', args: [] })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(runner.run({ cmd: 'sh', args: [], env: { PATH: '/nonexistent' } })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports death by signal as 128 + the signal number', async () => {
    expect(await runner.run({ cmd: 'sh', args: ['-c', 'kill -TERM $$'] })).toMatchObject({ code: 143, signal: 'SIGTERM', timedOut: false });
    expect(await runner.run({ cmd: 'sh', args: ['-c', 'kill -USR1 $$'] })).toMatchObject({ code: 138, signal: 'SIGUSR1' });
  });

  it('gives the child default signal dispositions and an empty mask (Node ignores SIGPIPE)', async () => {
    const status = (await runner.run({ cmd: 'cat', args: ['/proc/self/status'] })).stdout.toString();
    expect(/^SigIgn:\s+(\w+)/m.exec(status)?.[1]).toBe('0000000000000000');
    expect(/^SigBlk:\s+(\w+)/m.exec(status)?.[1]).toBe('0000000000000000');
    const r = await runner.run({ cmd: 'sh', args: ['-c', 'yes | head -1'], timeoutMs: 20_000 });
    expect(r).toMatchObject({ code: 0, timedOut: false });
    expect(r.stdout.toString()).toBe('y\n');
    // With SIGPIPE ignored, yes would see EPIPE and complain on stderr.
    expect(r.stderr.toString()).toBe('');
  }, 30_000);

  it('runs hooks before the process starts', async () => {
    const seen: string[] = [];
    const remove = runner.addHook((cmd, args) => {
      seen.push(`${cmd} ${args.join(' ')}`);
      if (args.includes('fail')) throw new Error('injected failure');
    });
    try {
      const marker = join(tmp.dir, 'hook-marker');
      await expect(runner.run({ cmd: 'touch', args: [marker, 'fail'] })).rejects.toThrow('injected failure');
      await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await runner.run({ cmd: 'true', args: ['ok'] })).code).toBe(0);
      expect(seen).toEqual([`touch ${marker} fail`, 'true ok']);
    } finally {
      remove();
    }
  });

  it('runs 200 at once, each with its own result, leaving no zombie and no open fd', async () => {
    await settle();
    const fdsBefore = await openFds();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        runner.run({ cmd: 'sh', args: ['-c', 'read x; echo "$0 $x"; echo "e$0" >&2; exit $(($0 % 7))', String(i)], input: `in${i}\n` }),
      ),
    );
    results.forEach((r, i) => {
      expect(r.stdout.toString()).toBe(`${i} in${i}\n`);
      expect(r.stderr.toString()).toBe(`e${i}\n`);
      expect(r.code).toBe(i % 7);
    });
    // Failures and timeouts must not leak either.
    await Promise.all([
      ...Array.from({ length: 20 }, () => runner.run({ cmd: 'isulats-no-such-binary', args: [] }).catch(() => undefined)),
      ...Array.from({ length: 10 }, () => runner.run({ cmd: 'sleep', args: ['10'], timeoutMs: 50 })),
    ]);
    await settle();
    expect(await openFds()).toBe(fdsBefore);
    expect(await zombies()).toEqual([]);
  }, 120_000);

  it(path === 'native' ? 'waits on worker threads of its own, not on the event loop' : 'waits on the event loop', async () => {
    // Idle spawn workers from earlier tests first exit, so that every worker counted below is new.
    await idleWorkersGone();
    const before = await threads();
    const runs = Promise.all(Array.from({ length: 5 }, () => runner.run({ cmd: 'sleep', args: ['1'] })));
    await new Promise((r) => setTimeout(r, 200));
    const during = await threads();
    await runs;
    if (path === 'native') expect(during - before).toBeGreaterThanOrEqual(5);
    else expect(during - before).toBeLessThan(5);
    // Idle workers exit a while after their last job.
    await idleWorkersGone();
    expect(await threads()).toBeLessThanOrEqual(before);
  }, 30_000);

  it('never queues a child behind running ones: 40 children at once all run together', async () => {
    // Each child marks its start, then waits (bounded: 60 s) until all 40 have started: with a child
    // queued behind running ones, the running ones give up and say so.
    const dir = join(tmp.dir, 'together');
    await mkdir(dir);
    const script = `: > "${dir}/$0"; for _ in $(seq 300); do set -- "${dir}"/*; [ $# -ge 40 ] && echo together && exit $(($0 % 3)); sleep 0.2; done; echo alone`;
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => runner.run({ cmd: 'sh', args: ['-c', script, String(i)] })));
    results.forEach((r, i) => expect({ out: r.stdout.toString(), code: r.code }).toEqual({ out: 'together\n', code: i % 3 }));
    await rm(dir, { recursive: true });
  }, 120_000);

  it.runIf(path === 'native')('reuses spawn workers for later children instead of a thread per child', async () => {
    const before = spawnStats()!.workers;
    for (let round = 0; round < 10; round++) {
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => runner.run({ cmd: 'sh', args: ['-c', `echo ${round}.${i}`] })));
      results.forEach((r, i) => expect(r.stdout.toString()).toBe(`${round}.${i}\n`));
      await new Promise((r) => setTimeout(r, 50)); // the workers are back waiting for a job
    }
    // 50 children; at most 5 run at once, so 5 workers would do (slack for a worker still finishing).
    expect(spawnStats()!.workers - before).toBeLessThanOrEqual(10);
  }, 30_000);

  it.runIf(path === 'native')('runs children under this process scheduling policy while the workers run SCHED_BATCH', async () => {
    const policyOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
    expect(policyOf(await readFile('/proc/self/stat', 'utf8'))).toBe(0); // SCHED_OTHER
    const sleeping = runner.run({ cmd: 'sleep', args: ['0.5'] });
    await new Promise((r) => setTimeout(r, 200));
    const policies = await Promise.all((await readdir('/proc/self/task')).map(async (t) => policyOf(await readFile(`/proc/self/task/${t}/stat`, 'utf8').catch(() => ')'))));
    await sleeping;
    expect(policies).toContain(3); // SCHED_BATCH: the worker waiting on sleep
    expect(policyOf((await runner.run({ cmd: 'cat', args: ['/proc/self/stat'] })).stdout.toString())).toBe(0);
    const file = join(tmp.dir, 'policy');
    await runner.runDetached({ cmd: 'sh', args: ['-c', `cat /proc/self/stat > ${file}`] });
    expect(policyOf(await readFile(file, 'utf8'))).toBe(0);
  });

  it('passes this process environment as it is at each call, and extraEnv over it', async () => {
    const envOf = async (req: { env?: NodeJS.ProcessEnv; extraEnv?: Record<string, string> }) =>
      (await runner.run({ cmd: 'env', args: ['-0'], ...req })).stdout.toString().split('\0').slice(0, -1);
    const live = 'ISULATS_T_LIVE_ENV';
    try {
      process.env[live] = 'one';
      expect(await envOf({})).toEqual(ownEnv());
      expect(await envOf({})).toContain(`${live}=one`);
      process.env[live] = 'two\nlines';
      expect(await envOf({})).toContain(`${live}=two\nlines`);
      expect(await envOf({ env: process.env })).toEqual(ownEnv());
      delete process.env[live];
      expect((await envOf({})).some((e) => e.startsWith(`${live}=`))).toBe(false);
      // Replaced in place, added at the end, like { ...process.env, ...extraEnv }.
      const extraEnv = { HOME: '/isulats-t-home', [live]: 'extra' };
      expect(await envOf({ extraEnv })).toEqual(ownEnv(extraEnv));
      expect(await envOf({ env: { A: '1', PATH, HOME: '/h' }, extraEnv })).toEqual(['A=1', `PATH=${PATH}`, 'HOME=/isulats-t-home', `${live}=extra`]);
      expect(await envOf({ env: {} })).toEqual([]);
    } finally {
      delete process.env[live];
    }
  });
});

/** This process's environment (then `extra` over it) in the order a child gets it. */
function ownEnv(extra: Record<string, string> = {}): string[] {
  return Object.entries({ ...process.env, ...extra }).map(([k, v]) => `${k}=${v}`);
}

/** Waits (bounded) until the addon's idle spawn workers have exited. */
async function idleWorkersGone(): Promise<void> {
  for (let i = 0; i < 100 && (spawnStats()?.idle ?? 0) > 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(spawnStats()?.idle ?? 0).toBe(0);
  await new Promise((r) => setTimeout(r, 50)); // the last one's exit, after it stopped counting itself
}

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, session, ...]. */
async function procStat(pid: number | 'self'): Promise<string[]> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** This process's fds above 2 that an exec would keep (no O_CLOEXEC). */
async function inheritable(): Promise<number[]> {
  const out: number[] = [];
  for (const fd of (await readdir('/proc/self/fd')).map(Number).sort((x, y) => x - y)) {
    if (fd < 3) continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
    const flags = /^flags:\s+(\d+)/m.exec(info)?.[1];
    if (flags && (Number.parseInt(flags, 8) & 0o2000000) === 0) out.push(fd);
  }
  return out;
}

/** Everything written on the stream until `until` matches (or it ends). */
function readUntil(stream: Readable, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const done = () => {
      stream.off('data', onData);
      resolve(buf);
    };
    const onData = (b: Buffer) => {
      buf += b.toString();
      if (until.test(buf)) done();
    };
    stream.on('data', onData);
    stream.once('end', done);
    stream.once('error', reject);
  });
}

/** Kills (by PID) a process a test left running, if it still is. */
/** Whether the process named by `pidFile` runs (not a zombie); waits (bounded) for the file to be written. */
async function runsFromPidFile(pidFile: string): Promise<boolean> {
  let pid = 0;
  for (let i = 0; i < 500 && !pid; i++) {
    pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
    if (!pid) await new Promise((r) => setTimeout(r, 20));
  }
  const state = pid > 0 ? (await procStat(pid).catch(() => ['X']))[0] : 'X';
  return state !== 'Z' && state !== 'X';
}

async function killLeftover(pidFile: string): Promise<void> {
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
  if (pid > 0) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

describe.each([
  ['native', '1'],
  ['node', '0'],
])('ProcessRunner.runDetached/spawnWithSyncPipe through %s spawning', (path, flag) => {
  const runner = new ProcessRunner();
  const tmp = useSpawnPath(flag, 'ist-prd-');

  it('takes the path under test', () => {
    if (path === 'native') expect(hasSpawnDetached()).toBe(true);
    expect(nativeDetachedEnabled()).toBe(path === 'native');
  });

  it('reports the exit code, death by signal and spawn errors like spawn', async () => {
    expect(await runner.runDetached({ cmd: 'sh', args: ['-c', 'exit 3'] })).toEqual({ code: 3 });
    expect(await runner.runDetached({ cmd: 'sh', args: ['-c', 'kill -TERM $$'] })).toEqual({ code: 143, signal: 'SIGTERM' });
    const missing = await runner.runDetached({ cmd: 'isulats-no-such-binary', args: ['x'] }).catch((e: NodeJS.ErrnoException) => e);
    expect(missing).toBeInstanceOf(Error);
    expect(missing).toMatchObject({ code: 'ENOENT', errno: -2, syscall: 'spawn isulats-no-such-binary', message: 'spawn isulats-no-such-binary ENOENT' });
    await expect(runner.spawnWithSyncPipe({ cmd: 'isulats-no-such-binary', args: [] })).rejects.toMatchObject({
      code: 'ENOENT',
      message: 'spawn isulats-no-such-binary ENOENT',
    });
    await expect(runner.runDetached({ cmd: 'true', args: [], cwd: join(tmp.dir, 'no-such-dir') })).rejects.toMatchObject({ code: 'ENOENT' });
    const env = join(tmp.dir, 'env');
    expect(await runner.runDetached({ cmd: 'sh', args: ['-c', `env > ${env}`], env: { ISULATS_T: 'x', PATH }, cwd: tmp.dir })).toEqual({ code: 0 });
    expect((await readFile(env, 'utf8')).split('\n')).toContain('ISULATS_T=x');
    // extraEnv over this process's environment, as it is now.
    process.env.ISULATS_T_LIVE = 'now';
    try {
      expect(await runner.runDetached({ cmd: 'sh', args: ['-c', `env > ${env}`], extraEnv: { ISULATS_T: 'y' } })).toEqual({ code: 0 });
    } finally {
      delete process.env.ISULATS_T_LIVE;
    }
    expect((await readFile(env, 'utf8')).split('\n')).toEqual(expect.arrayContaining(['ISULATS_T=y', 'ISULATS_T_LIVE=now', `PATH=${process.env.PATH}`]));
  });

  it('starts the child in a session of its own, stdio on /dev/null, default signals', async () => {
    const pidFile = join(tmp.dir, 'detached.pid');
    // A child writing lots to stdout/stderr neither blocks nor reaches us; then it waits to be looked at.
    // It sleeps until killed below: the checks must not race its end on a loaded machine.
    const script = `head -c 3000000 /dev/zero; head -c 3000000 /dev/zero >&2; echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; exec sleep 600`;
    const started = Date.now();
    // The test runner's own inheritable fds as the spawn saw them: a transient one of the runner's
    // (open across the spawn, closed before the check) is the runner's, not ours.
    const runnersBefore = await inheritable();
    const exit = runner.runDetached({ cmd: 'sh', args: ['-c', script] });
    let pid = 0;
    while (!pid && Date.now() - started < 10_000) {
      pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
      if (!pid) await new Promise((r) => setTimeout(r, 20));
    }
    try {
      expect(pid).toBeGreaterThan(0);
      const [, , pgrp, session] = await procStat(pid);
      expect(session).not.toBe((await procStat('self'))[3]);
      expect(session).toBe(String(pid));
      expect(pgrp).toBe(String(pid));
      const fds = (await readdir(`/proc/${pid}/fd`)).map(Number).sort((x, y) => x - y);
      expect(fds.slice(0, 3)).toEqual([0, 1, 2]);
      for (const fd of [0, 1, 2]) expect(await readlink(`/proc/${pid}/fd/${fd}`)).toBe('/dev/null');
      // Nothing else of ours, only what any exec of this process inherits (the test runner's fds without O_CLOEXEC).
      const runners = new Set([...runnersBefore, ...(await inheritable())]);
      expect(fds.slice(3).filter((fd) => !runners.has(fd))).toEqual([]);
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      expect(/^SigIgn:\s+(\w+)/m.exec(status)?.[1]).toBe('0000000000000000');
      expect(/^SigBlk:\s+(\w+)/m.exec(status)?.[1]).toBe('0000000000000000');
    } finally {
      await killLeftover(pidFile);
    }
    expect(await exit).toEqual({ code: 137, signal: 'SIGKILL' });
  }, 30_000);

  it('reports the exit without waiting for a grandchild that keeps running', async () => {
    const pidFile = join(tmp.dir, 'grandchild.pid');
    try {
      // The grandchildren would run for an hour: the exits are reported while they still run.
      expect(await runner.runDetached({ cmd: 'sh', args: ['-c', `sleep 3600 & echo $! > ${pidFile}; exit 0`] })).toEqual({ code: 0 });
      expect(await runsFromPidFile(pidFile)).toBe(true);
      const p = await runner.spawnWithSyncPipe({ cmd: 'sh', args: ['-c', `sleep 3600 >&3 & echo $! > ${pidFile}.2; exit 4`] });
      expect(await p.exited).toEqual({ code: 4 });
      expect(await runsFromPidFile(`${pidFile}.2`)).toBe(true);
      p.sync.destroy();
    } finally {
      await killLeftover(pidFile);
      await killLeftover(`${pidFile}.2`);
    }
  }, 30_000);

  it('hands over what the child writes on fd 3, without needing EOF', async () => {
    const p = await runner.spawnWithSyncPipe({ cmd: 'sh', args: ['-c', 'echo \'{"data": 42}\' >&3; readlink /proc/$$/fd/0 /proc/$$/fd/3 >&3'] });
    expect(p.pid).toBeGreaterThan(0);
    const text = await readUntil(p.sync, /(pipe|socket):.*\n/);
    expect(text).toMatch(/^\{"data": 42\}\n\/dev\/null\n(pipe|socket):\[\d+\]\n$/);
    expect(await p.exited).toEqual({ code: 0 });
    p.sync.destroy();
    // A daemonized grandchild keeps fd 3 open (as conmon does): the message still arrives at once.
    const pidFile = join(tmp.dir, 'holder.pid');
    try {
      const held = await runner.spawnWithSyncPipe({
        cmd: 'sh',
        args: ['-c', `(echo '{"data": 7}' >&3; exec sleep 3600) & echo $! > ${pidFile}`],
      });
      expect(await readUntil(held.sync, /\n/)).toBe('{"data": 7}\n');
      // Read while the holder still runs (it would for an hour): no EOF was needed.
      expect(await runsFromPidFile(pidFile)).toBe(true);
      held.sync.destroy();
    } finally {
      await killLeftover(pidFile);
    }
  }, 30_000);

  it('runs hooks before the process starts', async () => {
    const marker = join(tmp.dir, 'hook-marker');
    const remove = runner.addHook((cmd) => {
      if (cmd === 'touch') throw new Error('injected failure');
    });
    try {
      await expect(runner.runDetached({ cmd: 'touch', args: [marker] })).rejects.toThrow('injected failure');
      await expect(runner.spawnWithSyncPipe({ cmd: 'touch', args: [marker] })).rejects.toThrow('injected failure');
      await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      remove();
    }
  });

  it('runs 100 at once leaving no zombie and no open fd', async () => {
    await settle();
    const fdsBefore = await openFds();
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => runner.runDetached({ cmd: 'sh', args: ['-c', `exit $((${i} % 5))`] })));
    results.forEach((r, i) => expect(r.code).toBe(i % 5));
    const synced = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const p = await runner.spawnWithSyncPipe({ cmd: 'sh', args: ['-c', `echo ${i} >&3`] });
        const text = await readUntil(p.sync, /\n/);
        await p.exited;
        p.sync.destroy();
        return text;
      }),
    );
    synced.forEach((t, i) => expect(t).toBe(`${i}\n`));
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? runner.runDetached({ cmd: 'isulats-no-such-binary', args: [] }) : runner.spawnWithSyncPipe({ cmd: 'isulats-no-such-binary', args: [] })).catch(
          () => undefined,
        ),
      ),
    );
    await settle();
    expect(await openFds()).toBe(fdsBefore);
    expect(await zombies()).toEqual([]);
  }, 120_000);
});

describe.each([
  ['native', '1'],
  ['node', '0'],
])('ProcessRunner.spawnWithPipes through %s spawning', (path, flag) => {
  const runner = new ProcessRunner();
  const tmp = useSpawnPath(flag, 'ist-prp-');

  it('takes the path under test, forking this process only through child_process', async () => {
    if (path === 'native') expect(hasSpawnWithPipes()).toBe(true);
    expect(nativeWithPipesEnabled()).toBe(path === 'native');
    const before = childProcessSpawns();
    const p = await runner.spawnWithPipes({ cmd: 'true', args: [] }, 1);
    await p.exited;
    p.pipes.forEach((s) => s.destroy());
    expect(childProcessSpawns() - before).toBe(path === 'native' ? 0 : 1);
  });

  it('connects fds 3, 4 and 5 both ways, in a session of its own with stdio on /dev/null', async () => {
    // Like conmon's exec handshake: write on 3, read a start byte from 4, write on 5.
    const script = 'echo sync >&3; read -r go <&4; echo "attach $go $(readlink /proc/$$/fd/0) $(cut -d" " -f6 /proc/$$/stat) $ISULATS_T" >&5; exit 6';
    const p = await runner.spawnWithPipes({ cmd: 'sh', args: ['-c', script], extraEnv: { ISULATS_T: 'pipes' } }, 3);
    try {
      expect(p.pipes).toHaveLength(3);
      expect(await readUntil(p.pipes[0]!, /\n/)).toBe('sync\n');
      p.pipes[1]!.write('ok\n');
      expect(await readUntil(p.pipes[2]!, /\n/)).toBe(`attach ok /dev/null ${p.pid} pipes\n`);
      expect(await p.exited).toEqual({ code: 6 });
    } finally {
      p.pipes.forEach((s) => s.destroy());
    }
  });

  it('rejects like spawn when the binary cannot be run, and leaves no fd or zombie', async () => {
    await settle();
    const fdsBefore = await openFds();
    await expect(runner.spawnWithPipes({ cmd: 'isulats-no-such-binary', args: [] }, 3)).rejects.toMatchObject({
      code: 'ENOENT',
      message: 'spawn isulats-no-such-binary ENOENT',
    });
    const runs = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const p = await runner.spawnWithPipes({ cmd: 'sh', args: ['-c', `echo ${i} >&5`], cwd: tmp.dir }, 3);
        const text = await readUntil(p.pipes[2]!, /\n/);
        await p.exited;
        p.pipes.forEach((s) => s.destroy());
        return text;
      }),
    );
    runs.forEach((t, i) => expect(t).toBe(`${i}\n`));
    await settle();
    expect(await openFds()).toBe(fdsBefore);
    expect(await zombies()).toEqual([]);
  }, 60_000);
});

describe.each([
  ['native', '1'],
  ['node', '0'],
])('ProcessRunner.spawnPiped through %s spawning', (path, flag) => {
  const runner = new ProcessRunner();
  useSpawnPath(flag, 'ist-prpi-');

  it('takes the path under test', () => {
    if (path === 'native') expect(hasSpawnPiped()).toBe(true);
    expect(nativePipedEnabled()).toBe(path === 'native');
  });

  it('streams stdin, stdout and stderr while the child runs, in our session, with extraEnv', async () => {
    const script = 'read -r line; echo "out $line $ISULATS_T $(cut -d" " -f6 /proc/$$/stat)"; echo err >&2; exit 5';
    const p = await runner.spawnPiped({ cmd: 'sh', args: ['-c', script], extraEnv: { ISULATS_T: 'piped' } });
    const out = readUntil(p.stdout, /\n/);
    const err = readUntil(p.stderr, /\n/);
    p.stdin.end('hello\n');
    expect(await out).toBe(`out hello piped ${(await procStat('self'))[3]}\n`);
    expect(await err).toBe('err\n');
    expect(await p.exited).toEqual({ code: 5 });
    p.stdout.destroy();
    p.stderr.destroy();
  });

  it('rejects like spawn when the binary cannot be run, and leaves no fd or zombie', async () => {
    await settle();
    const fdsBefore = await openFds();
    await expect(runner.spawnPiped({ cmd: 'isulats-no-such-binary', args: [] })).rejects.toMatchObject({ code: 'ENOENT', message: 'spawn isulats-no-such-binary ENOENT' });
    const outputs = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const p = await runner.spawnPiped({ cmd: 'sh', args: ['-c', `echo ${i}; exit ${i % 4}`] });
        p.stdin.end();
        const text = await readUntil(p.stdout, /\n/);
        const exit = await p.exited;
        p.stdout.destroy();
        p.stderr.destroy();
        return { text, exit };
      }),
    );
    outputs.forEach((o, i) => expect(o).toEqual({ text: `${i}\n`, exit: { code: i % 4 } }));
    await settle();
    expect(await openFds()).toBe(fdsBefore);
    expect(await zombies()).toEqual([]);
  }, 60_000);
});
