import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, writeFileAtomic, writeJsonAtomic } from '../../src/runtime/store/atomic-file.js';
import { removeHeldLock, withFileLock } from '../../src/runtime/store/lock.js';

let dir: string;
const addon = join(process.cwd(), 'build', 'Release', 'isulats.node');

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  dir = await mkdtemp(join(tmpdir(), 'ist-lock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('withFileLock', () => {
  it('runs exclusive holders one at a time', async () => {
    const lock = join(dir, 'a.lock');
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        withFileLock(lock, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await sleep(10);
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
  });

  it('a waiter whose signal aborts leaves at once, never holds the lock, and keeps the queue in order', async () => {
    const lock = join(dir, 'abort.lock');
    let release!: () => void;
    const held = withFileLock(lock, () => new Promise<void>((resolve) => (release = resolve)));
    await sleep(20);
    const exclusive = new AbortController();
    const shared = new AbortController();
    let ran = 0;
    // One queued in this process, one polling the flock (shared waiters do), one queued behind both.
    const waiting = withFileLock(lock, async () => void ran++, { signal: exclusive.signal });
    const polling = withFileLock(lock, async () => void ran++, { shared: true, signal: shared.signal });
    const after = withFileLock(lock, async () => 'third');
    exclusive.abort(new Error('exclusive waiter gone'));
    shared.abort(new Error('shared waiter gone'));
    await expect(waiting).rejects.toThrow('exclusive waiter gone');
    await expect(polling).rejects.toThrow('shared waiter gone');
    release();
    expect(await after).toBe('third');
    await held;
    expect(ran).toBe(0);
    await expect(withFileLock(lock, async () => 'late', { signal: AbortSignal.abort(new Error('gone before')) })).rejects.toThrow('gone before');
  });

  it('lets shared holders in together', async () => {
    const lock = join(dir, 'b.lock');
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 3 }, () =>
        withFileLock(
          lock,
          async () => {
            inside++;
            maxInside = Math.max(maxInside, inside);
            await sleep(30);
            inside--;
          },
          { shared: true },
        ),
      ),
    );
    expect(maxInside).toBe(3);
  });

  it('times out while another process holds the lock, and gets it once that process is SIGKILLed', async () => {
    const lock = join(dir, 'c.lock');
    const script = `const n=require(${JSON.stringify(addon)});const fs=require('fs');const fd=fs.openSync(${JSON.stringify(lock)},'a');n.flock(fd,true,false);process.stdout.write('held\\n');setInterval(()=>{},1000);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.once('data', () => resolve());
        child.once('exit', () => reject(new Error('holder exited early')));
      });
      await expect(withFileLock(lock, async () => 'no', { timeoutMs: 200 })).rejects.toThrow(/timed out/);
      child.kill('SIGKILL');
      expect(await withFileLock(lock, async () => 'yes', { timeoutMs: 5_000 })).toBe('yes');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('removes a lock file only from inside its exclusive holder', async () => {
    const lock = join(dir, 'r.lock');
    await withFileLock(lock, async () => undefined);
    removeHeldLock(lock);
    expect(existsSync(lock)).toBe(true);
    await withFileLock(lock, async () => removeHeldLock(lock));
    expect(existsSync(lock)).toBe(false);
  });

  it('lets a waiter whose lock file was removed lock the path anew, one holder at a time', async () => {
    const lock = join(dir, 'e.lock');
    // Other spellings of the same path: each is its own in-process queue, so the three contend
    // through flock alone, as three processes would.
    const alias = (dots: number) => `${dir}/${'./'.repeat(dots)}e.lock`;
    let inside = 0;
    let most = 0;
    const ran: string[] = [];
    const enter = async (name: string) => {
      inside++;
      most = Math.max(most, inside);
      ran.push(name);
      await sleep(80);
      inside--;
    };
    let waiter!: Promise<void>;
    await withFileLock(lock, async () => {
      waiter = withFileLock(alias(1), () => enter('waiter'));
      await sleep(50);
      removeHeldLock(lock);
      expect(existsSync(lock)).toBe(false);
    });
    // Comes after the removal: opens (creates) the path's new file.
    const late = withFileLock(alias(2), () => enter('late'));
    await Promise.all([waiter, late]);
    expect(ran.sort()).toEqual(['late', 'waiter']);
    expect(most).toBe(1);
  });

  it('releases the lock when the function throws', async () => {
    const lock = join(dir, 'd.lock');
    await expect(withFileLock(lock, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await withFileLock(lock, async () => 1, { timeoutMs: 500 })).toBe(1);
  });
});

describe('atomic files', () => {
  it('replaces content and mode without leaving temp files', async () => {
    const path = join(dir, 'f.json');
    await writeFile(path, 'old');
    await writeFileAtomic(path, 'new', 0o600);
    expect(await readFile(path, 'utf8')).toBe('new');
    const { stat, readdir } = await import('node:fs/promises');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('round-trips JSON and falls back for missing files', async () => {
    const path = join(dir, 'g.json');
    await writeJsonAtomic(path, { a: [1, 2] });
    expect(await readJson(path)).toEqual({ a: [1, 2] });
    expect(await readJson(join(dir, 'missing.json'), { none: true })).toEqual({ none: true });
    await expect(readJson(join(dir, 'missing.json'))).rejects.toThrow(/ENOENT/);
  });
});
