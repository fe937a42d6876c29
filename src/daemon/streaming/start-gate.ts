// Admission for session starts. Starting a session (the upgrade, the streams, the runtime's
// checks and spawn) is the heavy part of its work on the event loop; a burst of them at once
// left no turn for what clients wait on under a deadline (new connections, unary RPCs such as
// the next Exec). At most `limit` sessions start at a time; a session holds its place until it
// ends or `windowMs` has passed, so long sessions (an interactive shell) never block others.
export class StartGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number, private readonly windowMs: number) {}

  /** Resolves with the release of a place (idempotent; also released after windowMs). */
  async enter(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
    const timer = setTimeout(release, this.windowMs);
    timer.unref();
    return release;
  }
}
