// Feeds local stdin to a container through an attach of stdin alone (its
// output is read elsewhere). Piped stdin ends as EOF, which only SPDY (and
// WebSocket v5) can say, so remote sessions go over SPDY. Best effort: a
// command that ends before the attach connects makes the attach fail, which
// is no error of the session's.
import type { CriBackend } from '../../client/backend.js';
import { absoluteStreamUrl } from '../stream-session.js';

export async function attachStdinOnly(
  backend: CriBackend,
  containerId: string,
  stdin: NodeJS.ReadStream,
  signal: AbortSignal,
  debug: (msg: string) => void,
): Promise<void> {
  const req = { containerId, stdin: true, stdout: false, stderr: false, tty: false };
  try {
    if (backend.streamInProcess) {
      await backend.streamInProcess('attach', req, { stdin, tty: false });
      return;
    }
    const { url } = await backend.attach(req);
    if (signal.aborted) return;
    const { runRemoteCommand } = await import('../../client/streaming/remote-command.js');
    await runRemoteCommand(absoluteStreamUrl(url), { stdin, tty: false, transport: 'spdy' });
  } catch (err) {
    debug(`stdin attach ended: ${(err as Error).message}`);
  } finally {
    stdin.pause();
  }
}
