// The Go CRI client (test/go-cri-client) as the benchmarks run it: one process per measurement,
// its JSON line parsed. Its own start-up is outside every figure (it times the calls itself).
import { goToolPath } from '../../test/rig/go-tools.js';
import { run } from '../../test/rig/proc.js';

export interface CallTime { call: string; ms: number; start: number; end: number }
export type CallSummary = Record<string, { median: number; p90: number; count: number }>;

export interface RunOutput {
  n: number;
  wallMs: number;
  failed: number;
  errors: Record<string, number>;
  calls: CallSummary;
  pods: Array<{ podId: string; containerId: string; calls: CallTime[]; error?: string }>;
}

export interface LifecycleOutput { iterations: number; calls: CallSummary; timeline: CallTime[] }

export interface FloorOutput {
  n: number;
  wallMs: number;
  failed: number;
  errors: Record<string, number>;
  calls: CallSummary;
  teardownMs: number;
  teardownCalls: CallSummary;
  pods: Array<{ id: string; calls: CallTime[]; teardown: CallTime[] }>;
}

/** Runs the client; throws with its stderr when it fails (or prints no JSON). */
export async function goClient<T>(args: string[], opts: { endpoint?: string; timeoutMs?: number; prefix?: string[] } = {}): Promise<T> {
  const bin = goToolPath('go-cri-client');
  const argv = [...(opts.endpoint ? ['-endpoint', opts.endpoint, '-timeout', '300s'] : []), ...args];
  const [cmd, ...rest] = [...(opts.prefix ?? []), bin, ...argv];
  const r = await run(cmd!, rest, { check: false, timeoutMs: opts.timeoutMs ?? 600_000 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.code !== 0 || !line.startsWith('{')) {
    throw new Error(`go-cri-client ${args[0]} exited ${r.code}: ${(r.stderr.trim() || line).slice(0, 2000)}`);
  }
  return JSON.parse(line) as T;
}
