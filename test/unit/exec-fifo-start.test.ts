// The start through runc's exec FIFO (src/runtime/oci/exec-fifo-start.ts), against a stand-in for
// runc's init: a shell that opens the FIFO for writing, writes its byte and closes it before it
// goes on, as runc init does at its exec. Real processes and a real FIFO; runc itself is in
// test/integration/runtime-start-fifo.test.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startThroughExecFifo, startWithoutRunc } from '../../src/runtime/oci/exec-fifo-start.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ist-fifo-'));
  dirs.push(d);
  expect(spawnSync('mkfifo', ['-m', '0622', join(d, 'exec.fifo')]).status).toBe(0);
  return d;
}

/** A stand-in init running `script` (with $F the FIFO); its pid. */
function init(dir: string, script: string): ChildProcess {
  const c = spawn('sh', ['-c', script], { env: { ...process.env, F: join(dir, 'exec.fifo') }, stdio: 'ignore' });
  children.push(c);
  return c;
}

const exited = (c: ChildProcess) => new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : c.once('exit', () => resolve())));

describe('start through the exec FIFO', () => {
  it('releases an init that waits on the FIFO, removes the FIFO, and leaves the process running', async () => {
    const dir = stateDir();
    const c = init(dir, 'exec 3>"$F"; printf 0 >&3; exec 3>&-; exec sleep 30');
    await expect(startThroughExecFifo(dir, c.pid!, 5000)).resolves.toBe(true);
    expect(existsSync(join(dir, 'exec.fifo'))).toBe(false);
    expect(c.exitCode).toBeNull();
  });

  it('works when the init opens the FIFO only after the start is waiting', async () => {
    const dir = stateDir();
    const gate = join(dir, 'go');
    const c = init(dir, `while [ ! -e "${gate}" ]; do sleep 0.02; done; exec 3>"$F"; printf 0 >&3; exec 3>&-; exec sleep 30`);
    let settled = false;
    const start = startThroughExecFifo(dir, c.pid!, 10_000).finally(() => void (settled = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(settled).toBe(false); // waiting on an init that has not opened the FIFO
    writeFileSync(gate, '');
    await expect(start).resolves.toBe(true);
    expect(existsSync(join(dir, 'exec.fifo'))).toBe(false);
  });

  it('succeeds for a process that ran and exited at once (its byte was written)', async () => {
    const dir = stateDir();
    const c = init(dir, 'exec 3>"$F"; printf 0 >&3');
    await expect(startThroughExecFifo(dir, c.pid!, 5000)).resolves.toBe(true);
    await exited(c);
  });

  it('fails, as runc does, when the init died before it opened the FIFO', async () => {
    const dir = stateDir();
    const c = init(dir, 'exit 3');
    await exited(c);
    await expect(startThroughExecFifo(dir, c.pid!, 5000)).rejects.toThrow('container process is already dead');
  });

  it('fails when the FIFO was closed without its byte', async () => {
    const dir = stateDir();
    const c = init(dir, 'exec 3>"$F"; exec 3>&-; exec sleep 30');
    await expect(startThroughExecFifo(dir, c.pid!, 5000)).rejects.toThrow('cannot start an already running container');
  });

  it('gives up after its timeout while a live init never opens the FIFO', async () => {
    const dir = stateDir();
    const c = init(dir, 'exec sleep 30');
    await expect(startThroughExecFifo(dir, c.pid!, 300)).rejects.toThrow('did not take the exec FIFO within 300 ms');
  });

  it('does nothing and says so when there is no FIFO (a started container, or a runtime of another kind)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ist-fifo-'));
    dirs.push(dir);
    await expect(startThroughExecFifo(dir, process.pid, 1000)).resolves.toBe(false);
  });

  it('is used for runc only, and not with ISULATS_RUNC_START=runc', () => {
    expect(startWithoutRunc('/usr/sbin/runc')).toBe(true);
    expect(startWithoutRunc('runc')).toBe(true);
    expect(startWithoutRunc('/usr/bin/crun')).toBe(false);
    process.env.ISULATS_RUNC_START = 'runc';
    try {
      expect(startWithoutRunc('/usr/sbin/runc')).toBe(false);
    } finally {
      delete process.env.ISULATS_RUNC_START;
    }
  });
});
