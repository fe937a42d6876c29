// Which backend a command talks to. Precedence, as the foundation issue sets it:
// flag, then CONTAINER_RUNTIME_ENDPOINT / IMAGE_SERVICE_ENDPOINT, then the
// client config file, then a live isulats daemon socket at its default path
// (only when --root/--state are not given), then the embedded engine.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import type { BackendOptions, CriBackend } from './backend.js';
import type { ClientConfig } from './config-file.js';

export const DEFAULT_DAEMON_SOCKET = '/var/run/isulats/isulats.sock';

export interface BackendChoice {
  runtimeEndpoint?: string;
  imageEndpoint?: string;
  /** Where the endpoint came from, for --debug and error messages. */
  source: 'flag' | 'env' | 'config' | 'daemon' | 'embedded';
}

export interface ResolveInput {
  runtimeEndpointFlag?: string;
  imageEndpointFlag?: string;
  config: ClientConfig;
  root?: string;
  state?: string;
  env?: NodeJS.ProcessEnv;
  daemonSocket?: string;
}

export async function chooseBackend(input: ResolveInput): Promise<BackendChoice> {
  const env = input.env ?? process.env;
  const imageOf = (fallback?: string) =>
    input.imageEndpointFlag || env.IMAGE_SERVICE_ENDPOINT || input.config['image-endpoint'] || fallback;
  if (input.runtimeEndpointFlag) return { runtimeEndpoint: input.runtimeEndpointFlag, imageEndpoint: imageOf(input.runtimeEndpointFlag), source: 'flag' };
  if (env.CONTAINER_RUNTIME_ENDPOINT) return { runtimeEndpoint: env.CONTAINER_RUNTIME_ENDPOINT, imageEndpoint: imageOf(env.CONTAINER_RUNTIME_ENDPOINT), source: 'env' };
  if (input.config['runtime-endpoint']) return { runtimeEndpoint: input.config['runtime-endpoint'], imageEndpoint: imageOf(input.config['runtime-endpoint']), source: 'config' };
  if (!input.root && !input.state) {
    const sock = input.daemonSocket ?? env.ISULATS_DAEMON_SOCKET ?? DEFAULT_DAEMON_SOCKET;
    if (await socketAnswers(sock)) {
      const ep = `unix://${sock}`;
      return { runtimeEndpoint: ep, imageEndpoint: imageOf(ep), source: 'daemon' };
    }
  }
  return { source: 'embedded', imageEndpoint: imageOf() };
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

export async function openBackend(choice: BackendChoice, opts: BackendOptions): Promise<CriBackend> {
  if (choice.runtimeEndpoint) {
    const { RemoteBackend } = await import('./remote.js');
    return new RemoteBackend({ runtimeEndpoint: choice.runtimeEndpoint, imageEndpoint: choice.imageEndpoint, timeoutMs: opts.timeoutMs, debug: opts.debug });
  }
  const { openEmbeddedBackend } = await import('./embedded.js');
  return openEmbeddedBackend(opts);
}
