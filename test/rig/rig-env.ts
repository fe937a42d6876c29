/**
 * Which CRI runtime the rig starts as the CLI's remote peer: containerd 1.6 (the default run) or
 * `isulats daemon` (ISULATS_TEST_PEER=isulats, the run of the CLI suite against our own daemon).
 */
export type CriPeer = 'containerd' | 'isulats';

/** What the rig hands to tests, by process env name (the same names child processes see). */
export interface RigEnv {
  /** `127.0.0.1:PORT` of the plain-http registry. */
  ISULATS_TEST_REGISTRY: string;
  /** `127.0.0.1:PORT/library/busybox:latest` */
  ISULATS_TEST_BUSYBOX: string;
  /** `127.0.0.1:PORT/pause:3.9` */
  ISULATS_TEST_PAUSE: string;
  /** The peer behind ISULATS_TEST_CRI_ENDPOINT. */
  ISULATS_TEST_CRI_PEER: CriPeer;
  /** `unix:///tmp/ist-ctd-XXXXXX/c.sock` or `unix:///tmp/ist-d-XXXXXX/d.sock`: the peer's CRI endpoint. */
  ISULATS_TEST_CRI_ENDPOINT: string;
  /**
   * containerd's CRI endpoint, for tests about containerd itself (comparisons, interop). Only the
   * containerd peer's run has it; reading it in the other run throws (see rigEnv()).
   */
  ISULATS_TEST_CONTAINERD: string;
  /** `127.0.0.1:PORT` of containerd's CRI streaming server (containerd peer only). */
  ISULATS_TEST_CONTAINERD_STREAM: string;
  /** Dir holding the rig's bridge conflist (unique network, bridge and subnet). */
  ISULATS_TEST_CNI_CONF_DIR: string;
}

const CONTAINERD_KEYS: ReadonlyArray<keyof RigEnv> = ['ISULATS_TEST_CONTAINERD', 'ISULATS_TEST_CONTAINERD_STREAM'];

export const RIG_ENV_KEYS: ReadonlyArray<keyof RigEnv> = [
  'ISULATS_TEST_REGISTRY',
  'ISULATS_TEST_BUSYBOX',
  'ISULATS_TEST_PAUSE',
  'ISULATS_TEST_CRI_PEER',
  'ISULATS_TEST_CRI_ENDPOINT',
  ...CONTAINERD_KEYS,
  'ISULATS_TEST_CNI_CONF_DIR',
];

/** The peer a run asks for (ISULATS_TEST_PEER), checked. */
export function requestedPeer(): CriPeer {
  const peer = process.env.ISULATS_TEST_PEER ?? 'containerd';
  if (peer !== 'containerd' && peer !== 'isulats') throw new Error(`ISULATS_TEST_PEER must be containerd or isulats, not ${peer}`);
  return peer;
}

/** The vitest `provide`/`inject` key. */
export const RIG_PROVIDE_KEY = 'isulatsRig';

declare module 'vitest' {
  export interface ProvidedContext {
    isulatsRig: RigEnv;
  }
}

/** Reads the rig's values from process env (set by global setup and by setup-env.ts). */
export function rigEnv(): RigEnv {
  const out: Record<string, string> = {};
  const missing: string[] = [];
  const peer = process.env.ISULATS_TEST_CRI_PEER;
  for (const key of RIG_ENV_KEYS) {
    const value = process.env[key];
    if (value) out[key] = value;
    else if (!(peer === 'isulats' && CONTAINERD_KEYS.includes(key))) missing.push(key);
  }
  if (missing.length > 0) {
    throw new Error(`test rig not running (missing ${missing.join(', ')}); run integration tests through vitest`);
  }
  // A containerd-only test selected in the daemon peer's run fails loudly instead of reading undefined.
  return new Proxy(out, {
    get(target, key: string) {
      if (CONTAINERD_KEYS.includes(key as keyof RigEnv) && !(key in target)) {
        throw new Error(`${key}: this test needs the containerd peer, but this run's peer is ${peer}`);
      }
      return target[key];
    },
  }) as unknown as RigEnv;
}
