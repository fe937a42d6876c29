// What watching costs: median per-call latency of Version and ListPodSandbox against the rig's
// containerd 1.6, directly and through `isulats trace` (its own process, printing every line to
// /dev/null), with the same in-process CRI client, calls alternated so both see the same load.
// Usage: node bench/trace/run.mjs [CALLS]   (default 200 per method and path; needs root)
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { startContainerd, type Containerd } from '../../test/rig/containerd.js';
import { REPO_ROOT } from '../../test/rig/cli.js';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import { signalPid } from '../../test/rig/proc.js';
import { waitFor } from '../../test/rig/wait.js';
import { runBenchWithRig } from '../bench-rig.js';

const calls = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? '200');
const METHODS = ['Version', 'ListPodSandbox'] as const;
const WARMUP = 20;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)] ?? NaN;

async function timeOne(cri: RawCriClient, method: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  await cri.runtime(method, {});
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

runBenchWithRig(async (rig) => {
  let containerd: Containerd | undefined;
  const devNull = openSync('/dev/null', 'w');
  const sock = join(rig.dir, 't.sock');
  let tracePid: number | undefined;
  try {
    containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] });
    rig.containerd = containerd;
    let ready = false;
    const trace = spawn(process.execPath, ['bin/isulats', 'trace', '--listen', sock, '-r', containerd.endpoint], { cwd: REPO_ROOT, stdio: ['ignore', devNull, 'pipe'] });
    tracePid = trace.pid;
    trace.stderr!.on('data', (b: Buffer) => { if (b.toString().includes('tracing ')) ready = true; });
    await waitFor(async () => ready, { timeoutMs: 20_000, intervalMs: 50, what: 'isulats trace' });

    const paths = { direct: openCriClient(containerd.endpoint), trace: openCriClient(`unix://${sock}`) };
    const times: Record<string, number[]> = {};
    for (const m of METHODS) {
      for (const [name, cri] of Object.entries(paths)) for (let i = 0; i < WARMUP; i++) await timeOne(cri, m);
      for (let i = 0; i < calls; i++) {
        for (const [name, cri] of Object.entries(paths)) (times[`${m} ${name}`] ??= []).push(await timeOne(cri, m));
      }
    }
    for (const cri of Object.values(paths)) cri.close();
    console.log(`calls per method and path: ${calls} (after ${WARMUP} warm-up calls)`);
    console.log('method          direct p50   trace p50   added p50   direct p90   trace p90');
    for (const m of METHODS) {
      const d = times[`${m} direct`]!;
      const t = times[`${m} trace`]!;
      const f = (x: number) => `${x.toFixed(2)} ms`.padStart(11);
      console.log(`${m.padEnd(15)} ${f(quantile(d, 0.5))} ${f(quantile(t, 0.5))} ${f(quantile(t, 0.5) - quantile(d, 0.5))} ${f(quantile(d, 0.9))} ${f(quantile(t, 0.9))}`);
    }
  } finally {
    if (tracePid) signalPid(tracePid, 'SIGTERM');
  }
});
