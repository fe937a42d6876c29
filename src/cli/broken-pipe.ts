// A reader that goes away early (`isulats logs CTR | head -1`) is not a failure: the output
// was not wanted any more. As crictl, exit 0 with nothing on stderr, whichever verb was writing.

/** True for the error a write to a pipe (or socket) with no reader left fails with. */
export function isBrokenPipe(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'EPIPE';
}

/**
 * Makes EPIPE on `stream` end the process with code 0, quietly; other errors stay fatal. A
 * command that listens for the stream's errors itself (debug, which must remove its container
 * first) owns them. Returns the undo, for the daemon: its log on stdout going away must not
 * end it with a success that a supervisor would not restart.
 */
export function exitQuietlyOnBrokenPipe(stream: NodeJS.WritableStream = process.stdout, exit: (code: number) => void = process.exit): () => void {
  const onError = (err: unknown) => {
    if (stream.listenerCount('error') > 1) return;
    if (!isBrokenPipe(err)) throw err;
    exit(0);
  };
  stream.on('error', onError);
  return () => void stream.off('error', onError);
}
