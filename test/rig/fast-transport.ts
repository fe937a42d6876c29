// The fast path's two unix transports (src/fast/unix-stream.ts), for describe.each: a suite of
// its I/O runs on both.
import { afterEach, beforeEach, vi } from 'vitest';

export const FAST_TRANSPORTS: Array<[name: string, net: string]> = [['on the libuv pipe handle', '0'], ['on node:net', '1']];

/** The suite's tests run on the transport `net` names (ISULATS_FAST_NET), undone after each. */
export function useFastTransport(net: string): void {
  beforeEach(() => {
    vi.stubEnv('ISULATS_FAST_NET', net);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
}
