// build/ttyexec, the parent of a TTY exec's process, driven as the daemon drives it (a socket on
// its fd 3) with stand-ins for runc: shell commands that fail, or that leave a process behind and
// name it in the pid file as `runc exec -d` does. Real processes, no rig.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HELPER = join(import.meta.dirname, '../../build/ttyexec/ttyexec');
let dir: string;

beforeAll(async () => {
  expect(spawnSync(process.execPath, ['scripts/build-pause.mjs'], { stdio: 'inherit' }).status).toBe(0);
  dir = await mkdtemp('/tmp/itx-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts the helper with `script` (sh -c) as its runtime; `go` writes 'g' (else its socket ends). */
async function runHelper(script: string, go: boolean): Promise<{ lines: string[]; code: number | null }> {
  const pidFile = join(dir, `pid-${Math.random().toString(36).slice(2)}`);
  const child = spawn(HELPER, [pidFile, '/bin/sh', '-c', script.replaceAll('PIDFILE', pidFile)], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const daemon = child.stdio[3] as Duplex;
  let out = '';
  daemon.on('data', (b: Buffer) => (out += b.toString()));
  if (go) daemon.write('g');
  else daemon.end();
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { lines: out.split('\n').filter(Boolean), code };
}

describe('ttyexec', () => {
  it("runs nothing when the daemon's socket ends before 'g'", async () => {
    const mark = join(dir, 'ran');
    const r = await runHelper(`touch ${mark}`, false);
    expect(r).toEqual({ lines: [], code: 0 });
    expect(existsSync(mark)).toBe(false);
  });

  it("reports runc's last line when it fails", async () => {
    const r = await runHelper('echo "level=warning first" >&2; echo "exec failed: no such file" >&2; exit 1', true);
    expect(r).toEqual({ lines: ['error exec failed: no such file'], code: 1 });
  });

  it('waits for the process runc left behind (reparented to it) and reports its exit code', async () => {
    const r = await runHelper('sh -c "sleep 0.3; exit 7" & echo $! > PIDFILE', true);
    expect(r.lines).toEqual([expect.stringMatching(/^pid \d+$/), 'exit 7']);
    expect(r.code).toBe(0);
  });

  it('reports 128 + the signal that ended the process', async () => {
    const r = await runHelper('sh -c "sleep 0.2; kill -KILL \\$\\$" & echo $! > PIDFILE', true);
    expect(r.lines.at(-1)).toBe('exit 137');
  });
});
