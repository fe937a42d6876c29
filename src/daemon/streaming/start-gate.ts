// Admission for session starts. Starting a session (the upgrade, the streams, the runtime's
// checks and spawn) is the heavy part of its work on the event loop; a burst of them at once
// left no turn for what clients wait on under a deadline (new connections, unary RPCs such as
// the next Exec). At most `limit` sessions start at a time; a session holds its place until it
// ends or `windowMs` has passed, so long sessions (an interactive shell) never block others.
export class StartGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number, private readonly windowMs: number) {}

  /** No place taken and nobody waiting: a keyed gate may drop this one. */
  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }

  /** Resolves with the release of a place (idempotent; also released after windowMs). */
  async enter(onRelease?: () => void): Promise<() => void> {
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
      onRelease?.();
    };
    const timer = setTimeout(release, this.windowMs);
    timer.unref();
    return release;
  }
}

/**
 * One StartGate per key (the container of an exec or attach, the pod of a port-forward): sessions
 * of one container start `limit` at a time, and those of another never queue behind them, so a
 * client holding many sessions on its pod delays no other pod's exec (one global gate did: 60
 * idle sessions made another client's exec wait 27 s). A key's gate goes once it is idle.
 */
export class KeyedStartGate {
  private readonly gates = new Map<string, StartGate>();

  constructor(private readonly limit: number, private readonly windowMs: number) {}

  /** Keys with sessions starting or waiting to (for tests and metrics). */
  get size(): number {
    return this.gates.size;
  }

  enter(key: string): Promise<() => void> {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new StartGate(this.limit, this.windowMs);
      this.gates.set(key, gate);
    }
    const g = gate;
    return g.enter(() => {
      if (g.idle && this.gates.get(key) === g) this.gates.delete(key);
    });
  }
}
