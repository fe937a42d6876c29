// Some runtimes accept NamespaceMode TARGET and quietly start the container
// elsewhere (the pod's or its own PID namespace). From the node, that shows:
// the debug container's and the target's /proc/<pid>/ns/pid differ. Both
// PIDs come from the verbose ContainerStatus info (containerd and isulats put
// `pid` there); when either is missing or unreadable, nothing can be said.
import { readlink } from 'node:fs/promises';
import type { CriBackend } from '../../client/backend.js';

type StatusSource = Pick<CriBackend, 'containerStatus'>;

/** True or false when it could be told; undefined when it could not. */
export async function sharesPidNamespace(
  backend: StatusSource,
  debugId: string,
  targetId: string,
  readLink: (path: string) => Promise<string> = readlink,
): Promise<boolean | undefined> {
  const [a, b] = await Promise.all([pidOf(backend, debugId), pidOf(backend, targetId)]);
  if (!a || !b) return undefined;
  try {
    const [nsA, nsB] = await Promise.all([readLink(`/proc/${a}/ns/pid`), readLink(`/proc/${b}/ns/pid`)]);
    return nsA === nsB;
  } catch {
    return undefined; // not on this node's PID view, or gone
  }
}

async function pidOf(backend: StatusSource, containerId: string): Promise<number | undefined> {
  try {
    const r = await backend.containerStatus({ containerId, verbose: true });
    const pid = Number((JSON.parse(r.info?.info ?? '{}') as { pid?: unknown }).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
