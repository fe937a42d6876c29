// Terminal sizes from the client, handed to the runtime as the
// AsyncIterable StreamIO.resize expects. Only the newest pending size is
// kept: a resize that is already stale need not be applied.
import type { TerminalSize } from '../../protocols/remotecommand/index.js';

export class SizeQueue implements AsyncIterable<TerminalSize> {
  private pending: TerminalSize | undefined;
  private waiter: ((r: IteratorResult<TerminalSize>) => void) | undefined;
  private ended = false;

  push(size: TerminalSize): void {
    if (this.ended || size.width <= 0 || size.height <= 0) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: size, done: false });
    } else {
      this.pending = size;
    }
  }

  end(): void {
    this.ended = true;
    const w = this.waiter;
    this.waiter = undefined;
    w?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<TerminalSize> {
    return {
      next: () => {
        if (this.pending) {
          const value = this.pending;
          this.pending = undefined;
          return Promise.resolve({ value, done: false });
        }
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiter = resolve));
      },
      return: () => {
        this.end();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
