// The crun a test configures as a runtime handler on this host. crun 1.8 refuses cgroup v1
// hosts whose unified hierarchy holds a controller ("cgroups in hybrid mode not supported,
// drop all controllers from cgroupv2"; these machines mount hugetlb there). On such a host
// the path is build/crun-hybrid/crun-hybrid (assets/crun-hybrid), which execs crun in a
// mount namespace without the unified hierarchy, where crun sees plain cgroup v1; elsewhere
// it is crun itself.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const CRUN = '/usr/bin/crun';

/** The shim `npm run build` makes: crun-hybrid [crun's arguments] runs CRUN with them. */
export const CRUN_HYBRID = fileURLToPath(new URL('../../build/crun-hybrid/crun-hybrid', import.meta.url));

/** Whether crun must run through CRUN_HYBRID here: the unified hierarchy holds a controller. */
export async function hybridCgroupHost(): Promise<boolean> {
  const controllers = await readFile('/sys/fs/cgroup/unified/cgroup.controllers', 'utf8').catch(() => '');
  return controllers.trim() !== '';
}

export async function crunForThisHost(): Promise<string> {
  return (await hybridCgroupHost()) ? CRUN_HYBRID : CRUN;
}
