// Which backend a command talks to. First match wins:
//   1. -r (or `-r embedded`, `--embedded`), 2. CONTAINER_RUNTIME_ENDPOINT,
//   3. the client config file's runtime-endpoint (`embedded` allowed),
//   4. --root/--state given: the embedded engine (they mean nothing elsewhere),
//   5. the first known CRI socket that answers a Version call (knownEndpoints()),
//   6. the embedded engine, with a note on stderr for verbs that change state.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import type { BackendOptions, CriBackend } from './backend.js';
import type { ClientConfig } from './config-file.js';
import { EMBEDDED_ENDPOINT, knownEndpoints, probedNote } from './known-endpoints.js';

export { asEndpoint, DEFAULT_DAEMON_SOCKET, EMBEDDED_ENDPOINT, KNOWN_FOREIGN_ENDPOINTS, knownEndpoints, probedNote } from './known-endpoints.js';

export interface BackendChoice {
  runtimeEndpoint?: string;
  imageEndpoint?: string;
  /** Where the endpoint came from, for --debug, notes and error messages. */
  source: 'flag' | 'env' | 'config' | 'daemon' | 'probe' | 'embedded';
  /** Embedded: asked for (flag, env, config, --root/--state) rather than a fallback. */
  explicit?: boolean;
  /** What was tried before settling, for the stderr note: endpoint and why it did not answer. */
  tried?: { endpoint: string; reason: string }[];
}

export interface ResolveInput {
  runtimeEndpointFlag?: string;
  imageEndpointFlag?: string;
  embeddedFlag?: boolean;
  config: ClientConfig;
  root?: string;
  state?: string;
  env?: NodeJS.ProcessEnv;
  /** Our daemon's socket (a path or unix:// URL); default $ISULATS_DAEMON_SOCKET, then DEFAULT_DAEMON_SOCKET. */
  daemonSocket?: string;
  /** Deadline of each probe, ms. */
  probeTimeoutMs?: number;
}

export async function chooseBackend(input: ResolveInput): Promise<BackendChoice> {
  const env = input.env ?? process.env;
  const imageOf = (fallback?: string) =>
    input.imageEndpointFlag || env.IMAGE_SERVICE_ENDPOINT || input.config['image-endpoint'] || fallback;
  const named = (endpoint: string, source: 'flag' | 'env' | 'config'): BackendChoice =>
    endpoint === EMBEDDED_ENDPOINT
      ? { source: 'embedded', explicit: true, imageEndpoint: imageOf() }
      : { runtimeEndpoint: endpoint, imageEndpoint: imageOf(endpoint), source };
  if (input.embeddedFlag) return { source: 'embedded', explicit: true, imageEndpoint: imageOf() };
  if (input.runtimeEndpointFlag) return named(input.runtimeEndpointFlag, 'flag');
  if (env.CONTAINER_RUNTIME_ENDPOINT) return named(env.CONTAINER_RUNTIME_ENDPOINT, 'env');
  if (input.config['runtime-endpoint']) return named(input.config['runtime-endpoint'], 'config');
  if (input.root || input.state) return { source: 'embedded', explicit: true, imageEndpoint: imageOf() };
  const tried: { endpoint: string; reason: string }[] = [];
  const { probeCri } = await import('./probe.js');
  for (const { endpoint, daemon } of knownEndpoints(env, input.daemonSocket)) {
    const r = await probeCri(endpoint, input.probeTimeoutMs ?? 2000);
    if (r.ok) return { runtimeEndpoint: endpoint, imageEndpoint: imageOf(endpoint), source: daemon ? 'daemon' : 'probe', tried };
    tried.push({ endpoint, reason: r.reason });
  }
  return { source: 'embedded', explicit: false, imageEndpoint: imageOf(), tried };
}

/**
 * The one line on stderr that says which runtime a call found by itself, or
 * undefined when none is due: an endpoint that was named, or the embedded
 * engine asked for, or found for a read-only verb.
 */
export function choiceNote(choice: BackendChoice, changesState: boolean): string | undefined {
  if (choice.source === 'daemon' || choice.source === 'probe') {
    return probedNote(choice.runtimeEndpoint!);
  }
  if (choice.source === 'embedded' && !choice.explicit && changesState) {
    // An absent socket or a stale file is the usual case on a node: only other failures are named.
    const tried = (choice.tried ?? []).filter((t) => t.reason !== 'no such socket' && t.reason !== 'nothing listens on it').map((t) => `${t.endpoint}: ${t.reason}`);
    const why = tried.length ? ` (${tried.join('; ')})` : '';
    return `isulats: no CRI runtime answered on the known sockets${why}; using the embedded engine (--embedded says so and silences this)`;
  }
  return undefined;
}

/** True when something accepts connections on the unix socket (a stale file does not count). */
export function socketAnswers(path: string, timeoutMs = 300): Promise<boolean> {
  if (!existsSync(path)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

export async function openBackend(choice: BackendChoice, opts: BackendOptions & { readOnly?: boolean }): Promise<CriBackend> {
  if (choice.runtimeEndpoint) {
    const { RemoteBackend } = await import('./remote.js');
    return new RemoteBackend({ runtimeEndpoint: choice.runtimeEndpoint, imageEndpoint: choice.imageEndpoint, timeoutMs: opts.timeoutMs, debug: opts.debug });
  }
  const { openEmbeddedBackend } = await import('./embedded.js');
  return openEmbeddedBackend(opts);
}
