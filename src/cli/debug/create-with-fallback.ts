// Creates (and starts) the debug container with NamespaceMode TARGET, and
// when the runtime refuses that, once more in the pod's namespaces, saying so.
// Runtimes before CRI's TARGET mode (or that never implemented it) fail
// CreateContainer or StartContainer; either way the half-made container goes.
import type * as cri from '../../api/cri.js';
import { sharesTargetPid, withoutTargetPid } from './debug-container-config.js';

export interface ContainerStarter {
  createContainer(req: cri.CreateContainerRequestIn): Promise<{ containerId: string }>;
  startContainer(req: cri.StartContainerRequestIn): Promise<unknown>;
  removeContainer(req: cri.RemoveContainerRequestIn): Promise<unknown>;
}

export interface StartedDebugContainer {
  containerId: string;
  /** False when the runtime refused TARGET and the pod's PID namespace is used instead. */
  sharesTargetPid: boolean;
}

export async function createAndStartDebugContainer(
  backend: ContainerStarter,
  podSandboxId: string,
  sandboxConfig: cri.PodSandboxConfigIn,
  config: cri.ContainerConfigIn,
  warn: (line: string) => void,
): Promise<StartedDebugContainer> {
  try {
    return { containerId: await createAndStart(backend, podSandboxId, sandboxConfig, config), sharesTargetPid: sharesTargetPid(config) };
  } catch (err) {
    if (!sharesTargetPid(config) || !mayBeRefusal(err)) throw err;
    const fallback = withoutTargetPid(config);
    const containerId = await createAndStart(backend, podSandboxId, sandboxConfig, fallback).catch((again: Error) => {
      throw new Error(`${again.message} (and with the target's PID namespace: ${(err as Error).message})`, { cause: again });
    });
    warn(
      `warning: the runtime does not support sharing the target's PID namespace (NamespaceMode TARGET): ${firstLine(err)}; ` +
        "using the pod's namespaces instead (the target's processes are visible only if the pod shares one PID namespace)",
    );
    return { containerId, sharesTargetPid: false };
  }
}

async function createAndStart(backend: ContainerStarter, podSandboxId: string, sandboxConfig: cri.PodSandboxConfigIn, config: cri.ContainerConfigIn): Promise<string> {
  const { containerId } = await backend.createContainer({ podSandboxId, config, sandboxConfig });
  try {
    await backend.startContainer({ containerId });
  } catch (err) {
    await backend.removeContainer({ containerId }).catch(() => undefined);
    throw err;
  }
  return containerId;
}

/** A runtime that is gone or slow, or an image that is missing, is no verdict on TARGET. */
function mayBeRefusal(err: unknown): boolean {
  const kind = (err as { kind?: string }).kind;
  return !['unavailable', 'deadline-exceeded', 'not-found'].includes(kind ?? '');
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}
