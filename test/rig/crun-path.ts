// The crun a test configures as a runtime handler on this host. crun 1.8 refuses cgroup v1
// hosts whose unified hierarchy holds a controller ("cgroups in hybrid mode not supported,
// drop all controllers from cgroupv2"; these machines mount hugetlb there). On such a host
// the path is a wrapper that runs crun in a private mount namespace without the unified
// hierarchy, where crun sees plain cgroup v1; elsewhere it is crun itself.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const CRUN = '/usr/bin/crun';

export async function crunForThisHost(dir: string): Promise<string> {
  const controllers = await readFile('/sys/fs/cgroup/unified/cgroup.controllers', 'utf8').catch(() => '');
  if (controllers.trim() === '') return CRUN;
  const wrapper = join(dir, 'crun');
  const script = `exec unshare -m --propagation private sh -c 'umount -l /sys/fs/cgroup/unified 2>/dev/null; exec ${CRUN} "$@"' crun "$@"`;
  await writeFile(wrapper, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return wrapper;
}
