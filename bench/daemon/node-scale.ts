// A kubelet-shaped node at N pods on one runtime (issue 31): N pods (pod + one `sleep` container,
// kubelet's namespace options) started at once by the Go client, then a steady state of SECONDS:
// relist (ListPodSandbox + ListContainers) every second, ListContainerStats every 10 s, one
// ExecSync probe per pod every 10 s spread over the period; then every pod removed at once.
// The runtime is in a cpuacct group of its own before its pods start (bench/daemon/cpuacct-group.ts),
// so its CPU is the daemon's plus everything it runs (conmon, runc, CNI; containerd's shims).
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import type { CpuacctGroup } from './cpuacct-group.js';
import { goClient, type RunOutput } from './go-client.js';
import { rssAnonKb, summedRssKb, vmRssKb } from './proc-stats.js';

export const LISTS = ['ListPodSandbox', 'ListContainers', 'ListContainerStats'] as const;
export type ListCall = (typeof LISTS)[number];

export interface ListCallTimes { method: ListCall; sent: number; answered: number }

export interface NodeTarget { name: string; endpoint: string; pid: number; group: CpuacctGroup }

export interface NodeFigures {
  n: number;
  /** Wall time of starting all N pods at once (the Go client's own clock), ms. */
  startAllMs: number;
  /** Wall time of removing all N pods at once, ms. */
  removeAllMs: number;
  /** The runtime's CPU in the steady state, ms per s of wall time. */
  cpuMsPerS: number;
  daemonRssKb: number;
  /** The daemon's RssAnon: VmRSS without its executable's and libraries' file pages. */
  daemonAnonKb: number;
  /** VmRSS summed over every process in the runtime's group (daemon + monitors or shims). */
  runtimeRssKb: number;
  runtimeProcs: number;
  lists: Record<ListCall, { p50: number; p99: number; count: number }>;
  probes: number;
  /** The steady state's wall-clock window (Date.now()), to pick the daemon's log lines of it. */
  steadyFrom: number;
  steadyTo: number;
  /** Each answered List call's send and answer times (epoch ms, sub-ms precision), to place the daemon's own time in them. */
  listCalls: ListCallTimes[];
  failed: number;
  firstError?: string;
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! : NaN;
};

/** The steady state on one runtime whose pods run `containers`. */
async function steady(t: NodeTarget, cri: RawCriClient, containers: string[], seconds: number) {
  const lat: Record<ListCall, number[]> = { ListPodSandbox: [], ListContainers: [], ListContainerStats: [] };
  let failed = 0;
  let firstError: string | undefined;
  let probes = 0;
  const inFlight: Array<Promise<void>> = [];
  const listCalls: ListCallTimes[] = [];
  const call = (method: string, req: Record<string, unknown>, into?: number[]): void => {
    const t0 = performance.now();
    inFlight.push(cri.runtime(method, req, 30_000).then(
      () => {
        const t1 = performance.now();
        into?.push(t1 - t0);
        if (into) listCalls.push({ method: method as ListCall, sent: performance.timeOrigin + t0, answered: performance.timeOrigin + t1 });
      },
      (e: Error) => { failed++; firstError ??= `${method}: ${e.message}`; },
    ));
  };
  const cpu0 = await t.group.usageMs();
  const steadyFrom = Date.now();
  const t0 = performance.now();
  const probeEveryMs = 10_000 / Math.max(1, containers.length);
  let next = 0;
  for (let tick = 0; performance.now() - t0 < seconds * 1000; tick++) {
    call('ListPodSandbox', {}, lat.ListPodSandbox);
    call('ListContainers', {}, lat.ListContainers);
    if (tick % 10 === 0) call('ListContainerStats', {}, lat.ListContainerStats);
    while (next * probeEveryMs < (tick + 1) * 1000 && next * probeEveryMs < seconds * 1000) {
      await sleep(Math.max(0, t0 + next * probeEveryMs - performance.now()));
      call('ExecSync', { containerId: containers[next % containers.length], cmd: ['true'], timeout: 5 });
      next++;
      probes++;
    }
    await sleep(Math.max(0, t0 + (tick + 1) * 1000 - performance.now()));
  }
  await Promise.all(inFlight);
  const steadyTo = Date.now();
  const cpuMsPerS = ((await t.group.usageMs()) - cpu0) / ((performance.now() - t0) / 1000);
  const lists = Object.fromEntries(LISTS.map((m) => [m, { p50: quantile(lat[m], 0.5), p99: quantile(lat[m], 0.99), count: lat[m].length }])) as NodeFigures['lists'];
  return { cpuMsPerS, lists, probes, failed, firstError, steadyFrom, steadyTo, listCalls };
}

/** Starts N pods on `t`, measures the steady state, removes them; the figures. */
export async function measureNode(t: NodeTarget, opts: { n: number; seconds: number; image: string; logRoot: string; label: string }): Promise<NodeFigures> {
  const ep = { endpoint: t.endpoint, timeoutMs: 900_000 };
  const up = await goClient<RunOutput>(['run', '-n', String(opts.n), '-name', 'web', '-label', opts.label, '-log-root', join(opts.logRoot, t.name.split(' ')[0]!), '-image', opts.image], ep);
  try {
    if (up.failed) throw new Error(`${t.name}: ${up.failed} of ${opts.n} pods failed: ${Object.keys(up.errors)[0]}`);
    await sleep(2_000); // the start settles (shims and conmons done with their set-up)
    const cri = openCriClient(t.endpoint);
    let s: Awaited<ReturnType<typeof steady>>;
    try {
      s = await steady(t, cri, up.pods.map((p) => p.containerId), opts.seconds);
    } finally {
      cri.close();
    }
    const pids = await t.group.pids();
    const daemonRssKb = await vmRssKb(t.pid);
    const daemonAnonKb = await rssAnonKb(t.pid);
    const runtimeRssKb = await summedRssKb(pids);
    const down = await goClient<{ pods: number; wallMs: number; errors: string[] }>(['teardown', '-label', opts.label], ep);
    if (down.pods !== opts.n || down.errors.length) throw new Error(`${t.name}: teardown removed ${down.pods} of ${opts.n}: ${down.errors[0] ?? ''}`);
    return { n: opts.n, startAllMs: up.wallMs, removeAllMs: down.wallMs, cpuMsPerS: s.cpuMsPerS, daemonRssKb, daemonAnonKb, runtimeRssKb, runtimeProcs: pids.length, lists: s.lists, probes: s.probes, steadyFrom: s.steadyFrom, steadyTo: s.steadyTo, listCalls: s.listCalls, failed: s.failed, firstError: s.firstError };
  } catch (error) {
    await goClient(['teardown', '-label', opts.label], ep).catch(() => undefined);
    throw error;
  }
}
