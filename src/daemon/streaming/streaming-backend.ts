// Puts the streaming server in front of a backend that streams in-process
// (the embedded engine): its Exec/Attach/PortForward answers become one-time
// URLs of our server, checked first the way containerd checks them (the
// container or pod exists and runs, the stream options make sense). A
// backend that hands out its own URLs (a RemoteBackend proxy) is left alone.
import type { Duplex } from 'node:stream';
import type * as cri from '../../api/cri.js';
import type { CriBackend } from '../../client/backend.js';
import { failedPrecondition, invalidArgument, unimplemented } from '../../runtime/errors.js';
import type { StreamingServer } from './server.js';
import type { StreamingRuntime } from './types.js';

/** What an in-process backend offers for port-forward (the engine's portForwardInProcess). */
interface PortForwarder {
  portForwardInProcess(podSandboxId: string, port: number): Promise<Duplex>;
}

function portForwarderOf(backend: CriBackend): PortForwarder | undefined {
  // The embedded backend exposes its engine; the engine has the port-forward data path.
  const engine = (backend as { engine?: Partial<PortForwarder> }).engine;
  return typeof engine?.portForwardInProcess === 'function' ? (engine as PortForwarder) : undefined;
}

/** The runtime a streaming server drives, or undefined when the backend does not stream in-process. */
export function streamingRuntimeOf(backend: CriBackend): StreamingRuntime | undefined {
  if (typeof backend.streamInProcess !== 'function') return undefined;
  const forwarder = portForwarderOf(backend);
  return {
    exec: (req, io) => backend.streamInProcess!('exec', req, io),
    attach: (req, io) => backend.streamInProcess!('attach', req, io),
    portForward: (pod, port) => {
      if (!forwarder) throw unimplemented('port-forward is not supported by this backend');
      return forwarder.portForwardInProcess(pod, port);
    },
  };
}

function checkStreams(req: { stdin?: boolean | null; stdout?: boolean | null; stderr?: boolean | null; tty?: boolean | null }): void {
  if (req.tty && req.stderr) throw invalidArgument('tty and stderr cannot both be true');
  if (!req.stdin && !req.stdout && !req.stderr) throw invalidArgument('one of stdin, stdout, or stderr must be set');
}

async function runningContainer(backend: CriBackend, containerId: string): Promise<string> {
  const { status } = await backend.containerStatus({ containerId });
  if (!status || status.state !== 'CONTAINER_RUNNING') {
    throw failedPrecondition(`container ${containerId} is in ${status?.state ?? 'an unknown'} state`);
  }
  return status.id;
}

/** A view of `backend` whose Exec/Attach/PortForward answer with `server`'s URLs. */
export function withStreamingServer(backend: CriBackend, server: StreamingServer): CriBackend {
  const overrides = {
    async exec(req: cri.ExecRequestIn): Promise<cri.ExecResponse> {
      if (!req.cmd?.length) throw invalidArgument('cmd must not be empty');
      checkStreams(req);
      const containerId = await runningContainer(backend, req.containerId ?? '');
      return server.getExec({ ...req, containerId });
    },
    async attach(req: cri.AttachRequestIn): Promise<cri.AttachResponse> {
      checkStreams(req);
      const containerId = await runningContainer(backend, req.containerId ?? '');
      return server.getAttach({ ...req, containerId });
    },
    async portForward(req: cri.PortForwardRequestIn): Promise<cri.PortForwardResponse> {
      const { status } = await backend.podSandboxStatus({ podSandboxId: req.podSandboxId ?? '' });
      if (!status || status.state !== 'SANDBOX_READY') throw failedPrecondition(`pod sandbox ${req.podSandboxId} is not ready`);
      return server.getPortForward({ ...req, podSandboxId: status.id });
    },
  };
  return new Proxy(backend, {
    get(target, prop, receiver) {
      if (prop === 'exec' || prop === 'attach' || prop === 'portForward') return overrides[prop];
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
