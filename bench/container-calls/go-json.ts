// One go-cri-client call against an endpoint, its one-line JSON answer parsed (the container benches' helper).
import { runGoCriClient } from '../../test/rig/go-tools.js';

export async function goJson(bin: string, endpoint: string, args: string[], timeoutMs?: number): Promise<Record<string, any>> {
  const r = await runGoCriClient(bin, ['-endpoint', endpoint, ...args], timeoutMs === undefined ? undefined : { timeoutMs });
  if (r.code !== 0) throw new Error(`go-cri-client ${args[0]}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout) as Record<string, any>;
}
