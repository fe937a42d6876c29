// Node timers hold at most 2^31-1 ms (~24.8 days): a longer delay, or one that wrapped through
// `| 0`, fires after 1 ms with a TimeoutOverflowWarning. Durations a client chooses (RPC
// deadlines, ExecSync timeouts, sample intervals) go through these caps before they reach a timer,
// so "a very long time" means the longest wait a timer can hold, never "now". grpc-go does the
// same with durations past what it can represent.

/** The longest delay setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The longest RPC timeout a grpc-js peer honours: whole seconds below MAX_TIMER_MS, so that the
 * grpc-timeout header it is sent as ("2147483S") still fits the peer's timer.
 */
export const MAX_RPC_TIMEOUT_MS = Math.floor(MAX_TIMER_MS / 1000) * 1000;

/** `ms` as a timer can hold it: capped at MAX_TIMER_MS, never negative (NaN counts as 0). */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

/** The deadline (epoch ms) for an RPC that may take `timeoutMs`, capped at MAX_RPC_TIMEOUT_MS. */
export function rpcDeadline(timeoutMs: number, now = Date.now()): number {
  return now + Math.min(Math.max(timeoutMs, 0), MAX_RPC_TIMEOUT_MS);
}
