// The fast path's output, written with write(2) on the descriptor: process.stdout builds a stream
// on first use (a SyncWriteStream for a file, a net.Socket for a pipe, a tty.WriteStream for a
// terminal), which costs a call about 3 ms of CPU for one write.
import { writeSync } from 'node:fs';

/** All of `text` written: nothing left. */
export const WRITTEN = '';

/**
 * Writes `text` to `fd` with blocking writes. Answers WRITTEN, or null when the reader has gone
 * (EPIPE), or what is still to be written when the descriptor would block (a non-blocking pipe
 * another process set up): the caller hands that to the stream, which waits for it.
 */
export function writeAllSync(fd: number, text: string): string | null {
  if (!text) return WRITTEN;
  const bytes = Buffer.from(text);
  let off = 0;
  try {
    while (off < bytes.length) off += writeSync(fd, bytes, off);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return null;
    if (code === 'EAGAIN') return bytes.subarray(off).toString();
    throw err;
  }
  return WRITTEN;
}
