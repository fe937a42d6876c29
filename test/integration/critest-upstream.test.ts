// The upstream CRI validation suite, unmodified: critest of cri-tools v1.26.1 (built by
// scripts/build-critest.sh from ../shared/cri-tools) against one real `isulats daemon` on the
// embedded engine. The suite pulls its images by their upstream names; the rig builds them
// (test/rig/critest-images.ts) and serves them from its local registry through registry mirrors
// for registry.k8s.io and gcr.io, so the run is offline. One spec pins an upstream digest no
// local build can match, and fails for every runtime here (containerd included): it is the only
// failure allowed.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCritest, readGinkgoReport } from '../rig/critest.js';
import { pushCritestImages, writeCritestMirrors } from '../rig/critest-images.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { pidAlive, run, signalPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const DIGEST_SPEC = 'public image with digest should be pulled and removed [Conformance]';
const SPECS_IN_SUITE = 80;
/** Bounds the suite (ginkgo's own timeout) and the test around it. */
const SUITE_TIMEOUT_MIN = 30;

const critest = findCritest();
if ('absent' in critest) console.log(`critest-upstream: skipped, the suite is not available: ${critest.absent}`);

describe('upstream CRI validation suite (critest v1.26.1) against isulats daemon', () => {
  it.skipIf('absent' in critest)(`passes all ${SPECS_IN_SUITE} specs but the digest-pinned image one`, async () => {
    const env = rigEnv();
    const dir = await makeTempDir('ist-ct-');
    let daemon: IsulatsDaemon | undefined;
    const shmBefore = await shmSegments();
    try {
      await pushCritestImages(env.ISULATS_TEST_REGISTRY);
      const certsDir = join(dir, 'certs.d');
      await writeCritestMirrors(certsDir, env.ISULATS_TEST_REGISTRY);
      daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE, extraConfig: { 'registry-config-dir': certsDir } });

      const report = join(dir, 'report.json');
      const logPath = join(dir, 'critest.log');
      const code = await runCritest((critest as { path: string }).path, [
        `--runtime-endpoint=${daemon.endpoint}`, `--image-endpoint=${daemon.endpoint}`,
        `--ginkgo.json-report=${report}`, '--ginkgo.no-color', `--ginkgo.timeout=${SUITE_TIMEOUT_MIN}m`,
      ], dir, logPath);
      const log = await readFile(logPath, 'utf8');
      const summary = log.split('\n').filter((l) => /^Ran \d+ of \d+ Specs|^(SUCCESS|FAIL)! /.test(l.trim()));
      console.log(`critest exited ${code}: ${summary.join(' | ') || '(no summary line)'}`);
      const results = await readGinkgoReport(report);
      for (const spec of results.failed) console.log(`critest failed: ${spec.name}\n    ${spec.failure ?? spec.state}`);

      expect(results.specs.length, 'specs that ran').toBe(SPECS_IN_SUITE);
      expect(results.failed.map((s) => s.name).filter((n) => !n.endsWith(DIGEST_SPEC))).toEqual([]);
      expect(results.passed.length).toBeGreaterThanOrEqual(SPECS_IN_SUITE - 1);
    } finally {
      await daemon?.cleanup();
      await removeNewShmSegments(shmBefore);
      await removeTempDir(dir);
    }
  }, (SUITE_TIMEOUT_MIN + 10) * 60_000);
});

/** Runs the suite to its end (its log in `logPath`); a run past its own timeout is killed by PID. */
function runCritest(bin: string, args: string[], cwd: string, logPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = openSync(logPath, 'w');
    const child = spawn(bin, args, { cwd, stdio: ['ignore', out, out] });
    closeSync(out);
    const timer = setTimeout(() => child.pid && signalPid(child.pid, 'SIGKILL'), (SUITE_TIMEOUT_MIN + 5) * 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

interface ShmSegment { id: string; cpid: number; nattch: number }

/** The host IPC namespace's System V shared memory segments. */
async function shmSegments(): Promise<ShmSegment[]> {
  const text = await readFile('/proc/sysvipc/shm', 'utf8').catch(() => '');
  return text.trim().split('\n').slice(1).map((line) => line.trim().split(/\s+/)).filter((f) => f.length > 6)
    .map((f) => ({ id: f[1]!, cpid: Number(f[4]), nattch: Number(f[6]) }));
}

/**
 * The host-IPC specs make segments on the host with ipcmk and leave them: remove those that
 * appeared during the run, are attached nowhere and whose creator (an ipcmk) is gone.
 */
async function removeNewShmSegments(before: ShmSegment[]): Promise<void> {
  const known = new Set(before.map((s) => s.id));
  for (const segment of await shmSegments()) {
    if (known.has(segment.id) || segment.nattch !== 0 || (await pidAlive(segment.cpid))) continue;
    await run('ipcrm', ['-m', segment.id], { check: false });
  }
}
