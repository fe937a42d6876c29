// Runs an exec or attach session against the streaming URL the CRI returned
// (ExecResponse.url / AttachResponse.url) and resolves with the exit code.
//
// 'auto' offers WebSocket first (v5, v4, then older channel subprotocols in
// one request) and falls back to SPDY when the server refuses the upgrade.
// One exception: piped stdin without a TTY goes over SPDY first, since only
// SPDY and WebSocket v5 can tell the process that stdin ended, and kubelet-
// style servers before v5 (containerd 1.6/1.7, CRI-O) accept a URL only once,
// so we cannot try v5 alone and then retry.
import { RemoteCommandError, UpgradeRefusedError } from './errors.js';
import { runRemoteCommandSpdy } from './remote-command-spdy.js';
import { runRemoteCommandWebSocket } from './remote-command-ws.js';
import type { RemoteCommandOptions, RemoteCommandResult } from './types.js';
import type { CommandOutcome } from '../../protocols/remotecommand/index.js';

type Concrete = 'spdy' | 'websocket';

const runners: Record<Concrete, (url: string, opts: RemoteCommandOptions) => Promise<CommandOutcome>> = {
  spdy: runRemoteCommandSpdy,
  websocket: runRemoteCommandWebSocket,
};

/** The transports to try, in order, for these options. */
export function transportOrder(opts: Pick<RemoteCommandOptions, 'transport' | 'stdin' | 'tty'>): Concrete[] {
  const transport = opts.transport ?? 'auto';
  if (transport !== 'auto') return [transport];
  return opts.stdin && !opts.tty ? ['spdy', 'websocket'] : ['websocket', 'spdy'];
}

export async function runRemoteCommand(url: string, opts: RemoteCommandOptions): Promise<RemoteCommandResult> {
  const order = transportOrder(opts);
  for (let i = 0; ; i++) {
    const transport = order[i]!;
    let outcome: CommandOutcome;
    try {
      outcome = await runners[transport](url, opts);
    } catch (err) {
      if (err instanceof UpgradeRefusedError && i + 1 < order.length) continue;
      throw err;
    }
    if ('error' in outcome) throw new RemoteCommandError(outcome.error);
    return { exitCode: outcome.exitCode, transport };
  }
}
