// The upstream CRI validation suite, unmodified: critest of cri-tools v1.34.0 (the conformance
// gate) and v1.26.1 (built by scripts/build-critest.sh from ../shared/cri-tools), each against one
// real `isulats daemon` on the embedded engine. The suite pulls its images by their upstream
// names; the rig builds them (test/rig/critest-images.ts) and serves them from its local registry
// through registry mirrors for registry.k8s.io and gcr.io, so the run is offline. One spec pins
// an upstream digest no local build can match, and fails for every runtime here (containerd
// included): it is the only failure allowed.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCritest, readGinkgoReport, type CritestRelease } from '../rig/critest.js';
import { pushCritestImages, writeCritestMirrors } from '../rig/critest-images.js';
import { openCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { pidAlive, run, signalPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const DIGEST_SPEC = 'public image with digest should be pulled and removed [Conformance]';
/** Bounds the suite (ginkgo's own timeout) and the test around it. */
const SUITE_TIMEOUT_MIN = 30;

/** critest's own test: AppArmor specs run only where the kernel has it enabled. */
const hostAppArmor = existsSync('/sys/module/apparmor/parameters/enabled')
  && readFileSync('/sys/module/apparmor/parameters/enabled', 'utf8').trim() === 'Y';

interface Announced { userNamespaces: boolean }

/**
 * The specs a release runs against the daemon (the rest skip themselves): v1.34.0 runs 93 on
 * any host here, its 9 AppArmor specs where the kernel has AppArmor, and its 6 user-namespace
 * specs once the default handler announces user namespaces; its 5 benchmarks never run.
 */
const RELEASES: Array<{ release: CritestRelease; specs: (a: Announced) => number }> = [
  { release: '1.34.0', specs: (a) => 93 + (hostAppArmor ? 9 : 0) + (a.userNamespaces ? 6 : 0) },
  { release: '1.26.1', specs: () => 80 },
];

for (const { release, specs } of RELEASES) {
  const critest = findCritest(release);
  if ('absent' in critest) console.log(`critest-upstream: v${release} skipped, the suite is not available: ${critest.absent}`);

  describe(`upstream CRI validation suite (critest v${release}) against isulats daemon`, () => {
    it.skipIf('absent' in critest)('passes every spec it runs but the digest-pinned image one', async () => {
      const env = rigEnv();
      const dir = await makeTempDir('ist-ct-');
      let daemon: IsulatsDaemon | undefined;
      const shmBefore = await shmSegments();
      try {
        await pushCritestImages(env.ISULATS_TEST_REGISTRY);
        const certsDir = join(dir, 'certs.d');
        await writeCritestMirrors(certsDir, env.ISULATS_TEST_REGISTRY);
        daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE, extraConfig: { 'registry-config-dir': certsDir } });
        const expected = specs(await announced(daemon.endpoint));

        const report = join(dir, 'report.json');
        const logPath = join(dir, 'critest.log');
        const code = await runCritest((critest as { path: string }).path, [
          `--runtime-endpoint=${daemon.endpoint}`, `--image-endpoint=${daemon.endpoint}`,
          `--ginkgo.json-report=${report}`, '--ginkgo.no-color', `--ginkgo.timeout=${SUITE_TIMEOUT_MIN}m`,
        ], dir, logPath);
        const log = await readFile(logPath, 'utf8');
        const summary = log.split('\n').filter((l) => /^Ran \d+ of \d+ Specs|^(SUCCESS|FAIL)! /.test(l.trim()));
        console.log(`critest v${release} exited ${code}: ${summary.join(' | ') || '(no summary line)'}`);
        const results = await readGinkgoReport(report);
        for (const spec of results.failed) console.log(`critest v${release} failed: ${spec.name}\n    ${spec.failure ?? spec.state}`);

        expect(results.failed.map((s) => s.name).filter((n) => !n.endsWith(DIGEST_SPEC))).toEqual([]);
        expect(results.specs.length, 'specs that ran').toBe(expected);
        expect(results.passed.length).toBeGreaterThanOrEqual(expected - 1);
      } finally {
        await daemon?.cleanup();
        await removeNewShmSegments(shmBefore);
        await removeTempDir(dir);
      }
    }, (SUITE_TIMEOUT_MIN + 10) * 60_000);
  });
}

/** What the daemon's default handler announces, which decides which specs skip themselves. */
async function announced(endpoint: string): Promise<Announced> {
  const client = openCriClient(endpoint);
  try {
    const status = await client.runtime('Status', {}) as { runtimeHandlers?: Array<{ name: string; features?: { userNamespaces?: boolean } }> };
    return { userNamespaces: !!status.runtimeHandlers?.find((h) => h.name === '')?.features?.userNamespaces };
  } finally {
    client.close();
  }
}

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
