// contrib/systemd/isulats.service as shipped: its ExecStartPost readiness wait, run by sh as
// systemd would run it (with "$$" turned into "$" and MAINPID set), against a socket path of this
// test's own. A daemon that died at start must fail the wait at once, not after its 60 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const UNIT = join(import.meta.dirname, '..', '..', 'contrib', 'systemd', 'isulats.service');

function startPostScript(socket: string): string {
  const line = readFileSync(UNIT, 'utf8').split('\n').find((l) => l.startsWith('ExecStartPost='))!;
  const m = /^ExecStartPost=\/bin\/sh -c '(.*)'$/.exec(line);
  if (!m) throw new Error(`unexpected ExecStartPost: ${line}`);
  return m[1]!.replaceAll('$$', '$').replaceAll('/var/run/isulats/isulats.sock', socket);
}

/** Exit code of the wait, or 'still waiting' once the daemon's own socket timeout is clearly not what ended it. */
function runWait(script: string, mainPid: number, graceMs: number): Promise<number | 'still waiting'> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', script], { env: { PATH: '/usr/bin:/bin', MAINPID: String(mainPid) }, stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('still waiting');
    }, graceMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
}

describe('the shipped systemd unit', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ist-unit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails the start-up wait when the main process is gone, long before the socket timeout', async () => {
    const dead = spawn('/bin/true');
    await new Promise((r) => dead.on('exit', r));
    // 20 s of a 60 s wait: only the dead-process check ends it inside that.
    expect(await runWait(startPostScript(join(dir, 'isulats.sock')), dead.pid!, 20_000)).toBe(1);
  });

  it('ends the wait with success once the socket exists while the main process lives', async () => {
    const socket = join(dir, 'isulats.sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(socket, r));
    try {
      expect(await runWait(startPostScript(socket), process.pid, 20_000)).toBe(0);
    } finally {
      server.close();
    }
  });
});
