// N exec sessions at once, each one client process as `crictl exec` runs (test/go-cri-client
// `exec`: its own start, its own connection, the Exec RPC under the client's deadline, then the
// session over SPDY), while a unary call is timed every `unaryEveryMs` from this process. The
// processes compete for the CPU with the runtime as a shell loop of crictl calls does.
import { spawn } from 'node:child_process';
import type { RawCriClient } from './cri-client.js';
import { stopPid } from './proc.js';

export interface ExecProcessBurstOptions {
  bin: string;
  endpoint: string;
  containerId: string;
  n: number;
  /** The client's -timeout (dial and Exec RPC), e.g. crictl's default '2s'. */
  deadline: string;
  argv: string[];
  /** What each session must print. */
  expect: string;
  /** A client process still running after this is stopped and counted as hung. */
  processTimeoutMs?: number;
  /** Timed unary calls during the burst (ListPodSandbox), when given. */
  unary?: { client: RawCriClient; everyMs?: number; timeoutMs?: number };
}

export interface ExecProcessBurstResult {
  ok: number;
  failed: number;
  /** Failures by class (the client's first error line, IDs and numbers elided). */
  errors: Record<string, number>;
  /** Sorted wall times of the successful processes, start to exit. */
  latenciesMs: number[];
  /** Wall time of the failed processes, sorted: a failure should come fast. */
  failureMs: number[];
  /** The whole burst, first spawn to last exit. */
  wallMs: number;
  unary: { calls: number; failed: number; maxMs: number };
}

/** An error line as a class: container IDs, URLs and numbers elided. */
export function errorClass(stderr: string): string {
  const line = stderr.trim().split('\n')[0] ?? '';
  return line.replace(/[0-9a-f]{12,64}/g, '<id>').replace(/https?:\/\/\S+/g, '<url>').replace(/\d+(\.\d+)?/g, 'N').slice(0, 200);
}

function runOne(o: ExecProcessBurstOptions): Promise<{ ms: number; error?: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(o.bin, ['-endpoint', o.endpoint, '-timeout', o.deadline, 'exec', '-id', o.containerId, '--', ...o.argv],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => { stdout += s; });
    child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      if (child.pid) void stopPid(child.pid, 2_000);
    }, o.processTimeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, error: `spawn: ${err.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      if (hung) resolve({ ms, error: 'client still running after its limit' });
      else if (code !== 0) resolve({ ms, error: errorClass(stderr) || `exit ${code}` });
      else if (stdout !== o.expect) resolve({ ms, error: `stdout ${JSON.stringify(stdout.slice(0, 80))}` });
      else resolve({ ms });
    });
  });
}

export async function execProcessBurst(o: ExecProcessBurstOptions): Promise<ExecProcessBurstResult> {
  const unary = { calls: 0, failed: 0, maxMs: 0 };
  let burstDone = false;
  const poll = (async () => {
    if (!o.unary) return;
    const { client, everyMs = 100, timeoutMs = 2_000 } = o.unary;
    while (!burstDone) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      const t0 = performance.now();
      try {
        await client.runtime('ListPodSandbox', {}, timeoutMs);
      } catch {
        unary.failed++;
      }
      unary.calls++;
      unary.maxMs = Math.max(unary.maxMs, performance.now() - t0);
    }
  })();
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: o.n }, () => runOne(o)));
  const wallMs = performance.now() - t0;
  burstDone = true;
  await poll;
  const errors: Record<string, number> = {};
  for (const r of results) if (r.error) errors[r.error] = (errors[r.error] ?? 0) + 1;
  const latenciesMs = results.filter((r) => !r.error).map((r) => r.ms).sort((a, b) => a - b);
  const failureMs = results.filter((r) => r.error).map((r) => r.ms).sort((a, b) => a - b);
  return { ok: latenciesMs.length, failed: o.n - latenciesMs.length, errors, latenciesMs, failureMs, wallMs, unary };
}
