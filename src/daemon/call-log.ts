// One log line per CRI call, after it ends: what it concerned, what it gave or how it failed, how
// long it took. As containerd's CRI plugin does, calls that change state log at info (its Infof
// set: pods, containers, resources, pulls and removals, port-forward; plus the runtime.v1 calls it
// lacks: pod resources, checkpoint, restore), everything else (reads, ExecSync, exec/attach URLs)
// at debug. An error the engine did not expect (INTERNAL) logs at error with its stack.
import type { CriVersion } from '../api/proto.js';
import type { LogFields, Logger } from './logger.js';

export const STATE_CHANGING: ReadonlySet<string> = new Set([
  'RunPodSandbox', 'StopPodSandbox', 'RemovePodSandbox', 'PortForward',
  'CreateContainer', 'StartContainer', 'StopContainer', 'RemoveContainer',
  'UpdateContainerResources', 'UpdatePodSandboxResources', 'CheckpointContainer', 'CheckpointPod', 'RestorePod',
  'PullImage', 'RemoveImage',
]);

const GRPC_INTERNAL = 13;

type Msg = Record<string, any> | null | undefined;

/** IDs and names a request concerns and the IDs its answer made, under the CRI's own field names. */
export function callSubject(req: Msg, res: Msg): LogFields {
  const meta = req?.config?.metadata as Msg;
  const fields: LogFields = {
    podSandboxId: req?.podSandboxId || undefined,
    containerId: req?.containerId || undefined,
    // RunPodSandbox names a pod, CreateContainer a container (its pod is podSandboxId).
    name: meta?.name || undefined,
    namespace: meta?.namespace || undefined,
    uid: meta?.uid || undefined,
    attempt: meta && meta.attempt !== undefined ? Number(meta.attempt) : undefined,
    image: req?.image?.image || req?.config?.image?.image || undefined,
    timeout: req?.timeout !== undefined && req?.timeout !== null ? Number(req.timeout) : undefined,
  };
  if (res) {
    if (res.podSandboxId && !fields.podSandboxId) fields.podSandboxId = res.podSandboxId;
    if (res.containerId) fields.containerId = res.containerId;
    if (res.imageRef) fields.imageRef = res.imageRef;
    if (res.exitCode !== undefined) fields.exitCode = res.exitCode;
  }
  return fields;
}

export interface CallRecord {
  rpc: string;
  api: CriVersion;
  /** process.hrtime.bigint() when the call arrived. */
  started: bigint;
  code: number;
  req?: Msg;
  res?: Msg;
  details?: string;
  err?: unknown;
}

export function logCall(log: Logger, call: CallRecord): void {
  const level = call.code === GRPC_INTERNAL ? 'error' : STATE_CHANGING.has(call.rpc) ? 'info' : 'debug';
  if (!log.enabled(level)) return;
  const ms = Math.round(Number(process.hrtime.bigint() - call.started) / 1e4) / 100;
  log.log(level, call.code === 0 ? 'request' : 'request failed', {
    rpc: call.rpc,
    api: call.api,
    ...callSubject(call.req, call.code === 0 ? call.res : undefined),
    code: call.code,
    ms,
    error: call.details || undefined,
    stack: level === 'error' && call.err instanceof Error ? call.err.stack : undefined,
  });
}
