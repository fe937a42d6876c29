// Work several callers wait for, done once (a blob download two pulls of one image need). It goes
// on while at least one of them still waits: a caller whose signal aborts stops waiting at once,
// and the last one to leave aborts the work itself. Between processes the blob lock does the
// sharing; this is the same within one.

interface Shared {
  done: Promise<void>;
  waiters: number;
  abort: AbortController;
}

export class SharedWork {
  private readonly running = new Map<string, Shared>();

  /** Callers waiting for the work under `key` now (0 when there is none). */
  waiters(key: string): number {
    return this.running.get(key)?.waiters ?? 0;
  }

  /**
   * Waits for the work under `key`, starting it with `start` when none runs. `start` gets the
   * work's own signal, which aborts when every waiter has left. Rejects with the work's error,
   * or with `signal`'s reason once it aborts (the last waiter once the work has stopped).
   */
  join(key: string, start: (signal: AbortSignal) => Promise<void>, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    let work = this.running.get(key);
    if (!work) {
      const abort = new AbortController();
      const created: Shared = { done: Promise.resolve(), waiters: 0, abort };
      created.done = Promise.resolve()
        .then(() => start(abort.signal))
        .finally(() => this.forget(key, created));
      created.done.catch(() => undefined);
      this.running.set(key, created);
      work = created;
    }
    const joined = work;
    joined.waiters++;
    return new Promise<void>((resolve, reject) => {
      let waiting = true;
      const leave = () => {
        waiting = false;
        signal?.removeEventListener('abort', onAbort);
        joined.waiters--;
      };
      const onAbort = () => {
        if (!waiting) return;
        leave();
        if (joined.waiters > 0) return reject(signal!.reason);
        // Nobody waits any more: stop the work, let a later caller start it anew, and answer once
        // it has undone itself (connection closed, partial file removed, lock released).
        this.forget(key, joined);
        joined.abort.abort(signal!.reason);
        void joined.done.catch(() => undefined).then(() => reject(signal!.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      joined.done.then(
        () => {
          if (!waiting) return;
          leave();
          resolve();
        },
        (error: unknown) => {
          if (!waiting) return;
          leave();
          reject(error);
        },
      );
    });
  }

  private forget(key: string, work: Shared): void {
    if (this.running.get(key) === work) this.running.delete(key);
  }
}
