// The daemon's exit watch on a real directory (inotify): conmon renames each exit file into place
// under the container's ID; its temp files and other names are not containers. One call per
// container at a time, and a file seen again while its call runs is handled once more after it.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tryWatchExitFiles, watchExitFiles, type ExitWatch } from '../../src/runtime/container/exit-watch.js';
import { waitFor } from '../rig/wait.js';

const ID_A = 'a1'.repeat(32);
const ID_B = 'b2'.repeat(32);

describe('watchExitFiles', () => {
  let dir = '';
  let watch: ExitWatch | undefined;

  afterEach(() => {
    watch?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** As conmon writes it (g_file_set_contents): a temp file, renamed into place. */
  const writeExit = (id: string, code: number) => {
    const temp = join(dir, `${id}.XYZ${code}`);
    writeFileSync(temp, String(code));
    renameSync(temp, join(dir, id));
  };

  it('hands over each container ID once per file, never a temp file or another name', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ist-exitw-'));
    const seen: string[] = [];
    watch = watchExitFiles(dir, async (id) => void seen.push(id), (id, e) => seen.push(`error ${id}: ${e.message}`));
    writeExit(ID_A, 3);
    writeFileSync(join(dir, 'not-a-container'), '0');
    writeExit(ID_B, 0);
    await waitFor(async () => seen.includes(ID_A) && seen.includes(ID_B), { timeoutMs: 5_000, intervalMs: 10, what: 'both exits' });
    expect(seen.every((id) => id === ID_A || id === ID_B)).toBe(true);
  });

  it('runs one call per container at a time, and once more for a file seen while it ran; errors go to onError', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ist-exitw-'));
    let running = 0;
    let most = 0;
    let calls = 0;
    let markerSeen = false;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const errors: string[] = [];
    watch = watchExitFiles(dir, async (id) => {
      if (id === ID_B) {
        markerSeen = true;
        return;
      }
      running++;
      most = Math.max(most, running);
      calls++;
      try {
        if (calls === 1) await held;
        else throw new Error('runc delete failed');
      } finally {
        running--;
      }
    }, (id, e) => errors.push(`${id}: ${e.message}`));
    writeExit(ID_A, 1);
    await waitFor(async () => calls === 1, { timeoutMs: 5_000, intervalMs: 10, what: 'the first call' });
    writeExit(ID_A, 2);
    writeExit(ID_A, 3);
    // inotify delivers a watch's events in order: once B's file is seen, so were A's two.
    writeExit(ID_B, 0);
    await waitFor(async () => markerSeen, { timeoutMs: 5_000, intervalMs: 10, what: 'the marker exit' });
    expect(calls).toBe(1);
    release();
    await waitFor(async () => errors.length === 1, { timeoutMs: 5_000, intervalMs: 10, what: 'the call after the held one' });
    expect(calls).toBe(2);
    expect(most).toBe(1);
    expect(errors).toEqual([`${ID_A}: runc delete failed`]);
  });

  it('a watch that cannot be made (here: no such dir; on nodes: out of inotify watches) is one warning, not a failure', () => {
    const warnings: string[] = [];
    const missing = join(tmpdir(), `ist-exitw-missing-${process.pid}`);
    const made = tryWatchExitFiles(missing, async () => undefined, () => undefined, (m) => warnings.push(m));
    expect(made).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`cannot watch ${missing} for container exits`);
    expect(warnings[0]).toContain('released by the next call that reads its container');
  });
});
