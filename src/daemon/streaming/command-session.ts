// One exec or attach session, whatever the transport: the transport builds
// the StreamIO from its streams or channels, the runtime runs the command,
// and the outcome goes back as kubelet reports it: exec's exit code as a
// NonZeroExitCode status, attach as Success (kubelet does not report the
// container's exit code on attach), runtime failures as a Failure status.
import type { StreamIO } from '../../client/backend.js';
// status.js, not the index: this runs at GetExec, before any stream (the SPDY code loads with the first).
import { exitCodeStatus, failureStatus, successStatus, type K8sStatus } from '../../protocols/remotecommand/status.js';
import type { StreamingRuntime, StreamRequest } from './types.js';

export type CommandRequest = Extract<StreamRequest, { kind: 'exec' | 'attach' }>;

export async function runCommand(runtime: StreamingRuntime, request: CommandRequest, io: StreamIO): Promise<K8sStatus> {
  try {
    if (request.kind === 'attach') {
      await runtime.attach(request.req, io);
      return successStatus();
    }
    // The exit code as soon as the runtime reports it (io.exited), its cleanup still running.
    const code = await new Promise<number>((resolve, reject) => {
      io.exited = resolve;
      runtime.exec(request.req, io).then(resolve, reject);
    });
    return code === 0 ? successStatus() : exitCodeStatus(code);
  } catch (err) {
    return failureStatus(err instanceof Error ? err.message : String(err));
  }
}

/** What goes on the error stream: v4+ the JSON status; older protocols only a failure's message. */
export function encodeStatus(status: K8sStatus, format: 'json' | 'text'): Buffer | undefined {
  if (format === 'json') return Buffer.from(JSON.stringify(status));
  return status.status === 'Success' ? undefined : Buffer.from(status.message ?? 'error');
}
