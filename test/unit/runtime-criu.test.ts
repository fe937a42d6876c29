// Why checkpoint/restore answers Unimplemented: criu check's verdict, read
// from stand-in criu scripts (failing as this host's does, passing, missing).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { criuProblem } from '../../src/runtime/oci/criu.js';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';

describe('criuProblem', () => {
  const dir = mkdtempSync('/tmp/ist-criu-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fakeCriu = (name: string, body: string) => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };

  it('names the first error criu check prints', async () => {
    const criu = fakeCriu('vdso', [
      'echo "Error (criu/vdso.c:381): vdso: Unexpected rt vDSO area bounds" >&2',
      'echo "Error (criu/crtools.c:260): Could not initialize kernel features detection." >&2',
      'exit 1',
    ].join('\n'));
    expect(await criuProblem(new ProcessRunner(), criu)).toBe('criu check failed: vdso: Unexpected rt vDSO area bounds');
  });

  it('says so when criu is missing, and nothing when the check passes', async () => {
    expect(await criuProblem(new ProcessRunner(), join(dir, 'absent'))).toBe(`${join(dir, 'absent')} is not installed`);
    expect(await criuProblem(new ProcessRunner(), fakeCriu('ok', 'echo "Looks good."'))).toBeUndefined();
  });
});
