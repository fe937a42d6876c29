// Starts conmon and waits for its sync message. conmon forks away at once (the
// process we spawn exits), and the detached grandchild writes
// `{"data": <container pid>}` (API version 1) on the pipe named by
// _OCI_SYNCPIPE once `runc create` has finished, or a negative value and a
// message on failure. conmon 2.1.6 keeps that pipe open after the message for as
// long as the container runs: only the first line is read, EOF is never waited for.
import { internal } from '../errors.js';
import type { ProcessRunner } from './process-runner.js';
import type { Readable } from 'node:stream';
import { splitRuncWarnings } from './runc-warnings.js';

export interface SyncMessage {
  data: number;
  message?: string;
}

/** `debug` hears runc's warnings, which stay out of the error. */
export async function startConmon(runner: ProcessRunner, conmon: string, args: string[], cwd: string, timeoutMs: number, debug?: (message: string) => void): Promise<number> {
  // Spawned detached with stdio on /dev/null and the sync pipe as fd 3. Only the first line
  // counts: the daemonized conmon keeps fd 3 open while the container runs (no EOF to wait for).
  // `cwd` is a dir of the container's own: conmon before 2.1.13 (Debian's 2.1.6) creates a file
  // named `oom` in its working directory at each OOM event, which was the caller's.
  const { sync } = await runner.spawnWithSyncPipe({ cmd: conmon, args, cwd, extraEnv: { _OCI_SYNCPIPE: '3' } });
  try {
    const msg = await readSyncMessage(sync, timeoutMs);
    if (msg.data < 0) {
      const { text, warnings } = splitRuncWarnings(msg.message ?? '');
      for (const w of warnings) debug?.(`runc warning: ${w}`);
      throw internal(`container create failed: ${text || `conmon reported ${msg.data}`}`);
    }
    return msg.data;
  } finally {
    sync.destroy();
  }
}

export function parseSyncMessage(line: string): SyncMessage {
  const parsed = JSON.parse(line) as Partial<SyncMessage>;
  if (typeof parsed.data !== 'number') throw new Error(`unexpected conmon sync message: ${line}`);
  return { data: parsed.data, message: parsed.message };
}

function readSyncMessage(stream: Readable, timeoutMs: number): Promise<SyncMessage> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => finish(new Error(`conmon did not report within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buf += chunk.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        try {
          finish(undefined, parseSyncMessage(buf.slice(0, nl)));
        } catch (error) {
          finish(error as Error);
        }
      }
    };
    const onEnd = () => finish(internal(`conmon exited without reporting${buf ? `: ${buf.trim()}` : ''}`));
    const finish = (error?: Error, msg?: SyncMessage) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onEnd);
      if (error) reject(error);
      else resolve(msg!);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onEnd);
  });
}
