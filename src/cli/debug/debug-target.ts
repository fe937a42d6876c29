// What `debug TARGET` names, resolved against the runtime's listings: a
// container (ID or unique prefix), a pod (ID or unique prefix), or
// `pod-name/container-name` as kubelet names them. Pure: the listings come in.
import type * as cri from '../../api/cri.js';
import { failedPrecondition, invalidArgument, notFound } from '../../runtime/errors.js';

export interface DebugTarget {
  podId: string;
  /** The container whose PID namespace the debug container may share; absent for a pod target. */
  container?: { id: string; name: string };
  /** What the user typed named a container (so --target-pid is the default). */
  namedContainer: boolean;
}

type PodLike = Pick<cri.PodSandbox, 'id' | 'state'> & { metadata: Pick<NonNullable<cri.PodSandbox['metadata']>, 'name' | 'namespace'> | null };
type ContainerLike = Pick<cri.Container, 'id' | 'podSandboxId' | 'state' | 'createdAt'> & {
  metadata: Pick<NonNullable<cri.Container['metadata']>, 'name' | 'attempt'> | null;
};

export function findDebugTarget(pods: readonly PodLike[], containers: readonly ContainerLike[], input: string): DebugTarget {
  if (!input) throw invalidArgument('debug: TARGET cannot be empty');
  if (input.includes('/')) return byNames(pods, containers, input);
  const byId = <T extends { id: string }>(items: readonly T[]) => {
    const exact = items.filter((i) => i.id === input);
    return exact.length ? exact : items.filter((i) => i.id.startsWith(input));
  };
  const cs = byId(containers);
  const ps = byId(pods);
  if (cs.length + ps.length === 0) throw notFound(`debug: no container or pod matches "${input}"`);
  if (cs.length + ps.length > 1) {
    const shown = [...cs.map((c) => `container ${c.id.slice(0, 13)}`), ...ps.map((p) => `pod ${p.id.slice(0, 13)}`)].slice(0, 6).join(', ');
    throw invalidArgument(`debug: "${input}" is ambiguous: it matches ${shown}`);
  }
  if (cs.length) return ofContainer(pods, cs[0]!);
  return ofPod(pods[pods.indexOf(ps[0]!)]!, containers);
}

function byNames(pods: readonly PodLike[], containers: readonly ContainerLike[], input: string): DebugTarget {
  const [podName, containerName, ...rest] = input.split('/');
  if (!podName || !containerName || rest.length) throw invalidArgument(`debug: TARGET "${input}" is not an ID or pod-name/container-name`);
  const named = pods.filter((p) => p.metadata?.name === podName);
  const ready = named.filter((p) => p.state === 'SANDBOX_READY');
  const candidates = ready.length ? ready : named;
  if (candidates.length === 0) throw notFound(`debug: no pod named "${podName}"`);
  if (candidates.length > 1) {
    const shown = candidates.map((p) => `${p.metadata?.namespace}/${p.id.slice(0, 13)}`).join(', ');
    throw invalidArgument(`debug: several pods are named "${podName}" (${shown}): give the container ID instead`);
  }
  const pod = candidates[0]!;
  const inPod = containers.filter((c) => c.podSandboxId === pod.id && c.metadata?.name === containerName);
  if (inPod.length === 0) throw notFound(`debug: pod "${podName}" has no container named "${containerName}"`);
  // A restarted container leaves its exited attempts behind: the running one, else the newest.
  const best = [...inPod].sort((a, b) => rank(b) - rank(a) || Number(BigInt(b.createdAt || '0') - BigInt(a.createdAt || '0')))[0]!;
  return ofContainer(pods, best);
}

const rank = (c: ContainerLike) => (c.state === 'CONTAINER_RUNNING' ? 1 : 0);

function ofContainer(pods: readonly PodLike[], c: ContainerLike): DebugTarget {
  const name = c.metadata?.name ?? c.id.slice(0, 13);
  if (c.state !== 'CONTAINER_RUNNING') {
    throw failedPrecondition(`debug: target container ${name} (${c.id.slice(0, 13)}) is not running (${c.state.replace(/^CONTAINER_/, '').toLowerCase()})`);
  }
  const pod = pods.find((p) => p.id === c.podSandboxId);
  if (pod && pod.state !== 'SANDBOX_READY') throw failedPrecondition(`debug: the pod of container ${name} is not ready`);
  return { podId: c.podSandboxId, container: { id: c.id, name }, namedContainer: true };
}

/** A pod target: its one running container (if exactly one) is the PID target when asked for. */
function ofPod(pod: PodLike, containers: readonly ContainerLike[]): DebugTarget {
  if (pod.state !== 'SANDBOX_READY') throw failedPrecondition(`debug: pod ${pod.metadata?.name ?? pod.id.slice(0, 13)} is not ready`);
  const running = containers.filter((c) => c.podSandboxId === pod.id && c.state === 'CONTAINER_RUNNING');
  const only = running.length === 1 ? running[0]! : undefined;
  return { podId: pod.id, container: only && { id: only.id, name: only.metadata?.name ?? only.id.slice(0, 13) }, namedContainer: false };
}
