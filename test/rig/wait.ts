import { setTimeout as sleep } from 'node:timers/promises';

/** Thrown by a probe to stop waiting at once (e.g. the process being waited on has died). */
export class GiveUp extends Error {}

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  what: string;
}

/** Polls `probe` until it returns a value other than undefined/false, or throws after the deadline. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, opts: WaitOptions): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  const interval = opts.intervalMs ?? 100;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    await sleep(interval);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}${reason}`);
}
