// The ephemeral container `debug` starts: the pod's network and IPC, and the
// target container's PID namespace (NamespaceMode TARGET) when asked, as
// kubelet builds an ephemeral container for `kubectl debug --target`.
import { randomBytes } from 'node:crypto';
import type * as cri from '../../api/cri.js';

/** busybox-class: a shell, ps, and the usual tools, small enough to pull on a node. */
export const DEFAULT_DEBUG_IMAGE = 'docker.io/library/busybox:latest';

/** Labels every debug container carries, so it can be told apart (and found by `ps --label`). */
export const DEBUG_LABEL = 'io.isulats.debug';
export const DEBUG_TARGET_LABEL = 'io.isulats.debug.target';

export interface DebugContainerOptions {
  image: string;
  /** Empty: the image's own entrypoint and command (busybox: sh). */
  command: string[];
  tty: boolean;
  stdin: boolean;
  /** Share this container's PID namespace; absent: the pod's. */
  targetContainerId?: string;
  /** What the debug container is for (label value): the target container or pod ID. */
  targetOf: string;
  name?: string;
}

export function debugContainerName(): string {
  return `debugger-${randomBytes(3).toString('hex')}`;
}

export function debugContainerConfig(o: DebugContainerOptions): cri.ContainerConfigIn {
  const name = o.name ?? debugContainerName();
  const namespaceOptions: cri.NamespaceOptionIn = o.targetContainerId
    ? { network: 'POD', ipc: 'POD', pid: 'TARGET', targetId: o.targetContainerId }
    : { network: 'POD', ipc: 'POD', pid: 'POD' };
  return {
    metadata: { name, attempt: 0 },
    image: { image: o.image },
    command: o.command.length ? o.command : undefined,
    // Kubelet's layout under the pod's log directory: <container-name>/<attempt>.log.
    logPath: `${name}/0.log`,
    stdin: o.stdin,
    stdinOnce: o.stdin,
    tty: o.tty,
    labels: { [DEBUG_LABEL]: 'true', [DEBUG_TARGET_LABEL]: o.targetOf },
    linux: { securityContext: { namespaceOptions } },
  };
}

/** The same container in the pod's PID namespace: what is left when a runtime refuses TARGET. */
export function withoutTargetPid(config: cri.ContainerConfigIn): cri.ContainerConfigIn {
  return {
    ...config,
    linux: { ...config.linux, securityContext: { ...config.linux?.securityContext, namespaceOptions: { network: 'POD', ipc: 'POD', pid: 'POD' } } },
  };
}

export function sharesTargetPid(config: cri.ContainerConfigIn): boolean {
  return config.linux?.securityContext?.namespaceOptions?.pid === 'TARGET';
}
