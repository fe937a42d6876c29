/** What the rig hands to tests, by process env name (the same names child processes see). */
export interface RigEnv {
  /** `127.0.0.1:PORT` of the plain-http registry. */
  ISULATS_TEST_REGISTRY: string;
  /** `127.0.0.1:PORT/library/busybox:latest` */
  ISULATS_TEST_BUSYBOX: string;
  /** `127.0.0.1:PORT/pause:3.9` */
  ISULATS_TEST_PAUSE: string;
  /** `unix:///tmp/ist-ctd-XXXXXX/c.sock`: a real containerd 1.6 CRI endpoint. */
  ISULATS_TEST_CONTAINERD: string;
  /** `127.0.0.1:PORT` of containerd's CRI streaming server. */
  ISULATS_TEST_CONTAINERD_STREAM: string;
  /** Dir holding the rig's bridge conflist (unique network, bridge and subnet). */
  ISULATS_TEST_CNI_CONF_DIR: string;
}

export const RIG_ENV_KEYS: ReadonlyArray<keyof RigEnv> = [
  'ISULATS_TEST_REGISTRY',
  'ISULATS_TEST_BUSYBOX',
  'ISULATS_TEST_PAUSE',
  'ISULATS_TEST_CONTAINERD',
  'ISULATS_TEST_CONTAINERD_STREAM',
  'ISULATS_TEST_CNI_CONF_DIR',
];

/** The vitest `provide`/`inject` key. */
export const RIG_PROVIDE_KEY = 'isulatsRig';

declare module 'vitest' {
  export interface ProvidedContext {
    isulatsRig: RigEnv;
  }
}

/** Reads the rig's values from process env (set by global setup and by setup-env.ts). */
export function rigEnv(): RigEnv {
  const out: Partial<RigEnv> = {};
  const missing: string[] = [];
  for (const key of RIG_ENV_KEYS) {
    const value = process.env[key];
    if (value) out[key] = value;
    else missing.push(key);
  }
  if (missing.length > 0) {
    throw new Error(`test rig not running (missing ${missing.join(', ')}); run integration tests through vitest`);
  }
  return out as RigEnv;
}
