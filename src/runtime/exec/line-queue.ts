// Newline-terminated messages from a helper's pipe or socket (conmon's sync pipe, ttyexec's
// socket), handed out one per next() in order.

/** A line; `undefined` once the stream has ended with no line left; `null` after `timeoutMs`. */
export type NextLine = string | undefined | null;

export class LineQueue {
  private buf = '';
  private waiting: Array<(line: NextLine) => void> = [];
  private ended = false;

  constructor(stream: NodeJS.EventEmitter) {
    stream.on('data', (chunk: Buffer | string) => {
      this.buf += chunk.toString();
      this.flush();
    });
    const end = (): void => {
      this.ended = true;
      this.flush();
    };
    stream.on('end', end);
    stream.on('error', end);
    stream.on('close', end);
  }

  /** The next line; `timeoutMs` 0 waits as long as the stream lasts. */
  next(timeoutMs = 0): Promise<NextLine> {
    return new Promise((resolve) => {
      const settle = (line: NextLine): void => {
        clearTimeout(timer);
        resolve(line);
      };
      const timer = timeoutMs > 0
        ? setTimeout(() => {
          this.waiting = this.waiting.filter((w) => w !== settle);
          resolve(null);
        }, timeoutMs)
        : undefined;
      this.waiting.push(settle);
      this.flush();
    });
  }

  private flush(): void {
    for (;;) {
      const nl = this.buf.indexOf('\n');
      if (nl < 0 || this.waiting.length === 0) break;
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      this.waiting.shift()!(line);
    }
    if (this.ended) while (this.waiting.length) this.waiting.shift()!(undefined);
  }
}
