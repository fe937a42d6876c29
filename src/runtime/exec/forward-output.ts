// A process's output into a session's stream, paced by the stream: when the client reads slowly
// the pipe fills and the process waits on it, instead of the daemon buffering without bound.
// Once the stream is gone (the client left) the rest is read and dropped, so the process never
// blocks on a pipe nobody reads while it is being ended (a streaming exec's process is killed
// when its client goes away: runc-conmon.ts).
import type { Readable } from 'node:stream';

export function forwardOutput(from: Readable, to: NodeJS.WritableStream | undefined): void {
  if (!to) {
    from.resume();
    return;
  }
  const drop = (): void => {
    from.unpipe(to as NodeJS.WritableStream);
    from.resume();
  };
  const detach = (): void => {
    to.removeListener('close', drop);
    to.removeListener('error', drop);
  };
  to.once('close', drop);
  to.once('error', drop);
  from.once('close', detach);
  from.pipe(to as NodeJS.WritableStream, { end: false });
}
