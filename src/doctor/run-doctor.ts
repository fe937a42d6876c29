// The doctor's checklist, read top to bottom: gather, evaluate, in the order
// the results are printed. A check whose gathering throws fails on its own.
import type { CriBackend } from '../client/backend.js';
import { fail, type CheckResult } from './check-result.js';
import type { HostProbe } from './host-probe.js';
import { evaluateEndpoint } from './checks/endpoint.js';
import { evaluateStatus } from './checks/runtime-status.js';
import { evaluateCgroups } from './checks/cgroups.js';
import { evaluateNodeLayout } from './checks/node-layout.js';
import { evaluateTools } from './checks/oci-tools.js';
import { evaluateCni } from './checks/cni.js';
import { evaluateKernel } from './checks/kernel.js';
import { evaluateDisk } from './checks/disk-space.js';
import { evaluateNri } from './checks/nri.js';
import { evaluateCdi } from './checks/cdi.js';
import { evaluateNodeFeatures } from './checks/node-features.js';
import { evaluateSysctls } from './checks/sysctls.js';
import { evaluateClock } from './checks/clock.js';
import { evaluateLeftovers } from './checks/leftovers.js';
import * as gather from './gather.js';
import type { KubeletPaths } from './kubelet-settings.js';
import { runtimeLayout, type RuntimeLayout } from './runtime-layout.js';

export interface DoctorOptions {
  /** undefined when the backend could not be opened (openError says why). */
  backend?: CriBackend;
  target: string;
  openError?: string;
  probe: HostProbe;
  timeoutMs: number;
  cniConfDir?: string;
  cniBinDirs?: string[];
  /** More file systems to check for space (--path). */
  paths: string[];
  /** This node's kubelet files (kubelet-settings.ts). */
  kubelet: KubeletPaths;
}

export async function runDoctor(o: DoctorOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const step = async (id: string, title: string, fn: () => Promise<CheckResult[]>) => {
    try {
      results.push(...(await fn()));
    } catch (err) {
      results.push(fail(id, title, `could not check: ${(err as Error).message}`, 'run as root, or see --debug'));
    }
  };

  const endpoint = await gather.gatherEndpoint(o.backend, o.target, o.openError);
  results.push(...evaluateEndpoint(endpoint));
  const backend = endpoint.error ? undefined : o.backend;
  const status = await gather.gatherStatus(backend);
  if (backend) results.push(...evaluateStatus(status));
  let layout: RuntimeLayout = await runtimeLayout(backend, status.info, o.timeoutMs);
  layout = { ...layout, ...(o.cniConfDir ? { cniConfDir: o.cniConfDir } : {}), ...(o.cniBinDirs?.length ? { cniBinDirs: o.cniBinDirs } : {}) };

  await step('cgroup', 'cgroups', async () => evaluateCgroups(await gather.gatherCgroups(o.probe, backend, layout, o.kubelet)));
  await step('node', 'node layout', async () => evaluateNodeLayout(await gather.gatherNodeLayout(o.probe, layout, o.kubelet)));
  await step('tools', 'OCI tools', async () => evaluateTools(await gather.gatherTools(o.probe), layout.kind !== 'other'));
  await step('cni', 'CNI', async () => evaluateCni(await gather.gatherCni(o.probe, layout)));
  await step('kernel', 'kernel', async () => evaluateKernel(await gather.gatherKernel(o.probe)));
  await step('disk', 'disk', async () => (await gather.gatherDisks(o.probe, backend, layout, o.paths)).map(evaluateDisk));
  await step('nri', 'NRI', async () => evaluateNri(await gather.gatherNri(o.probe, backend, layout)));
  if (backend) results.push(...evaluateNodeFeatures(status.info));
  await step('cdi', 'CDI', async () => evaluateCdi(await gather.gatherCdi(o.probe, layout)));
  await step('sysctl', 'sysctls', async () => evaluateSysctls(await gather.gatherSysctls(o.probe)));
  await step('clock', 'clock', async () => [evaluateClock(await gather.gatherClock(o.probe))]);
  // isulats' own engine, embedded or behind a daemon on this host: its dirs are known and local.
  if (backend && layout.kind !== 'other' && layout.root && layout.state) {
    await step('leftovers', 'leftovers', async () => evaluateLeftovers(await gather.gatherLeftovers(o.probe, backend, layout)));
  }
  return results;
}
