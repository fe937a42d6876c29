// One-time tokens for streaming requests, with kubelet's request cache
// semantics: a random URL-safe token per Exec/Attach/PortForward answer,
// consumed by the first request that presents it, forgotten unused after the
// TTL, and a bound on how many may wait at once (the oldest expire first).
import { randomBytes } from 'node:crypto';
import { unavailable } from '../../runtime/errors.js';

/** kubelet's CacheTTL. */
export const DEFAULT_TOKEN_TTL_MS = 60_000;
/** kubelet's maxInFlight. */
export const DEFAULT_MAX_IN_FLIGHT = 1000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

export class TokenCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs = DEFAULT_TOKEN_TTL_MS,
    private readonly maxInFlight = DEFAULT_MAX_IN_FLIGHT,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores `value` and returns its token. */
  insert(value: T): string {
    this.evictExpired();
    if (this.entries.size >= this.maxInFlight) {
      throw unavailable(`too many streaming requests in flight (${this.maxInFlight}); try again later`);
    }
    // 16 random bytes: unguessable, and base64url keeps the URL path clean.
    let token = randomBytes(16).toString('base64url');
    while (this.entries.has(token)) token = randomBytes(16).toString('base64url');
    this.entries.set(token, { value, expiresAt: this.now() + this.ttlMs });
    return token;
  }

  /** Takes the value for `token` once; undefined when unknown, used or expired. */
  consume(token: string): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.entries.delete(token);
    return entry.expiresAt > this.now() ? entry.value : undefined;
  }

  get size(): number {
    this.evictExpired();
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  private evictExpired(): void {
    const now = this.now();
    // Map keeps insertion order and every entry has the same TTL: stop at the first live one.
    for (const [token, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(token);
    }
  }
}
