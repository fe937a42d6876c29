// The many-clients mode (--clients process | crictl): N pods at once, each pod as a shell script
// makes it, one client process per call (iSulad's method: `crictl runp`, `crictl create`, `crictl
// start`). `process` runs test/go-cri-client's run-pod, create-container (which first reads the
// pod's status, as the config crictl reads from a file) and start-container; `crictl` runs upstream
// crictl itself with kubelet-shaped configs (crictl-client.ts). Each process pays the client's
// start-up and competes for the CPU with the runtime; the wall time is first spawn to the last
// start's exit.
import { goToolPath } from '../../test/rig/go-tools.js';
import { run } from '../../test/rig/proc.js';
import type { Crictl } from './crictl-client.js';

export interface ProcessRunOutput {
  wallMs: number;
  failed: number;
  errors: Record<string, number>;
}

async function call(bin: string, endpoint: string, args: string[]): Promise<Record<string, string>> {
  const r = await run(bin, ['-endpoint', endpoint, '-timeout', '300s', ...args], { check: false, timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`${args[0]}: ${(r.stderr.trim().split('\n')[0] ?? '').replace(/[0-9a-f]{64}/g, '<id>').slice(0, 200)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Record<string, string>;
}

/** Runs `chain` n times at once; wall time from the first start to the last end, and each failure's first line counted. */
async function atOnce(n: number, chain: (i: number) => Promise<void>): Promise<ProcessRunOutput> {
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: n }, (_, i) => chain(i).then(() => undefined, (err: Error) => err.message)));
  const wallMs = performance.now() - t0;
  const errors: Record<string, number> = {};
  for (const e of results) if (e) errors[e] = (errors[e] ?? 0) + 1;
  return { wallMs, failed: results.filter(Boolean).length, errors };
}

/** N pods (pod + container running argv), three client processes each, all pods at once; labelled `label`. */
export async function runPodsByProcess(endpoint: string, n: number, opts: { label: string; name: string; image: string; argv?: string[] }): Promise<ProcessRunOutput> {
  const bin = goToolPath('go-cri-client');
  const argv = opts.argv ?? ['sleep', '3600'];
  return atOnce(n, async (i) => {
    const { podId } = await call(bin, endpoint, ['run-pod', '-name', `${opts.name}-${opts.label}-${i}`, '-label', opts.label]);
    const { containerId } = await call(bin, endpoint, ['create-container', '-pod', podId!, '-name', 'c', '-image', opts.image, '--', ...argv]);
    await call(bin, endpoint, ['start-container', '-id', containerId!]);
  });
}

/** The same N pods by upstream crictl: `crictl runp`, `crictl create`, `crictl start` per pod; the pods carry go-cri-client's label `label` (teardown finds them by it). */
export async function runPodsByCrictl(c: Crictl, n: number, opts: { label: string; name: string }): Promise<ProcessRunOutput> {
  return atOnce(n, async (i) => {
    const { pod, ctr } = await c.configs(`${opts.name}-${opts.label}-${i}`, { 'go-cri-client': opts.label });
    const podId = (await c.call(['runp', pod])).out;
    const containerId = (await c.call(['create', podId, ctr, pod])).out;
    await c.call(['start', containerId]);
  });
}

/** crictl's side alone: three `crictl version` processes one after another per pod, all pods at once. */
export async function crictlAlone(c: Crictl, n: number): Promise<ProcessRunOutput> {
  return atOnce(n, async () => {
    for (let i = 0; i < 3; i++) await c.call(['version']);
  });
}

/**
 * The same client processes with nothing for the runtime to do: per pod three processes one after
 * another (run-pod, create-container, start-container's places), each dialling and asking Version,
 * all pods at once. What the client side of the many-clients mode costs on this machine.
 */
export async function clientsAlone(endpoint: string, n: number): Promise<ProcessRunOutput> {
  const bin = goToolPath('go-cri-client');
  return atOnce(n, async () => {
    for (let i = 0; i < 3; i++) await call(bin, endpoint, ['version']);
  });
}
