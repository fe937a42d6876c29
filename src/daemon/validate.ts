// Request checks the daemon makes before a request reaches the engine, so
// every backend answers empty IDs and missing configs with InvalidArgument.
import { invalidArgument } from '../runtime/errors.js';

type Req = Record<string, any>;
type Check = (req: Req) => string | undefined;

const required = (field: string, label = field): Check => (req) =>
  typeof req[field] === 'string' && req[field] !== '' ? undefined : `${label} must not be empty`;

const present = (field: string): Check => (req) => (req[field] ? undefined : `${field} is required`);

const imageRef: Check = (req) => (req.image && typeof req.image.image === 'string' && req.image.image !== '' ? undefined : 'image.image must not be empty');

const command: Check = (req) => (Array.isArray(req.cmd) && req.cmd.length > 0 ? undefined : 'cmd must not be empty');

const podId = required('podSandboxId', 'pod sandbox ID');
const containerId = required('containerId', 'container ID');

/** Keyed by RPC name (PascalCase as in the proto). */
const CHECKS: Record<string, Check[]> = {
  RunPodSandbox: [present('config'), (r) => (r.config?.metadata?.name ? undefined : 'config.metadata.name must not be empty')],
  StopPodSandbox: [podId],
  RemovePodSandbox: [podId],
  PodSandboxStatus: [podId],
  PodSandboxStats: [podId],
  PortForward: [podId],
  CreateContainer: [podId, present('config'), (r) => (r.config?.metadata?.name ? undefined : 'config.metadata.name must not be empty')],
  StartContainer: [containerId],
  StopContainer: [containerId],
  RemoveContainer: [containerId],
  ContainerStatus: [containerId],
  ContainerStats: [containerId],
  UpdateContainerResources: [containerId],
  UpdatePodSandboxResources: [podId],
  ReopenContainerLog: [containerId],
  ExecSync: [containerId, command],
  Exec: [containerId, command, (r) => (r.stdin || r.stdout || r.stderr ? undefined : 'one of stdin, stdout, or stderr must be set')],
  Attach: [containerId, (r) => (r.stdin || r.stdout || r.stderr ? undefined : 'one of stdin, stdout, or stderr must be set')],
  ImageStatus: [imageRef],
  PullImage: [imageRef],
  RemoveImage: [imageRef],
};

/** Throws an invalid-argument error naming the first problem of `req` for `rpc`. */
export function validateRequest(rpc: string, req: unknown): void {
  for (const check of CHECKS[rpc] ?? []) {
    const problem = check((req ?? {}) as Req);
    if (problem) throw invalidArgument(problem);
  }
}
