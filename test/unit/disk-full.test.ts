// The pure parts of working on a full disk: which errors are a refusal to store more, a write that
// tolerates them, one warning per object, exec scratch files off a full file system, and log lines
// dropped instead of thrown. /dev/full stands in for a full disk (every write fails with ENOSPC).
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isWriteRefused, RefusedWrites, writeUnlessRefused } from '../../src/runtime/store/write-refused.js';
import { EXEC_SCRATCH_PREFIX, writeExecScratch } from '../../src/runtime/exec/exec-scratch.js';
import { sessionPrefix } from '../../src/runtime/exec/session-dir.js';
import { currentCreator, processStartTime } from '../../src/runtime/recovery/creator.js';
import { removeDeadExecScratch } from '../../src/runtime/recovery/exec-sessions.js';
import { dropRefusedLines, stdoutWriter } from '../../src/daemon/logger.js';

const errno = (code: string) => Object.assign(new Error(`${code}: test`), { code });
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync('/tmp/ist-dfull-');
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('refused writes', () => {
  it('counts a full disk, a full quota and a read-only file system, nothing else', () => {
    expect(['ENOSPC', 'EDQUOT', 'EROFS'].map((c) => isWriteRefused(errno(c)))).toEqual([true, true, true]);
    expect(['ENOENT', 'EACCES', 'EIO'].map((c) => isWriteRefused(errno(c)))).toEqual([false, false, false]);
    expect(isWriteRefused(new Error('plain'))).toBe(false);
    expect(isWriteRefused(undefined)).toBe(false);
  });

  it('writeUnlessRefused: true once written, false (and told) when refused, other errors thrown', async () => {
    const told: string[] = [];
    const refused = (e: Error) => void told.push((e as NodeJS.ErrnoException).code!);
    expect(await writeUnlessRefused(async () => undefined, refused)).toBe(true);
    expect(await writeUnlessRefused(async () => {
      throw errno('ENOSPC');
    }, refused)).toBe(false);
    await expect(writeUnlessRefused(async () => {
      throw errno('EIO');
    }, refused)).rejects.toThrow('EIO');
    expect(told).toEqual(['ENOSPC']);
  });

  it('warns once per object while refused, and once when written again', () => {
    const warnings: string[] = [];
    const writes = new RefusedWrites((m) => warnings.push(m));
    for (let i = 0; i < 3; i++) writes.refused('a', 'container a: its exit', errno('ENOSPC'));
    writes.refused('b', 'pod b: its stop', errno('EDQUOT'));
    expect(writes.size).toBe(2);
    writes.written('a', 'container a: its exit');
    writes.written('a', 'container a: its exit');
    writes.forget('b');
    writes.written('b', 'pod b: its stop');
    expect(warnings).toEqual([
      'container a: its exit: not written (ENOSPC); answered from what was observed, written at a later call',
      'pod b: its stop: not written (EDQUOT); answered from what was observed, written at a later call',
      'container a: its exit: written now',
    ]);
    expect(writes.size).toBe(0);
  });
});

describe('exec scratch files', () => {
  it('go beside runc state when it takes them, and are removed by release', () => {
    const dir = tempDir();
    const scratch = writeExecScratch(dir, 't1', '{"args":["true"]}', tempDir());
    expect(scratch.specFile).toBe(join(dir, 'exec-t1.json'));
    expect(scratch.pidFile).toBe(join(dir, 'exec-t1.pid'));
    expect(readFileSync(scratch.specFile, 'utf8')).toBe('{"args":["true"]}');
    scratch.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('go to a private dir under the fallback root when the state file system is full', () => {
    const dir = tempDir();
    const fallback = tempDir();
    // The spec's path leads to /dev/full: its write fails with ENOSPC, as on a full disk.
    symlinkSync('/dev/full', join(dir, 'exec-t2.json'));
    const scratch = writeExecScratch(dir, 't2', '{"args":["rm","/fill"]}', fallback);
    expect(readdirSync(dir)).toEqual([]);
    const [made] = readdirSync(fallback);
    // Named by its owner (this process), so recovery can tell when it is garbage.
    expect(made!.startsWith(`${EXEC_SCRATCH_PREFIX}${sessionPrefix(currentCreator())}`)).toBe(true);
    expect(scratch.specFile).toBe(join(fallback, made!, 'process.json'));
    expect(scratch.pidFile).toBe(join(fallback, made!, 'pid'));
    expect(readFileSync(scratch.specFile, 'utf8')).toBe('{"args":["rm","/fill"]}');
    scratch.release();
    expect(readdirSync(fallback)).toEqual([]);
  });

  it('other failures are thrown and leave nothing', () => {
    const fallback = tempDir();
    expect(() => writeExecScratch(join(tempDir(), 'gone'), 't3', '{}', fallback)).toThrow(/ENOENT/);
    expect(readdirSync(fallback)).toEqual([]);
  });
});

describe('exec scratch dirs left by a killed process', () => {
  it('go once their owner is dead; live owners, other names and links stay', async () => {
    const root = tempDir();
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    const dead = { pid: child.pid!, startTime: await processStartTime(child.pid!), bootId: currentCreator().bootId };
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    const deadDir = `${EXEC_SCRATCH_PREFIX}${sessionPrefix(dead)}abc123`;
    const liveDir = `${EXEC_SCRATCH_PREFIX}${sessionPrefix(currentCreator())}def456`;
    for (const name of [deadDir, liveDir, 'isulats-exec-other', 'unrelated']) mkdirSync(join(root, name));
    symlinkSync(join(root, 'unrelated'), join(root, `${EXEC_SCRATCH_PREFIX}${sessionPrefix(dead)}lnk789`));
    expect(await removeDeadExecScratch(root)).toEqual([join(root, deadDir)]);
    expect(readdirSync(root).sort()).toEqual([`${EXEC_SCRATCH_PREFIX}${sessionPrefix(dead)}lnk789`, 'isulats-exec-other', liveDir, 'unrelated'].sort());
  });
});

describe('log lines on a full disk', () => {
  it('are dropped, not thrown, and counted in the first line that gets through', () => {
    let full = true;
    const written: string[] = [];
    const write = dropRefusedLines((line) => {
      if (full) throw errno('ENOSPC');
      written.push(line);
    });
    write('a\n');
    write('b\n');
    full = false;
    write('c\n');
    write('d\n');
    expect(written).toHaveLength(3);
    expect(JSON.parse(written[0]!)).toMatchObject({ level: 'warn', msg: 'log lines dropped: the disk refused them', dropped: 2 });
    expect(written.slice(1)).toEqual(['c\n', 'd\n']);
    expect(() => dropRefusedLines(() => {
      throw errno('EBADF');
    })('x\n')).toThrow('EBADF');
  });

  it('stdout on a full file is written directly: the refusal is thrown where it can be dropped', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      expect(() => stdoutWriter(fd)('line\n')).toThrow(/ENOSPC/);
      expect(() => dropRefusedLines(stdoutWriter(fd))('line\n')).not.toThrow();
    } finally {
      closeSync(fd);
    }
  });
});
